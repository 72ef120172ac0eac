"""The interface between the table core and a game, designed for all five games at once.

A game is a state machine with no I/O.  The table core deep-copies the state before
``apply`` so a game may mutate it freely, and throws the copy away when the game
refuses: bad input changes nothing.  Games are written as step declarations
(:mod:`engine.steps`), which implement this protocol; the table needs only this.

What the five games need, and where it lives here:

* hidden roles, private peeks, a player's own hand -> secrets marked in the state
  (:mod:`engine.secrets`), so ``public_view`` and ``private_view`` are derived;
* votes, choices, dice and cards the table must supply -> ``expects(state)``;
* board tracks (Threat Track, policy tracks) -> ``tracks(state)``; timers -> the
  ``StartTimer`` effect, kept by the table (:mod:`engine.timers`), ended by ``timer_done``;
* narration and host reminders -> effects returned by ``new`` and ``apply``;
* randomness (shuffles, deals) -> only ``Turn.random``, drawn from the game's own seed
  and a name, so a replay, and an undo followed by the same action, deal the same cards.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect, Track

S = TypeVar("S")


@dataclass(frozen=True)
class Turn:
    """One action as a game's handler sees it: who acts, its parsed arguments, and the
    game's randomness.

    ``random(name)`` is a generator seeded from the game's seed and ``name`` alone: the
    Loyalty deal is the same whichever action triggers it and however often it is undone
    and done again.  A game that shuffles again later names each shuffle (``"deck", 2``)."""

    kind: str
    seat: int | None
    seats: tuple[str, ...]
    game_seed: int
    args: Mapping[str, Any] = field(default_factory=dict)

    def random(self, *name: object) -> random.Random:
        key = repr((self.game_seed, *name)).encode()
        return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))

    def own_seat(self, not_yours: str, whose: str) -> int:
        """The seat this action is for: a phone's own seat, or the one the host's page names
        in the ``seat`` argument.  A phone may not act for another seat (``not_yours``), and
        the host must say which seat (``whose``): the two ways a seat's answer arrives."""
        given = self.args.get("seat")
        if self.seat is not None and given is not None and given != self.seat:
            raise IllegalAction(not_yours)
        seat = self.seat if self.seat is not None else given
        if seat is None:
            raise IllegalAction(whose)
        return int(seat)

    @classmethod
    def of(cls, action: Action, seats: Sequence[str], game_seed: int) -> Turn:
        return cls(kind=action.kind, seat=action.seat, seats=tuple(seats), game_seed=game_seed)


class Game(Protocol[S]):
    """One game's rules.  Implementations are stateless; all state is in ``S``."""

    @property
    def name(self) -> str:
        """Registry key used in the log, e.g. ``"unmask"``; never changes once released."""
        ...

    @property
    def title(self) -> str: ...

    @property
    def min_seats(self) -> int: ...

    @property
    def max_seats(self) -> int: ...

    @property
    def option_choices(self) -> Mapping[str, Sequence[str]]:
        """Options the host picks from at set-up (name -> allowed values, first the default)."""
        ...

    @property
    def kept_options(self) -> Mapping[str, Any]:
        """Options that describe the box's own board rather than one evening's game (a
        board's wheels), each with an example value that shows the host its form: entered
        once, then kept by the box and offered at each set-up.  They still reach ``new`` as
        options, so a game's log alone replays it."""
        ...

    @property
    def labels(self) -> Mapping[str, str]:
        """What the pages call each key of the views and each kept option (key -> message),
        e.g. ``{"threat": _("Threat Track")}``; a key without one is shown as it is written."""
        ...

    def new(self, options: Mapping[str, Any], turn: Turn) -> tuple[S, list[Effect]]:
        """Set up a game for ``turn.seats``; return its state and opening effects."""
        ...

    def apply(self, state: S, action: Action, turn: Turn) -> list[Effect]:
        """Apply one action to ``state`` in place, or raise IllegalAction."""
        ...

    def public_view(self, state: S) -> dict[str, Any]:
        """Everything the whole table may see (the host page shows exactly this)."""
        ...

    def private_view(self, state: S, seat: int) -> dict[str, Any]:
        """What ``seat`` alone may see: its role, its peeks."""
        ...

    def learned(self, state: S, seat: int) -> dict[str, Any]:
        """What ``seat`` has been shown (not its own input): what undo cannot unshow."""
        ...

    def secret_labels(self, state: S) -> dict[str, str]:
        """What each secret is called, for the host's undo warning."""
        ...

    def corrections_now(self, state: S) -> list[str]:
        """The corrections the table may make now, in its words: what a refused undo
        offers instead (a step that showed a secret is final)."""
        ...

    def is_private(self, kind: str) -> bool:
        """Whether ``kind`` is a seat's own rules-free move, never the table's undo step."""
        ...

    def expects(self, state: S) -> list[Expect]:
        """What the table is waiting for now, in the order to ask for it."""
        ...

    def tracks(self, state: S) -> dict[str, Track]:
        """Board tracks to show on LEDs, by name (``"threat"``...)."""
        ...

    def hides_actors(self, state: S) -> bool:
        """True while who acts is itself a secret (a one-night game's night, when only
        the roles called are awake): the table then names nobody for what is done, in
        undo warnings or on the undo button."""
        ...

    def is_over(self, state: S) -> bool:
        """True once the game has ended and only undo can change it."""
        ...
