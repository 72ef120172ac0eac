"""A tiny game with a real secret per seat, and the app around a real table service,
shared by the web and browser tests (no test may rely on another game's progress)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.store import Store
from device.table_service import TableService
from engine.actions import IllegalAction
from engine.args import Flag, Opt, Seat
from engine.effects import Effect, Expect, Say, Track
from engine.game import Turn
from engine.games.dice_reader import DiceReader
from engine.secrets import secret
from engine.steps import Move, Step, StepGame
from web import create_app


def _peeker(state: SecretsState) -> int:
    return 0


@dataclass
class SecretsState:
    seats: list[str]
    words: list[str] = secret("secret word", per_seat=True)
    step: str = "playing"
    votes: dict[int, bool] = secret(
        "vote", per_seat=True, learned=False, summary=("votes_cast", len), default_factory=dict
    )
    peeked: str | None = secret("peeked seat", owner=_peeker)
    peeked_word: str | None = secret("peeked word", owner=_peeker)
    rounds: int = 0


def _vote(state: SecretsState, turn: Turn) -> list[Effect]:
    voter = turn.seat if turn.seat is not None else turn.args["seat"]
    if voter is None or voter in state.votes:
        raise IllegalAction("that seat cannot vote now")
    state.votes[voter] = turn.args["vote"]
    return [Say(f"{len(state.votes)} votes.")]


def _peek(state: SecretsState, turn: Turn) -> list[Effect]:
    if turn.args["choice"] == 0:
        raise IllegalAction("pick another seat")
    state.peeked, state.peeked_word = state.seats[turn.args["choice"]], state.words[turn.args["choice"]]
    return []


def _next(state: SecretsState, turn: Turn) -> list[Effect]:
    state.rounds += 1
    return [Say(f"Round {state.rounds}.")]


MOVES = (
    Move[SecretsState]("next", _next, ask=lambda s: [Expect("confirm", "next", "Next round")]),
    Move[SecretsState](
        "peek",
        _peek,
        args={"choice": Seat()},
        by=lambda s: [0] if s.peeked is None else [],
        host=False,
        ask=lambda s: (
            []
            if s.peeked is not None
            else [Expect("choice", "peek", "Pick a seat to peek at", seat=0, options=tuple(s.seats[1:]), secret=True)]
        ),
    ),
    Move[SecretsState](
        "vote",
        _vote,
        args={"vote": Flag(), "seat": Opt(Seat())},
        by=lambda s: range(len(s.seats)),
        ask=lambda s: [
            Expect("vote", "vote", f"{name}: vote", seat=i) for i, name in enumerate(s.seats) if i not in s.votes
        ],
    ),
)


class SecretWords(StepGame[SecretsState]):
    """Each seat is dealt a secret word; seat 0 secretly picks someone; everyone votes."""

    name = "secrets"
    title = "Secret words"
    min_seats = 2
    max_seats = 6
    option_choices = {"mode": ("plain", "fancy")}
    steps = (Step("playing", "the table is playing", MOVES),)

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[SecretsState, list[Effect]]:
        deal = turn.random("words")
        words = [f"owl{deal.randrange(10**6):06d}x{i}" for i in range(len(turn.seats))]
        return SecretsState(seats=list(turn.seats), words=words), [Say("Words dealt.")]

    def present(self, public: SecretsState, seat: int, mine: dict[str, Any]) -> dict[str, Any]:
        view: dict[str, Any] = {"word": mine.get("words")}
        if mine.get("peeked_word"):
            view["peeked_word"] = mine["peeked_word"]
        return view

    def tracks(self, state: SecretsState) -> dict[str, Track]:
        return {"rounds": Track(value=min(state.rounds, 5), length=5)}


def games() -> dict[str, Any]:
    return {"secrets": SecretWords(), "dice": DiceReader()}


def make_service(tmp_path: Path, language: str = "en") -> TableService:
    return TableService(Store(tmp_path / "table.db"), games=games(), language=language)


def make_app(tmp_path: Path, box: Any = None, simulated: bool = False, language: str = "en"):
    service = make_service(tmp_path, language)
    app = create_app(service, box, public_url="http://familiar.test:8080", simulated=simulated)
    return app, service
