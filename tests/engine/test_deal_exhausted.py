"""Monopoly Deal Wizarding World when the cards run out: the discards become the next
draw pile (Monopoly Deal's rule); with nothing left to draw the turn says so instead
of "draw 0 cards"; and a game no card can move on any more ends, said, without a
winner, unless a move left could still win it (issue 50)."""

from __future__ import annotations

import random

import pytest

from engine.games.deal_deck import parse
from engine.games.deal_state import OVER, PLAY
from engine.games.deal_stuck import cannot_go_on
from engine.games.deal_turns import STUCK
from support.deal import ABILITIES, Play, page_action, random_prompt
from support.table import walk

NOTHING_TO_DRAW = "no card is left to draw"

NOBODY_WINS = """
[colours.brown]
name = "Brown"
size = 2
accio = [1, 2]

[colours.blue]
name = "Blue"
size = 2
accio = [3, 8]

[[point]]
name = "1 Point"
value = 1
count = 8

[[item]]
name = "Brown Item"
colour = "brown"
value = 1
count = 3

[[item]]
name = "Blue Item"
colour = "blue"
value = 1
count = 3

[[wild]]
name = "Brown/Blue Wild"
colours = ["brown", "blue"]
value = 2
count = 2

[[spell]]
name = "Protego"
effect = "protego"
value = 4
count = 3

[[spell]]
name = "Collect 2 From Everyone"
effect = "collect"
amount = 2
every = true
value = 2
count = 4

[[spell]]
name = "Pass Go"
effect = "draw"
amount = 2
value = 1
count = 4
"""
"""A deck of two colours: nobody can ever hold three complete sets."""


def dry(play: Play) -> None:
    """Every card left to draw or held goes into the Banks: nothing to draw, nothing held."""
    s = play.s
    for seat in range(s.players):
        s.banks[seat] += s.hands[seat]
        s.hands[seat] = []
    s.banks[0] += s.draw + s.discard
    s.draw, s.discard = [], []


def test_a_game_no_card_can_move_on_ends_without_a_winner() -> None:
    play = Play(2)
    dry(play)
    play.end()
    assert play.s.step == OVER and play.s.winner is None
    assert play.said[-1] == STUCK
    view = play.table.public_view()
    assert view["over"] and view["view"]["winner_name"] is None
    assert "nobody won" in str(view["view"]["status"])


def test_an_empty_pile_with_cards_in_hand_says_nothing_to_draw() -> None:
    play = Play(2)
    dry(play)
    play.s.hands[0] = [play.s.banks[0].pop()]
    play.end()
    assert play.s.step == PLAY and play.s.turn == 1
    assert play.said[-1] == f"{play.s.names[1]}'s turn: {NOTHING_TO_DRAW}."
    assert not any("draw 0 cards" in line for line in play.said)


def test_a_petrificus_that_could_still_end_keeps_the_game_going() -> None:
    play = Play(2)
    dry(play)
    s = play.s
    s.petrified[0] = "Petrificus Totalus"
    s.banks[0].remove("Petrificus Totalus")
    play.end()
    assert s.step == PLAY and not cannot_go_on(s)  # seat 0 can discard 10 points, which refill the pile


def test_wilds_that_could_be_recoloured_into_a_third_set_keep_the_game_going() -> None:
    play = Play(2)
    play.items(0, "Brown Item", "Brown Item", "Grey Item", "Grey Item", ("Red/Yellow Wild", "red"))
    play.items(0, "Yellow Item", "Yellow Item")
    dry(play)
    assert not cannot_go_on(play.s)  # the wild turned yellow completes Yellow: a third set
    play.s.items[0].pop()  # one Yellow Item fewer: no colouring wins any more
    assert cannot_go_on(play.s)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_a_random_game_runs_through_its_piles_and_ends_said(seed: int) -> None:
    """Random players on a deck nobody can win with: the draw pile runs out, the
    discards are shuffled into a new one, then nothing is left and the game ends."""
    play = Play(2 + seed, seed, cards=parse(NOBODY_WINS + ABILITIES), start=False)
    r = random.Random(seed)
    walk(play, r, 3000, lambda: page_action(random_prompt(play.table, r), r), lambda: None)
    assert play.s.step == OVER and play.s.winner is None, play.s.step
    said = "\n".join(play.said)
    assert "shuffle the discard pile" in said and play.s.shuffles > 0
    assert play.said[-1] == STUCK and "draw 0 cards" not in said
