"""Unmask the Death Eaters: what a prompt offers is exactly what the box accepts.

The host page offers numbers to tap (group size, target, rolls); the API and the camera
send numbers too.  A number the page never offers but the box takes (a group of 1, a
card total of 99) is an Encounter no card prints; one the page offers but the box
refuses is a dead button.  And a card the camera reports with a name that is not text
is refused, not silently taken without it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Action, IllegalAction
from support.unmask import Play, started

TRIED = range(0, 101)


def accepted(play: Play, kind: str, **data: Any) -> bool:
    """Whether the box would take the action now (nothing is committed)."""
    try:
        play.table.attempt(Action(kind, data), 1)
    except IllegalAction:
        return False
    return True


def offered(play: Play, action: str) -> set[str]:
    return {o for e in play.table.expects() if e.action == action and e.kind == "choice" for o in e.options}


def test_the_group_sizes_offered_are_the_ones_accepted() -> None:
    play = started()
    sizes = offered(play, "encounter")
    assert sizes == {"2", "3", "4", "5"}
    for n in TRIED:
        shown = str(n) in sizes
        assert accepted(play, "encounter", choice=str(n)) == shown, n
        assert accepted(play, "encounter", group=n, check="host") == shown, n
        assert accepted(play, "encounter", cards=[{"group": n, "check": "host"}]) == shown, n


@pytest.mark.parametrize("directive", ["card total", "dice of a kind", "dice total"])
def test_the_targets_offered_are_the_ones_accepted(directive: str) -> None:
    play = started()
    play.act("encounter", choice="3")
    play.act("directive", choice=directive)
    targets = offered(play, "target")
    check, whole = play.s.card().check, started()
    for n in TRIED:
        shown = str(n) in targets
        assert accepted(play, "target", choice=str(n)) == shown, n
        assert accepted(whole, "encounter", group=3, check=check, target=n) == shown, n
        assert accepted(whole, "encounter", cards=[{"group": 3, "check": check, "target": n}]) == shown, n


def test_the_rolls_offered_are_the_ones_accepted() -> None:
    play = started()
    play.act("encounter", choice="3")
    play.act("directive", choice="dice total")
    play.act("target", choice="8")
    rolls = offered(play, "rolls")
    for n in TRIED:
        assert accepted(play, "rolls", choice=str(n)) == (str(n) in rolls), n


@pytest.mark.parametrize("name", [{"name": "Galleon"}, 7, ["Galleon"], True, "Galle\x00on"])
def test_a_card_named_by_anything_but_text_is_refused(name: Any) -> None:
    play = started()
    with pytest.raises(IllegalAction, match="a card's name must be printable text"):
        play.act("encounter", cards=[{"card": name, "group": 2, "check": "host"}])
    play.act("encounter", group=2, check="host")
    play.gather()
    with pytest.raises(IllegalAction, match="a card's name must be printable text"):
        play.act("reveal", cards=[{"card": name, "dice": 2}, {"card": "Galleon", "dice": 1}])
    play.act("reveal", cards=[{"card": " Galleon ", "dice": 2}, {"dice": 1}])
    assert play.s.step == "result"
