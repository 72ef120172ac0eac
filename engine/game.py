"""The interface every game implements, designed for all five games at once.

A game is a state machine with no I/O.  The table core deep-copies the state before
``apply`` so a game may mutate it freely, and throws the copy away when the game
raises :class:`~engine.actions.IllegalAction`: bad input changes nothing.

What the five games need, and where it lives here:

* hidden roles, private peeks, a player's own hand -> ``private_view(state, seat)``,
  the only place a secret may appear;
* votes, choices, dice and cards the table must supply -> ``expects(state)``;
* board tracks (Threat Track, policy tracks, timers) -> ``tracks(state)``;
* narration and host reminders -> effects returned by ``new`` and ``apply``;
* randomness (shuffles, deals) -> only the ``rng`` handed in, seeded from the log,
  so a replay deals the same cards.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.actions import Action
from engine.effects import Effect, Expect, Track


class Game(Protocol):
    """One game's rules.  Implementations are stateless; all state is in ``state``."""

    name: str
    """Registry key used in the log, e.g. ``"unmask"``; never changes once released."""
    title: str
    min_seats: int
    max_seats: int

    def new(self, seats: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> tuple[Any, list[Effect]]:
        """Set up a game for these seat names; return its state and opening effects."""

    def apply(self, state: Any, action: Action, rng: random.Random) -> list[Effect]:
        """Apply one action to ``state`` in place, or raise IllegalAction."""

    def public_view(self, state: Any) -> dict[str, Any]:
        """Everything the whole table may see (the host page shows exactly this)."""

    def private_view(self, state: Any, seat: int) -> dict[str, Any]:
        """What ``seat`` alone may see: its role, its peeks, its secret prompts."""

    def expects(self, state: Any) -> list[Expect]:
        """What the table is waiting for now, in the order to ask for it."""

    def tracks(self, state: Any) -> dict[str, Track]:
        """Board tracks to show on LEDs, by name (``"threat"``...)."""

    def is_over(self, state: Any) -> bool:
        """True once the game has ended and only undo can change it."""
