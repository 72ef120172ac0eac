"""Harry Potter Clue notepads against the truth: over whole random games, played as an
honest table would, no phone's notepad (helper on) ever ticks a card wrongly or puts a
card in the envelope that is not there; with real cards (The Burrow and some hands
entered) as with the box's own deal.  The rulebook: "If you have those cards or they are
faceup in The Burrow, they cannot be in the envelope!"."""

from __future__ import annotations

import random

import pytest

from support.clue import Play
from support.clue_truth import Honest, Truth, false_ticks

STEPS = 2500
FACTS = ("burrow", "hand", "answer", "show", "tick", "notepad", "verdict", "place")
"""Moves after which a notepad may change (the rest leave every notepad as it was)."""


def honest_game(players: int, seed: int, physical: bool) -> tuple[Play, list[str], int]:
    """One game: the notepads' false ticks, and how many cards the helpers deduced."""
    play = Play(players, seed, cards="physical" if physical else "digital")
    r = random.Random(seed)
    truth = Truth.deal(play.s, r) if physical else Truth.of(play.s)
    table = Honest(play, truth, r)
    wrong: list[str] = []
    for _ in range(STEPS):
        if play.table.public_view()["over"]:
            break
        action = table.action(accuse=0.3)
        play.submit(action)
        if action.kind in FACTS:
            wrong += false_ticks(play, truth)
    deduced = sum(1 for seat in range(players) for line in play.seen_by(seat)["notepad"] if line["why"] != "")
    return play, wrong, deduced


@pytest.mark.slow
@pytest.mark.parametrize("physical", [True, False], ids=["physical", "digital"])
def test_no_notepad_ever_claims_more_than_the_truth(physical: bool) -> None:
    games = 100 if physical else 30
    wrong, ended, deduced = [], 0, 0
    for seed in range(games):
        play, false, found = honest_game(3 + seed % 3, seed, physical)
        wrong += [f"game {seed}: {w}" for w in false]
        ended += play.table.public_view()["over"]
        deduced += found
    assert wrong == [], f"{len(wrong)} false ticks, first: {wrong[:3]}"
    assert ended == games, "every game is played to its end"
    assert deduced > games * 21, "the notepads tick cards at all (a check of nothing cannot fail)"
