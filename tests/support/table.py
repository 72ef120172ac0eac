"""A table driven by a test as the box drives it: every action through
``engine.table.Table`` with a logged seed, so every game a test plays can be replayed."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect, Say
from engine.game import Game
from engine.table import NEW, Entry, Table

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea", "Max"]


class Scripted:
    """One game on a table, keeping its log (with seeds) and everything said."""

    def __init__(self, game: Game[Any], players: int | list[str], seed: int, options: dict[str, Any]) -> None:
        """``players``: how many (named from :data:`NAMES`), or the seats' names."""
        self.table = Table({game.name: game})
        self.rng = random.Random(seed)
        self.entries: list[Entry] = []
        self.said: list[str] = []
        seats = NAMES[:players] if isinstance(players, int) else players
        self.act(NEW, game=game.name, seats=seats, options=options)

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


def twin_of(table: Table, change: Callable[[Any], set[int]]) -> tuple[Table, set[int]]:
    """A copy of ``table`` with one secret changed by ``change``, which returns the seats
    that hold that secret (all seats when it changed nothing): the twin-state technique,
    where everything the holders do not see must come out the same at both tables."""
    twin = fork(table)
    return twin, change(twin.current.state)


def fork(table: Table) -> Table:
    """A table that goes on from ``table``'s state and log on its own: its own copy of
    the state, and of the log's bookkeeping (undo's words and who answered last are
    public, so a twin needs the history too).  Entries and marked states are never
    changed once made, so they are shared; a deep copy of a long log costs seconds."""
    twin = copy.copy(table)
    twin.current = copy.deepcopy(table.current)
    twin.kept, twin.marks, twin.answered = list(table.kept), dict(table.marks), dict(table.answered)
    twin.final, twin.informed = dict(table.final), dict(table.informed)
    twin.hidden, twin.private = set(table.hidden), set(table.private)
    twin.seen = copy.deepcopy(table.seen)
    return twin


def sent(expect: Expect, data: dict[str, Any], r: random.Random) -> Action:
    """``data`` answering ``expect`` as a page sends it: from the seat's own phone (always
    for a secret prompt), or from the host's page naming the seat."""
    if expect.seat is not None and (expect.secret or r.random() < 0.5):
        return Action(expect.action, data, expect.seat)
    return Action(expect.action, {**data, **({"seat": expect.seat} if expect.seat is not None else {})})


def walk(
    play: Scripted,
    r: random.Random,
    steps: int,
    choose: Callable[[], Action],
    check: Callable[[], None],
    twin: Callable[[Action, int], None] | None = None,
    refusals: bool = False,
) -> None:
    """Play up to ``steps`` random actions from ``choose`` until the game is over, running
    ``check`` after each.  With ``twin``, each action is applied by it (to the table and a
    twin with a secret changed) and logged here; ``refusals`` lets an action the prompts
    could not rule out (a card named at random) be refused and skipped."""
    for _ in range(steps):
        if play.table.public_view()["over"]:
            return
        action, seed = choose(), r.randrange(1 << 32)
        if twin is not None:
            twin(action, seed)
            play.entries.append(Entry(len(play.entries), action, seed))
        else:
            try:
                play.submit(action)
            except IllegalAction:
                if not refusals:
                    raise
        check()
