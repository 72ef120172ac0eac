"""The table: seats, the game being played, and its state as the fold of the log.

Nothing here does I/O.  The box's service appends each accepted action to a durable
log *before* it runs the effects; on start it replays the log through
:func:`replay`.  Undo is an action too (``table.undo``), so the log stays
append-only and a crash in the middle of an undo loses nothing: replay simply
folds the log with the undone action skipped.
"""
from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect, Say, Track
from engine.game import Game
from engine.games import registry

NEW = "table.new"
UNDO = "table.undo"
MAX_NAME = 24


@dataclass(frozen=True)
class Entry:
    """One accepted action with the seed its randomness was drawn from."""

    seq: int
    action: Action
    seed: int


@dataclass
class TableState:
    """Who sits where, which game, and that game's own state."""

    game: str | None = None
    seats: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    state: Any = None


def effective(entries: Iterable[Entry]) -> list[Entry]:
    """The entries that still count once every ``table.undo`` has removed its target."""
    kept: list[Entry] = []
    for entry in entries:
        if entry.action.kind == UNDO:
            if kept:
                kept.pop()
        else:
            kept.append(entry)
    return kept


def _seat_names(raw: Any, game: Game) -> tuple[str, ...]:
    """Validate seat names for a new game: distinct, short, printable, right count."""
    if not isinstance(raw, list) or any(not isinstance(n, str) for n in raw):
        raise IllegalAction("seats must be a list of names")
    names = tuple(" ".join(n.split()) for n in raw)
    if any(not n or len(n) > MAX_NAME or not n.isprintable() for n in names):
        raise IllegalAction(f"each seat needs a name of 1 to {MAX_NAME} printable characters")
    if len({n.casefold() for n in names}) != len(names):
        raise IllegalAction("two seats have the same name")
    if not game.min_seats <= len(names) <= game.max_seats:
        raise IllegalAction(f"{game.title} is for {game.min_seats} to {game.max_seats} players, not {len(names)}")
    return names


class Table:
    """Applies actions to the table state; pure and deterministic given the seeds."""

    def __init__(self, games: Mapping[str, Game] | None = None) -> None:
        self.games: Mapping[str, Game] = games if games is not None else registry()
        self.current = TableState()

    @property
    def game(self) -> Game | None:
        return self.games[self.current.game] if self.current.game else None

    def attempt(self, action: Action, seed: int) -> tuple[TableState, list[Effect]]:
        """Compute the state after ``action`` without committing it (IllegalAction if refused)."""
        if action.kind == UNDO:
            raise IllegalAction("undo is replayed from the log, not applied")
        rng = random.Random(seed)
        if action.kind == NEW:
            return self._new_game(action, rng)
        game = self.game
        if game is None:
            raise IllegalAction("no game is being played: start one first")
        if action.seat is not None and action.seat >= len(self.current.seats):
            raise IllegalAction(f"there is no seat {action.seat}")
        if game.is_over(self.current.state):
            raise IllegalAction("the game is over: start a new one or undo")
        after = copy.deepcopy(self.current)
        effects = game.apply(after.state, action, rng)
        return after, effects

    def commit(self, state: TableState) -> None:
        """Adopt a state computed by :meth:`attempt` (after it is durable)."""
        self.current = state

    def apply(self, action: Action, seed: int) -> list[Effect]:
        """Attempt and commit in one step (for replay and tests)."""
        state, effects = self.attempt(action, seed)
        self.commit(state)
        return effects

    def _new_game(self, action: Action, rng: random.Random) -> tuple[TableState, list[Effect]]:
        if action.seat is not None:
            raise IllegalAction("only the host can start a game")
        name = action.data.get("game")
        game = self.games.get(name) if isinstance(name, str) else None
        if game is None:
            raise IllegalAction(f"unknown game {name!r}; known: {', '.join(sorted(self.games))}")
        seats = _seat_names(action.data.get("seats", []), game)
        options = action.data.get("options") or {}
        if not isinstance(options, dict):
            raise IllegalAction("options must be an object")
        state, effects = game.new(seats, options, rng)
        return TableState(game=name, seats=seats, options=dict(options), state=state), [Say(f"New game: {game.title}."), *effects]

    # Views: the only way anything leaves the table.  Secrets appear only in private_view.

    def public_view(self) -> dict[str, Any]:
        """What the host page and the whole table may see."""
        game = self.game
        if game is None:
            return {"game": None, "title": None, "seats": [], "view": {}, "expects": [], "tracks": {}, "over": False}
        state = self.current.state
        return {
            "game": game.name,
            "title": game.title,
            "seats": list(self.current.seats),
            "view": game.public_view(state),
            "expects": [e.to_json() for e in game.expects(state) if not e.secret],
            "tracks": {k: vars(t) for k, t in self.tracks().items()},
            "over": game.is_over(state),
        }

    def private_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` alone may see, including prompts meant only for it."""
        game = self.game
        if game is None or not 0 <= seat < len(self.current.seats):
            return {"seat": seat, "name": None, "view": {}, "expects": []}
        state = self.current.state
        return {
            "seat": seat,
            "name": self.current.seats[seat],
            "view": game.private_view(state, seat),
            "expects": [e.to_json() for e in game.expects(state) if e.seat == seat],
        }

    def expects(self) -> list[Expect]:
        """Everything the table waits for, secret prompts included (for the box, not pages)."""
        game = self.game
        return game.expects(self.current.state) if game else []

    def tracks(self) -> dict[str, Track]:
        game = self.game
        return game.tracks(self.current.state) if game else {}


def replay(entries: Sequence[Entry], games: Mapping[str, Game] | None = None) -> Table:
    """Rebuild the table from its log.  Raises if a logged action no longer applies,
    because silently dropping history would be worse than a loud failure."""
    table = Table(games)
    for entry in effective(entries):
        table.apply(entry.action, entry.seed)
    return table
