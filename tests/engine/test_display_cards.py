"""Every game with a secret shows it as a card, and every game's end as a reveal.

Random games (tests/support/random_play.py) are played through the prompts a person sees
until they end; the card and the reveal are read from the views the pages get."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.display import COLOURS, ICONS
from engine.games import registry
from engine.table import Table
from support import clue, deal
from support.kampf import Play as KampfPlay
from support.random_play import new_game_action, table_moves

CARD_GAMES = ("unmask", "kampf", "clue", "deal", "voldemort")
CARD_KEYS = {"word", "colour", "detail", "icon", "history", "covers"}


def kampf_finished() -> Table:
    """Kampf's night and discussion end on the box's timers: its own driver plays them."""
    play = KampfPlay(5, 3)
    play.vote(1, 2, 1, 1, 0)
    return play.table


def driven_to_end(play: Any, pick: Any, answer: Any, steps: int = 6000) -> Table:
    """Clue and Deal played by their own random players (the prompts' options only)."""
    r = random.Random(7)
    for _ in range(steps):
        if play.table.public_view()["over"]:
            break
        play.submit(answer(pick(play.table, r), r))
    assert play.table.public_view()["over"], "the random game did not end"
    return play.table


def finished(name: str, tries: int = 12, steps: int = 3000) -> Table:
    """A random game of ``name`` played to its end (the first seed that gets there)."""
    if name == "kampf":
        return kampf_finished()
    if name == "clue":
        return driven_to_end(clue.Play(3, 1), lambda t, r: clue.random_prompt(t, r, 0.6), clue.page_action)
    if name == "deal":
        return driven_to_end(deal.Play(2, 1), deal.random_prompt, deal.page_action)
    for seed in range(tries):
        rng = random.Random(f"{name}-end-{seed}")
        table = Table()
        table.apply(new_game_action(registry()[name], rng), rng.randrange(1 << 32))
        for _ in table_moves(table, rng, steps):
            pass
        if table.public_view()["over"]:
            return table
    raise AssertionError(f"no random game of {name} ended")


def well_formed(shown: dict) -> None:
    assert set(shown) == CARD_KEYS and shown["word"] and shown["colour"] in COLOURS
    assert shown["icon"] in (*ICONS, "") and all(isinstance(line, str) for line in shown["history"])


@pytest.mark.parametrize("name", CARD_GAMES)
def test_each_seat_sees_its_secret_as_a_card_and_the_end_as_a_reveal(name):
    table = finished(name)
    seats = table.current.seats
    for seat in range(len(seats)):
        well_formed(table.private_view(seat)["view"]["card"])
    end = table.public_view()["view"]["reveal"]
    assert [c["name"] for c in end["cards"]][: len(seats)] == list(seats)
    for shown in end["cards"]:
        well_formed(shown["card"])
    assert end["outcome"] and isinstance(end["accused"], list) and isinstance(end["story"], list)


def test_unmask_tells_every_encounter_in_order_and_names_whom_it_accused():
    table = finished("unmask")
    state = table.current.state
    end = table.public_view()["view"]["reveal"]
    assert len(end["story"]) == len(state.story) >= 1
    assert end["story"][0].startswith(f"Turn {state.story[0]['turn']}, {state.names[state.story[0]['leader']]}: ")
    assert end["accused"] == [state.names[s] for s in state.final.accused]
    words = {c["card"]["word"] for c in end["cards"]}
    assert words <= {"Order of the Phoenix", "Death Eater"}


def test_an_unmask_card_is_one_shape_whatever_the_loyalty():
    """The same keys and as many history lines for the Order and a Death Eater: only the
    words and the colour differ, so the look of a phone gives nothing away."""
    table = finished("unmask")
    cards = [table.private_view(s)["view"]["card"] for s in range(len(table.current.seats))]
    assert {c["colour"] for c in cards} == {"blue", "green"}
    assert len({len(c["history"]) for c in cards}) == 1
    assert len({tuple(sorted(c)) for c in cards}) == 1
