"""Rolls as the rules take them: pips, taught symbol faces, and how a roll is said."""

from __future__ import annotations

import pytest

from engine.actions import Action, IllegalAction
from engine.dice import parse_roll, say_roll
from engine.games.dice_reader import DiceReader
from engine.table import NEW, Table


def test_pips_are_said_sorted_with_their_total() -> None:
    assert say_roll([5, 3, 3]) == "3, 3, 5: 11"
    assert say_roll([4]) == "4"
    assert say_roll([1, 2, 3, 4, 5, 6]) == "1, 2, 3, 4, 5, 6: 21"  # six dice are still heard one by one
    assert say_roll([4] * 22) == "22 dice: 88"  # a long roll briefly: the pages show each die


def test_symbol_faces_are_said_by_name_after_the_pips() -> None:
    assert say_roll(["dark-mark", 4]) == "4; dark mark"
    assert say_roll([2, "floo_powder", 6]) == "2, 6: 8; floo powder"
    assert say_roll(["star"]) == "star"


def test_only_games_that_allow_symbols_take_them() -> None:
    assert parse_roll([3, "dark-mark"], named=True) == [3, "dark-mark"]
    with pytest.raises(IllegalAction, match="from 1 to 6$"):
        parse_roll([3, "dark-mark"])  # Unmask's battles are pips only
    for bad in (["../etc"], [""], [7], [True], [3.0], [None]):
        with pytest.raises(IllegalAction, match="or a taught face's name"):
            parse_roll(bad, named=True)


def test_the_dice_reader_reads_a_roll_with_a_taught_die() -> None:
    table = Table({"dice": DiceReader()})
    table.apply(Action(NEW, {"game": "dice", "seats": []}), 1)
    effects = table.apply(Action("roll", {"dice": [5, "dark-mark", 2]}), 0)
    assert [e.text for e in effects] == ["2, 5: 7; dark mark"]
    view = table.public_view()["view"]
    assert view["last"] == [2, 5, "dark-mark"] and view["total"] == 7  # listed as said


@pytest.mark.parametrize("roll", [[6, 1, 3], [4, 4, 2], [5, "dark-mark", 1], ["star", 6, 2, 2]])
def test_a_roll_is_listed_in_the_order_it_is_said(roll: list) -> None:
    """Issue 50.10: the pages listed the dice as tapped while the box said them sorted."""
    table = Table({"dice": DiceReader()})
    table.apply(Action(NEW, {"game": "dice", "seats": []}), 1)
    (said,) = table.apply(Action("roll", {"dice": roll}), 0)
    listed = table.public_view()["view"]["last"]
    pips = ", ".join(str(v) for v in listed if isinstance(v, int))
    assert said.text.startswith(pips) and sorted(map(str, listed)) == sorted(map(str, roll))
    assert listed == sorted(v for v in roll if isinstance(v, int)) + [v for v in roll if isinstance(v, str)]
