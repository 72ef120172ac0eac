"""A tiny game with Secret Voldemort's three tracks at once, for the board-lights tests.

Secret Voldemort is not written yet; this stands in for it with only what the lights
need: Order policies (5 spaces), Dark Arts policies (6) and the election tracker (3,
blinking when full: the chaos penalty is in force).  The host sets the tracks with one
``set`` action.  Kept in this one module so it is easy to adapt to the engine's
game declaration.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect, Track

LENGTHS = {"order": 5, "dark_arts": 6, "election": 3}


class ThreeTracks:
    name = "three_tracks"
    title = "Three tracks"
    min_seats = 0
    max_seats = 10

    def new(self, seats: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> tuple[dict, list[Effect]]:
        return {name: 0 for name in LENGTHS}, []

    def apply(self, state: dict, action: Action, rng: random.Random) -> list[Effect]:
        if action.kind != "set" or not all(
                name in LENGTHS and isinstance(v, int) and 0 <= v <= LENGTHS[name] for name, v in action.data.items()):
            raise IllegalAction("set a track to a space on it")
        state.update(action.data)
        return []

    def public_view(self, state: dict) -> dict[str, Any]:
        return dict(state)

    def private_view(self, state: dict, seat: int) -> dict[str, Any]:
        return {}

    def expects(self, state: dict) -> list[Expect]:
        return []

    def tracks(self, state: dict) -> dict[str, Track]:
        return {name: Track(state[name], length, attention=name == "election" and state[name] == length)
                for name, length in LENGTHS.items()}

    def is_over(self, state: dict) -> bool:
        return False


def three_tracks(order: int, dark_arts: int, election: int) -> dict[str, Track]:
    """The game's tracks at these positions, as the table would hand them to the lights."""
    game = ThreeTracks()
    state, _ = game.new([], {}, random.Random(0))
    game.apply(state, Action("set", {"order": order, "dark_arts": dark_arts, "election": election}), random.Random(0))
    return game.tracks(state)
