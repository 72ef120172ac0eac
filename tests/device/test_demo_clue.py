"""The demo's Clue: its virtual board has wheels laid out, so a whole game is played with
no "Does the Dark Mark show?" question."""

from __future__ import annotations

import random

from device.cli import demo_options
from support.clue import Play
from support.clue_truth import Honest, Truth


def test_the_demo_plays_a_whole_clue_game_with_no_dark_mark_question() -> None:
    for seed in range(5):
        play = Play(3 + seed % 3, seed, **demo_options("clue"))
        table, turned = Honest(play, Truth.of(play.s), random.Random(seed)), 0
        for _ in range(2500):
            if play.table.public_view()["over"]:
                break
            assert "wheel" not in {e.action for e in play.table.expects()}, "the host was asked about a wheel"
            action = table.action(accuse=0.5)
            turned += action.kind == "roll" and str(action.data["dice"][1]) not in ("star", "dark-mark")
            play.submit(action)
        assert play.table.public_view()["over"] and turned > 0


def test_other_demo_games_take_no_options() -> None:
    assert demo_options("dice") == {}
