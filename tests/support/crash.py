"""Power cuts on a real box: random legal games through the HTTP API while the daemon
process (``familiar demo``) is killed with SIGKILL at random moments, some during
start-up; after each kill the log is checked with SQLite, and after each restart the
box is checked against the log.

What must hold after every kill (each failure names the kill that broke it):

* ``PRAGMA integrity_check`` says ok;
* every action the box answered 2xx is in the log, in order (a subsequence: the log
  may hold actions whose answer the kill cut off, and the camera's own rolls);
* the restarted box shows exactly the table replayed from the log (public view and
  every seated phone's private view);
* the phones seated before the kill are still seated (their cookies still work).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.store import Store
from engine.actions import Action
from engine.games import registry
from engine.table import NEW, UNDO, UNDO_PASSES, Entry, Table, replay
from support.daemon import free_port, start_demo
from support.random_play import Client, HttpTable

START_S = 90.0
"""The longest a start may take on a busy 2-core machine (the demo's is 2-5 s)."""
STEPS_PER_GAME = 60


@dataclass
class Figures:
    kills: int = 0
    kills_in_start_up: int = 0
    acked: int = 0
    joins: int = 0
    lost: int = 0
    integrity_ok: int = 0
    views_checked: int = 0
    games: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def is_subsequence(needles: list[str], haystack: list[str]) -> int:
    """How many of ``needles`` (in order) are missing from ``haystack``; 0 when all are there."""
    it = iter(haystack)
    found = 0
    for needle in needles:
        if any(item == needle for item in it):
            found += 1
        else:
            break
    return len(needles) - found


def integrity(db: Path) -> str:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def _comparable(view: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: view.get(k) for k in keys}


PUBLIC_KEYS = ("game", "title", "seats", "view", "expects", "tracks", "over")
PRIVATE_KEYS = ("seat", "name", "view", "expects", "seen")


class Soak:
    """One state directory, one daemon at a time, one random player across restarts."""

    def __init__(self, state: Path, seed: int) -> None:
        self.state, self.rng = state, random.Random(seed)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.games = sorted(registry())
        self.next_game = 0
        self.player = HttpTable(lambda source: Client(self.base, source, timeout=5), self.games, self.rng)
        self.figures = Figures()
        self._reported = 0
        self.proc: subprocess.Popen | None = None
        self.seated: set[int] = set()
        self.seated_at = -1
        self.seated_code = ""
        """The join code when the seats were looked at: it names the game the claims are for."""

    @property
    def db(self) -> Path:
        return self.state / "familiar.db"

    def start(self) -> None:
        self.proc = start_demo(self.state, self.port)

    def wait_up(self) -> None:
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            try:
                if self.player.host.request("/api/table").status == 200:
                    return
            except OSError:
                pass
            assert self.proc is not None and self.proc.poll() is None, "the daemon died while starting"
            time.sleep(0.1)
        raise TimeoutError("the daemon did not start")

    def kill(self) -> None:
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)
        self.figures.kills += 1

    def run(self, kills: int) -> Figures:
        try:
            self.start()
            self.wait_up()
            self.player.become_host()
            while self.figures.kills < kills:
                if self.rng.random() < 0.2:
                    self._kill_in_start_up()
                else:
                    self._play_until_killed(self.rng.uniform(0.3, 4.0))
                self._check_log()
                self.start()
                self.wait_up()
                self._check_restarted()
                self._progress()
        finally:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(30)
        self.figures.acked = len(self.player.acked)
        self.figures.joins = self.player.joins
        return self.figures

    def _progress(self) -> None:
        f = self.figures
        for failure in f.failures[self._reported :]:
            print(f"FAILURE {failure}", flush=True)
        self._reported = len(f.failures)
        print(
            f"kill {f.kills}: {len(self.player.acked)} acknowledged, {f.lost} lost, "
            f"integrity ok {f.integrity_ok}, {len(f.failures)} failures",
            flush=True,
        )

    def _kill_in_start_up(self) -> None:
        """Kill the running box, restart it and kill it again before (or as) it answers."""
        self.kill()
        self._check_log()
        self.start()
        time.sleep(self.rng.uniform(0.0, 2.5))
        self.kill()
        self.figures.kills_in_start_up += 1

    def _play_until_killed(self, after: float) -> None:
        timer = threading.Timer(after, self.kill)
        timer.start()
        try:
            while self.proc is not None and self.proc.poll() is None:
                try:
                    self._play_one()
                except OSError:
                    time.sleep(0.05)  # the kill cut a request off: nothing was acknowledged
        finally:
            timer.join()

    def _play_one(self) -> None:
        player = self.player
        if player.over() or self.rng.random() < 1 / STEPS_PER_GAME:
            name = self.games[self.next_game % len(self.games)]
            self.next_game += 1
            self.seated, self.seated_at = set(), -1
            player.new_game(name, registry()[name])
            self.figures.games[name] = self.figures.games.get(name, 0) + 1
            self._note_seated()
            return
        if not player.step():
            player.post_host("/api/host/undo", {}, Action(UNDO, {UNDO_PASSES: "private"}))
        if player.acked and player.acked[-1].kind in (NEW, UNDO):
            self._note_seated()

    def _note_seated(self) -> None:
        """Which phones hold a seat now (sessions that must survive the kill)."""
        seats = self.player.host.request("/api/table").body["seats"]
        mark = len(self.player.acked)
        self.seated = {s for s in range(len(seats)) if self.player.phones[s].request("/api/me").status == 200}
        self.seated_at = mark
        self.seated_code = self._join_code()

    def _join_code(self) -> str:
        return str(self.player.host.request("/api/host/join").body["url"])

    def _check_log(self) -> None:
        kill = self.figures.kills
        verdict = integrity(self.db)
        if verdict == "ok":
            self.figures.integrity_ok += 1
        else:
            self.figures.failures.append(f"kill {kill}: integrity_check says {verdict}")
        store = Store(self.db)
        try:
            logged = [e.action.to_json() for e in store.entries()]
        finally:
            store.close()
        missing = is_subsequence([a.to_json() for a in self.player.acked], logged)
        if missing:
            self.figures.lost += missing
            self.figures.failures.append(f"kill {kill}: {missing} acknowledged actions are not in the log")

    def _check_restarted(self) -> None:
        """The restarted box shows the table of its log.  The box may move on while it is
        read (the demo camera rolls dice several times a second), so the log is read
        before and after its views, and each view must equal the log's table after one
        of the entries written in between (the box writes an entry before adopting it)."""
        kill = self.figures.kills
        changed = any(a.kind in (NEW, UNDO) for a in self.player.acked[self.seated_at :])
        phones = self.seated if self.seated_at >= 0 and not changed and self._join_code() == self.seated_code else None
        store = Store(self.db)
        try:
            start = store.entries()
            after = self.player.host.request("/api/table").body
            mine = {seat: self.player.phones[seat].request("/api/me") for seat in sorted(phones or ())}
            end = store.entries()
        finally:
            store.close()
        tables = [
            (_comparable(t.public_view(), PUBLIC_KEYS), {s: _comparable(t.private_view(s), PRIVATE_KEYS) for s in mine})
            for t in _tables_between(start, end)
        ]
        if all(public != _comparable(after, PUBLIC_KEYS) for public, _ in tables):
            expected = tables[-1][0]
            differ = [k for k in PUBLIC_KEYS if after.get(k) != expected.get(k)]
            shown = "; ".join(f"{k}: box {str(after.get(k))[:300]} / log {str(expected.get(k))[:300]}" for k in differ)
            self.figures.failures.append(f"kill {kill}: the restarted table differs from the replayed log in {shown}")
        self.figures.views_checked += 1
        if phones is None:
            # The seats changed after the last look, by an acknowledged action or by one the
            # kill cut off after it was logged (a new game, an undo of one): nothing to compare.
            self._note_seated()
            return
        for seat, me in mine.items():
            if me.status != 200:
                self.figures.failures.append(f"kill {kill}: seat {seat}'s phone lost its session ({me.status})")
            elif all(private[seat] != _comparable(me.body, PRIVATE_KEYS) for _, private in tables):
                self.figures.failures.append(f"kill {kill}: seat {seat}'s view differs from the replayed log")
            self.figures.views_checked += 1


def _tables_between(start: list[Entry], end: list[Entry]) -> Iterator[Table]:
    """The log's table after ``start``, then after each entry ``end`` adds to it (the
    same table object, moved on: read each before the next)."""
    table = replay(start)
    yield table
    for entry in end[len(start) :]:
        table.fold(entry)
        yield table
