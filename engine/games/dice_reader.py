"""The box as a plain dice reader, for any game: roll, and it says the result.

This is what the box does before a game is chosen, and what the demo starts with.
Symbol dice taught to the box are read with the pipped ones and said by face name.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, IllegalAction
from engine.dice import parse_roll, pip_total, say_roll
from engine.effects import Effect, Expect, Say, Track

HISTORY = 20


@dataclass
class DiceState:
    seats: list[str]
    rolls: list[list[Any]] = field(default_factory=list)


class DiceReader:
    """Reads any roll of pipped or taught symbol dice and announces it; no hidden information."""

    name = "dice"
    title = "Dice reader"
    min_seats = 0
    max_seats = 12

    def new(self, seats: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> tuple[DiceState, list[Effect]]:
        return DiceState(seats=list(seats)), [Say("Ready. Roll the dice in the tray.")]

    def apply(self, state: DiceState, action: Action, rng: random.Random) -> list[Effect]:
        if action.kind != "roll":
            raise IllegalAction(f"the dice reader only takes rolls, not {action.kind!r}")
        values = parse_roll(action.data.get("dice"), named=True)
        state.rolls = (state.rolls + [values])[-HISTORY:]
        return [Say(say_roll(values))]

    def public_view(self, state: DiceState) -> dict[str, Any]:
        last = state.rolls[-1] if state.rolls else None
        return {"last": last, "total": pip_total(last) if last else None, "history": state.rolls}

    def private_view(self, state: DiceState, seat: int) -> dict[str, Any]:
        return {}

    def expects(self, state: DiceState) -> list[Expect]:
        return [Expect(kind="dice", action="roll", prompt="Roll any dice", symbols=True)]

    def tracks(self, state: DiceState) -> dict[str, Track]:
        return {}

    def is_over(self, state: DiceState) -> bool:
        return False
