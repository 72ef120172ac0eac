"""A tiny game with a real secret per seat, and the app around a real table service,
shared by the web and browser tests (no test may rely on another game's progress)."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.store import Store
from device.table_service import TableService
from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect, Say, Track
from engine.games.dice_reader import DiceReader
from web import create_app


@dataclass
class SecretsState:
    seats: list[str]
    words: list[str]
    votes: dict[int, bool] = field(default_factory=dict)
    peeked: str | None = None
    rounds: int = 0


class SecretWords:
    """Each seat is dealt a secret word; seat 0 secretly picks someone; everyone votes."""

    name = "secrets"
    title = "Secret words"
    min_seats = 2
    max_seats = 6
    option_choices = {"mode": ["plain", "fancy"]}

    def new(self, seats: Sequence[str], options: Mapping[str, Any], rng: random.Random) -> tuple[SecretsState, list[Effect]]:
        words = [f"owl{rng.randrange(10**6):06d}x{i}" for i in range(len(seats))]
        return SecretsState(seats=list(seats), words=words), [Say("Words dealt.")]

    def apply(self, state: SecretsState, action: Action, rng: random.Random) -> list[Effect]:
        if action.kind == "vote":
            seat = action.seat if action.seat is not None else action.data.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < len(state.seats) or seat in state.votes:
                raise IllegalAction("that seat cannot vote now")
            if not isinstance(action.data.get("vote"), bool):
                raise IllegalAction("a vote is yes or no")
            state.votes[seat] = action.data["vote"]
            return [Say(f"{len(state.votes)} votes.")]
        if action.kind == "peek" and action.seat == 0 and state.peeked is None:
            if action.data.get("choice") not in state.seats[1:]:
                raise IllegalAction("pick another seat")
            state.peeked = action.data["choice"]
            return []
        if action.kind == "next" and action.seat is None:
            state.rounds += 1
            return [Say(f"Round {state.rounds}.")]
        raise IllegalAction(f"{action.kind!r} is not allowed now")

    def public_view(self, state: SecretsState) -> dict[str, Any]:
        return {"round": state.rounds, "votes_cast": len(state.votes)}

    def private_view(self, state: SecretsState, seat: int) -> dict[str, Any]:
        view: dict[str, Any] = {"word": state.words[seat]}
        if seat == 0 and state.peeked is not None:
            view["peeked_word"] = state.words[state.seats.index(state.peeked)]
        return view

    def expects(self, state: SecretsState) -> list[Expect]:
        found = [Expect("confirm", "next", "Next round")]
        if state.peeked is None:
            found.append(Expect("choice", "peek", "Pick a seat to peek at", seat=0, options=tuple(state.seats[1:]), secret=True))
        found += [Expect("vote", "vote", f"{name}: vote", seat=i) for i, name in enumerate(state.seats) if i not in state.votes]
        return found

    def tracks(self, state: SecretsState) -> dict[str, Track]:
        return {"rounds": Track(value=min(state.rounds, 5), length=5)}

    def is_over(self, state: SecretsState) -> bool:
        return False


def games() -> dict[str, Any]:
    return {"secrets": SecretWords(), "dice": DiceReader()}


def make_service(tmp_path: Path) -> TableService:
    return TableService(Store(tmp_path / "table.db"), games=games())


def make_app(tmp_path: Path, box: Any = None, simulated: bool = False):
    service = make_service(tmp_path)
    app = create_app(service, box, public_url="http://familiar.test:8080", simulated=simulated)
    return app, service
