"""Harry Potter Clue: where the rulebook is silent the box follows classic Clue, and each
such default is marked ``# Clue:`` in the code that applies it (the project's rule), so a
reader can tell the printed rule from the box's choice."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from engine.games import clue_floo, clue_flow, clue_turn


@pytest.mark.parametrize(
    "applies",
    [
        clue_floo.pay,  # a player short of powder pays down to zero
        clue_flow.end_turn,  # every accuser wrong: nobody wins
        clue_floo.pinches,  # players out of the game are skipped by Dark cards
        clue_turn.destinations,  # "by fireplace to The Burrow" is offered
    ],
)
def test_each_default_the_rulebook_does_not_give_is_marked(applies: Callable[..., Any]) -> None:
    assert "# Clue:" in inspect.getsource(applies), f"{applies.__name__} applies a default without # Clue:"
