"""A tiny timed game on the step declaration, for the timer tests; and the demo daemon
with it, for the tests that ``kill -9`` a real box (``python -m support.timer_game``).

The host starts a round; the round's timer runs ``seconds`` (10 unless the option says)
and warns at 3 s left; when the box sends ``timer_done`` the round is over.  ``night``
says three lines with fixed pauses between them, for the narrator's pause.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.args import Choice
from engine.effects import TIMER_DONE, Effect, Expect, Say, StartTimer
from engine.game import Turn
from engine.steps import Move, Step, StepGame

NAME = "timed"
WARNING = "Three seconds left."
NIGHT = (
    Say("Everyone, close your eyes.", then_wait=1.0),
    Say("Seer, wake up.", then_wait=0.5),
    Say("Seer, look at one card in the middle, then close your eyes again. Everyone, wake up."),
)


@dataclass
class Round:
    step: str = "ready"
    seconds: int = 10
    rounds: int = 0
    over: int = 0


def _start(state: Round, turn: Turn) -> list[Effect]:
    state.step, state.rounds = "timing", state.rounds + 1
    return [Say("The round begins."), StartTimer("round", state.seconds, warnings=((3, WARNING),))]


def _done(state: Round, turn: Turn) -> list[Effect]:
    state.step, state.over = "ready", state.over + 1
    return [Say("Time is up.")]


def _night(state: Round, turn: Turn) -> list[Effect]:
    return list(NIGHT)


class TimedRounds(StepGame[Round]):
    name = NAME
    title = "Timed rounds"
    min_seats = 1
    max_seats = 6
    options = ("seconds",)
    steps = (
        Step(
            "ready",
            "waiting for the host to start a round",
            (
                Move[Round]("start", _start, ask=lambda s: [Expect("confirm", "start", "Start the round")]),
                Move[Round]("night", _night),
            ),
        ),
        Step("timing", "the round is running", (Move[Round](TIMER_DONE, _done, args={"name": Choice(["round"])}),)),
    )

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[Round, list[Effect]]:
        return Round(seconds=int(options.get("seconds", 10))), []

    def describe(self, public: Round) -> dict[str, Any]:
        return {"status": f"round {public.rounds}, {public.over} over"}


def games() -> dict[str, Any]:
    """The box's own games and this one."""
    from engine.games import registry

    return {**registry(), NAME: TimedRounds()}


def main(argv: list[str]) -> int:
    """``familiar demo`` playing this game, for one seat (the demo's first name), with
    the game known to the box: the table's registry is replaced before the daemon builds
    its table, as the board tests do in-process."""
    import engine.table
    from device.cli import main as familiar

    engine.table.registry = games  # type: ignore[assignment]
    return familiar(["demo", "--no-bots", "--game", NAME, "--players", "1", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
