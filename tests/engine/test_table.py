"""The engine core: actions validated, the table as a fold of its log, undo as replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, IllegalAction
from engine.effects import Say
from engine.table import NEW, UNDO, Entry, Table, effective, replay


def new_dice(seats=("Ann", "Bob")) -> Action:
    return Action(NEW, {"game": "dice", "seats": list(seats)})


def test_roll_is_said_sorted_with_total():
    table = Table()
    table.apply(new_dice(), 1)
    assert table.apply(Action("roll", {"dice": [5, 3, 3]}), 2) == [Say("3, 3, 5: 11")]
    assert table.public_view()["view"]["total"] == 11


@pytest.mark.parametrize(
    "action, message",
    [
        (Action("roll", {"dice": [7]}), "from 1 to 6"),
        (Action("roll", {"dice": []}), "non-empty"),
        (Action("roll", {"dice": "66"}), "list"),
        (Action("roll", {"dice": [True]}), "whole number"),
        (Action("vote", {}), "no move called .vote."),
        (Action("roll", {"dice": [1]}, seat=9), "no seat 9"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(action, message):
    table = Table()
    table.apply(new_dice(), 1)
    table.apply(Action("roll", {"dice": [1, 2]}), 2)
    before = table.public_view()
    with pytest.raises(IllegalAction, match=message):
        table.apply(action, 3)
    assert table.public_view() == before


@pytest.mark.parametrize(
    "data, message",
    [
        ({"game": "chess", "seats": ["A"]}, "unknown game"),
        ({"game": "dice", "seats": ["Ann", "ann"]}, "same name"),
        ({"game": "dice", "seats": [""]}, "printable"),
        ({"game": "dice", "seats": "Ann"}, "list of names"),
        ({"game": "dice", "seats": ["x" * 25]}, "1 to 24"),
        ({"game": "dice", "seats": ["A"], "options": [1]}, "options"),
    ],
)
def test_new_game_validates_seats_and_game(data, message):
    with pytest.raises(IllegalAction, match=message):
        Table().apply(Action(NEW, data), 1)


def test_only_the_host_starts_a_game():
    with pytest.raises(IllegalAction, match="only the host"):
        Table().apply(Action(NEW, {"game": "dice", "seats": ["A"]}, seat=0), 1)


def test_action_json_round_trip_and_refusals():
    action = Action("roll", {"dice": [1, 2]}, seat=1)
    assert Action.from_json(action.to_json()) == action
    for bad in ("[]", "{", '{"kind": "x", "extra": 1}', '{"kind": ""}', '{"kind": "x", "seat": -1}'):
        with pytest.raises(IllegalAction):
            Action.from_json(bad)
    with pytest.raises(IllegalAction, match="JSON"):
        Action("x", {"f": object()})


def test_undo_removes_the_last_effective_action_each_time():
    entries = [
        Entry(1, new_dice(), 1),
        Entry(2, Action("roll", {"dice": [1]}), 2),
        Entry(3, Action("roll", {"dice": [2]}), 3),
        Entry(4, Action(UNDO), 0),
        Entry(5, Action(UNDO), 0),
        Entry(6, Action("roll", {"dice": [6]}), 6),
    ]
    assert [e.seq for e in effective(entries)] == [1, 6]
    assert replay(entries).public_view()["view"]["history"] == [[6]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.just("undo")), max_size=30))
def test_state_is_the_fold_of_the_log(steps):
    """Applying step by step, or replaying the log from scratch, gives the same table."""
    live = Table()
    entries = [Entry(0, new_dice(), 0)]
    live.apply(new_dice(), 0)
    for i, step in enumerate(steps, start=1):
        if step == "undo":
            if len(effective(entries)) == 1:
                continue  # keep the game itself: rolls need one
            entries.append(Entry(i, Action(UNDO), 0))
            live = replay(entries)
        else:
            action = Action("roll", {"dice": step})
            live.apply(action, i)
            entries.append(Entry(i, action, i))
    assert replay(entries).public_view() == live.public_view()
