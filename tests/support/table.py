"""A table driven by a test as the box drives it: every action through
``engine.table.Table`` with a logged seed, so every game a test plays can be replayed."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Say
from engine.game import Game
from engine.table import NEW, Entry, Table

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]


class Scripted:
    """One game on a table, keeping its log (with seeds) and everything said."""

    def __init__(self, game: Game[Any], players: int, seed: int, options: dict[str, Any]) -> None:
        self.table = Table({game.name: game})
        self.rng = random.Random(seed)
        self.entries: list[Entry] = []
        self.said: list[str] = []
        self.act(NEW, game=game.name, seats=NAMES[:players], options=options)

    def act(self, kind: str, by: int | None = None, **data: Any) -> list[Effect]:
        """Apply one action (``by`` a seat, or the host) with a fresh logged seed."""
        return self.submit(Action(kind, data, by))

    def submit(self, action: Action) -> list[Effect]:
        """Apply an action as given; IllegalAction propagates and nothing is logged."""
        seed = self.rng.randrange(1 << 32)
        effects = self.table.apply(action, seed)
        self.entries.append(Entry(len(self.entries), action, seed))
        self.said += [e.text for e in effects if isinstance(e, Say)]
        return effects


def outcome(table: Table, action: Action, seed: int) -> tuple[str, Any]:
    """Apply ``action`` if the rules take it: ("ok", its effects) or ("illegal", why)."""
    try:
        done = table.attempt(action, seed)
    except IllegalAction as exc:
        return "illegal", str(exc)
    table.commit(done, Entry(len(table.kept), action, seed))
    return "ok", done.effects
