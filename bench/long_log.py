"""A long evening's log: start-up and undo with 20,001 entries, against one game's replay.

Builds a log of ~190 random legal games (Secret Voldemort and Unmask in turn, each
answered from its own prompts as the demo's simulated players do), then measures, in
the same run: replaying one game's entries (the baseline), starting a table service on
the whole log, each undo, and how long a reader waits for the public view while an undo
runs.  Figures are ratios to the baseline, so they mean the same on a Pi and a laptop.
Writes bench/results/long_log.json.
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
from engine.table import NEW, Entry, Table, replay

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


def build_log(path: Path, rng: random.Random) -> list[Entry]:
    """ENTRIES entries of random legal games, written in one transaction (a bench set-up)."""
    table, entries = Table(), []
    while len(entries) < ENTRIES:
        spec = GAMES[len(entries) // PER_GAME % len(GAMES)]
        action, started = Action(NEW, spec), len(entries)
        while action is not None and len(entries) < ENTRIES:
            seed = rng.randrange(1 << 62) if action.kind == NEW else 0
            entry = Entry(len(entries) + 1, action, seed, 1.7e9 + len(entries))
            table.apply(action, seed, entry.seq, entry.at)
            entries.append(entry)
            over = table.game.is_over(table.current.state) if table.game else True
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


def _reader_waits(service: TableService, stop: threading.Event, waits: list[float]) -> None:
    while not stop.is_set():
        waits.append(_timed(service.public_view))
        time.sleep(0.002)


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
    undos = [_timed(lambda: service.undo(confirmed=True)) for _ in range(5)]
    stop.set()
    reader.join()
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
    }
    return save(RESULTS, result, show=True)


if __name__ == "__main__":
    main()
