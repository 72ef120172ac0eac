"""A long evening's log: start-up and undo with 20,001 entries, against one game's replay.

Builds a log of ~230 random legal games (Secret Voldemort and Unmask in turn, each
answered from its own prompts as the demo's simulated players do), then measures, in
the same run: replaying one game's entries (the baseline), starting a table service on
the whole log, each undo, and how long a reader waits for the public view while an undo
runs.  The same evening is built again with one undo in every game (the first step undo
may take back, as the host's button would), and the start on that log is measured
against the start on the first: a start after any log must not depend on past games
(issue 51: 110 s against 6 s).  Figures are ratios, so they mean the same on a Pi and a
laptop.  Writes bench/results/long_log.json.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bench import save
from device.demo_players import answer
from device.store import Store
from device.table_service import TableService
from engine.actions import Action, IllegalAction
from engine.table import NEW, UNDO, UNDO_PASSES, Entry, Table, replay

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "long_log.json"
ENTRIES = 20_001
PER_GAME = 105
GAMES = (
    {"game": "voldemort", "seats": ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]},
    {"game": "unmask", "seats": ["Ann", "Bob", "Cat", "Dan", "Eve"]},
)


def _one_move(table: Table, rng: random.Random) -> Action | None:
    """A random accepted answer to one of the table's prompts (dice and cards typed)."""
    expects = table.expects()
    rng.shuffle(expects)
    for expect in expects:
        for _ in range(4):
            if expect.kind == "dice":
                data = {"dice": [rng.randint(1, 6) for _ in range(expect.count or 2)]}
            elif expect.kind == "cards":
                data = {
                    "cards": [
                        rng.choice(["0", "1", "2", "curse", "Order", "Dark Arts"]) for _ in range(expect.count or 2)
                    ]
                }
            else:
                data = answer(expect, rng)
            action = Action(expect.action, data, expect.seat)
            try:
                table.attempt(action, 0)
            except IllegalAction:
                continue
            return action
    return None


def build_log(path: Path, rng: random.Random, undo_each_game: bool = False) -> list[Entry]:
    """ENTRIES entries of random legal games, written in one transaction (a bench set-up);
    with ``undo_each_game``, each game holds one undo, of its first step undo allows."""
    table, entries = Table(), []
    while len(entries) < ENTRIES:
        spec = GAMES[len(entries) // PER_GAME % len(GAMES)]
        action, started, undone = Action(NEW, spec), len(entries), not undo_each_game
        while action is not None and len(entries) < ENTRIES:
            seed = rng.randrange(1 << 62) if action.kind == NEW else 0
            entry = Entry(len(entries) + 1, action, seed, 1.7e9 + len(entries))
            if action.kind == UNDO:
                table.undo(entry.seq, action)
            else:
                table.apply(action, seed, entry.seq, entry.at)
            entries.append(entry)
            over = table.game.is_over(table.current.state) if table.game else True
            if not undone and action.kind != NEW and table.undo_refusal() is None:
                action, undone = Action(UNDO, {UNDO_PASSES: "private"}), True
                continue
            action = None if over or len(entries) - started >= PER_GAME else _one_move(table, rng)
    store = Store(path)
    with store.db:
        store.db.executemany(
            "INSERT INTO log (seq, action, seed, at) VALUES (?, ?, ?, ?)",
            [(e.seq, e.action.to_json(), e.seed, e.at) for e in entries],
        )
    store.close()
    return entries


def _timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _undo(service: TableService) -> None:
    """One press of undo; a refusal (the step showed a secret) is timed too: it is what
    the host waits for then."""
    try:
        service.undo()
    except IllegalAction:
        pass


def _reader_waits(service: TableService, stop: threading.Event, waits: list[float]) -> None:
    while not stop.is_set():
        waits.append(_timed(service.public_view))
        time.sleep(0.002)


def _games_with_an_undo(entries: list[Entry]) -> int:
    """How many games of the log hold an undo."""
    games, undone = 0, set()
    for entry in entries:
        games += entry.action.kind == NEW
        if entry.action.kind == UNDO:
            undone.add(games)
    return len(undone)


def main() -> dict:
    rng = random.Random(6)
    folder = Path(tempfile.mkdtemp(prefix="familiar-long-log-"))
    entries = build_log(folder / "familiar.db", rng)
    last_start = max(i for i, e in enumerate(entries) if e.action.kind == NEW)
    baseline = statistics.median(_timed(lambda: replay(entries[last_start:])) for _ in range(5))
    holder: dict[str, TableService] = {}
    startup = _timed(lambda: holder.setdefault("service", TableService(Store(folder / "familiar.db"))))
    service = holder["service"]
    waits: list[float] = []
    stop = threading.Event()
    reader = threading.Thread(target=_reader_waits, args=(service, stop, waits))
    reader.start()
    try:
        undos = [_timed(lambda: _undo(service)) for _ in range(5)]
    finally:  # else the reader keeps the bench running forever
        stop.set()
        reader.join()
    with_undos = build_log(folder / "undos.db", random.Random(6), undo_each_game=True)
    undo_startup = statistics.median(_timed(lambda: TableService(Store(folder / "undos.db"))) for _ in range(3))
    plain_startup = statistics.median(_timed(lambda: TableService(Store(folder / "familiar.db"))) for _ in range(3))
    result = {
        "entries": len(entries),
        "games": sum(e.action.kind == NEW for e in entries),
        "one_game_entries": len(entries) - last_start,
        "baseline_one_game_replay_s": round(baseline, 4),
        "startup_s": round(startup, 3),
        "startup_x_baseline": round(startup / baseline, 1),
        "undo_median_s": round(statistics.median(undos), 4),
        "undo_x_baseline": round(statistics.median(undos) / baseline, 2),
        "reader_wait_max_s": round(max(waits), 4),
        "reader_wait_max_x_baseline": round(max(waits) / baseline, 2),
        "undo_log_games_with_an_undo": _games_with_an_undo(with_undos),
        "undo_log_startup_s": round(undo_startup, 3),
        "no_undo_log_startup_s": round(plain_startup, 3),
        "undo_log_startup_x_no_undo": round(undo_startup / plain_startup, 2),
    }
    return save(RESULTS, result, show=True)


if __name__ == "__main__":
    main()
