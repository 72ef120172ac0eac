"""A tiny game with Secret Voldemort's three tracks at once, for the board-lights tests.

Secret Voldemort is not written yet; this stands in for it with only what the lights
need: Order policies (5 spaces), Dark Arts policies (6) and the election tracker (3,
blinking when full: the chaos penalty is in force).  The host sets the tracks with one
``set`` action.  Kept in this one module so it is easy to adapt to the engine's
game declaration.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.args import Number, Opt
from engine.effects import Effect, Track
from engine.game import Turn
from engine.steps import Move, Step, StepGame
from engine.table import NEW, Table

LENGTHS = {"order": 5, "dark_arts": 6, "election": 3}


@dataclass
class Spaces:
    step: str = "playing"
    order: int = 0
    dark_arts: int = 0
    election: int = 0


def _set(state: Spaces, turn: Turn) -> list[Effect]:
    for name, value in turn.args.items():
        if value is not None:
            setattr(state, name, value)
    return []


class ThreeTracks(StepGame[Spaces]):
    name = "three_tracks"
    title = "Three tracks"
    min_seats = 0
    max_seats = 10
    steps = (
        Step(
            "playing",
            "playing",
            (Move[Spaces]("set", _set, args={name: Opt(Number(0, length)) for name, length in LENGTHS.items()}),),
        ),
    )

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[Spaces, list[Effect]]:
        return Spaces(), []

    def tracks(self, state: Spaces) -> dict[str, Track]:
        return {
            name: Track(getattr(state, name), length, attention=name == "election" and state.election == length)
            for name, length in LENGTHS.items()
        }


def three_tracks(order: int, dark_arts: int, election: int) -> dict[str, Track]:
    """The game's tracks at these positions, as the table would hand them to the lights."""
    table = Table({"three_tracks": ThreeTracks()})
    table.apply(Action(NEW, {"game": "three_tracks", "seats": []}), 0)
    table.apply(Action("set", {"order": order, "dark_arts": dark_arts, "election": election}), 0)
    return table.tracks()


ONE, ZERO = 0b11110000, 0b11000000  # neopixel_spi's SPI byte for a WS2812 1 bit and 0 bit


def decode(frame: bytes) -> bytes:
    """The colour bytes a WS2812 chain reads from one SPI write: the reset (zero bytes)
    around it stripped, each following byte one data bit, most significant first."""
    body = frame.strip(b"\0")
    assert set(body) <= {ONE, ZERO}, "every SPI byte is a 1-bit or a 0-bit pattern"
    assert len(body) % 8 == 0
    bits = "".join("1" if b == ONE else "0" for b in body)
    return bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits), 8))
