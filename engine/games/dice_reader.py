"""The box as a plain dice reader, for any game: roll, and it says the result.

This is what the box does before a game is chosen, and what the demo starts with.
Symbol dice taught to the box are read with the pipped ones and said by face name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.args import Dice
from engine.dice import in_order, pip_total, say_roll
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.messages import words
from engine.steps import Move, Step, StepGame

_, _n = words("dice")
HISTORY = 20


@dataclass
class DiceState:
    step: str = "rolling"
    history: list[list[Any]] = field(default_factory=list)


def roll(state: DiceState, turn: Turn) -> list[Effect]:
    values: list[Any] = in_order(turn.args["dice"])  # listed as it is said
    state.history = (state.history + [values])[-HISTORY:]
    return [Say(say_roll(values))]


ROLL = Move[DiceState](
    "roll",
    roll,
    args={"dice": Dice(named=True)},
    by=lambda s: [],
    ask=lambda s: [Expect(kind="dice", action="roll", prompt=_("Roll any dice"), symbols=True)],
)


class DiceReader(StepGame[DiceState]):
    """Reads any roll of pipped or taught symbol dice and announces it; no hidden information."""

    name = "dice"
    title = _("Dice reader")
    min_seats = 0
    max_seats = 12
    labels = {"last": _("Last roll"), "total": _("Total"), "history": _("Earlier rolls")}
    steps = (Step("rolling", _("the box is reading dice"), (ROLL,)),)

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[DiceState, list[Effect]]:
        return DiceState(), [Say(_("Ready. Roll the dice in the tray."))]

    def describe(self, public: DiceState) -> dict[str, Any]:
        last = public.history[-1] if public.history else None
        return {"last": last, "total": pip_total(last) if last else None}
