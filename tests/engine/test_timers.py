"""Table timers: state folded from the log with each entry's wall time, the host's
controls, refusals, undo and replay (the box's side is in tests/device)."""

from __future__ import annotations

import pytest

from engine import timers as timing
from engine.actions import Action, IllegalAction
from engine.effects import TIMER_DONE, Say, StartTimer, Track
from engine.table import NEW, TIMER, UNDO, Entry, Table, replay
from support.timer_game import NAME, WARNING, TimedRounds

T0 = 1_700_000_000.0  # a wall time: the engine is given it, never reads it


def started_table(at: float = T0) -> Table:
    table = Table({NAME: TimedRounds()})
    table.apply(Action(NEW, {"game": NAME, "seats": ["Ann", "Bob"]}), 7, at=at - 5)
    table.apply(Action("start"), 0, at=at)
    return table


def control(table: Table, do: str, at: float, **more) -> None:
    table.apply(Action(TIMER, {"name": "round", "do": do, **more}), 0, at=at)


def left(table: Table, now: float) -> float:
    return table.current.timers["round"].remaining(now)


def test_a_started_timer_counts_from_its_entry_time():
    table = started_table()
    assert left(table, T0) == 10 and left(table, T0 + 3.5) == 6.5 and left(table, T0 + 11) == 0
    assert timing.shown(table.current.timers, T0 + 3.5) == {"round": {"left": 6.5, "total": 10, "running": True}}


def test_pause_resume_add_and_end():
    table = started_table()
    control(table, "pause", T0 + 4)
    assert left(table, T0 + 100) == 6  # paused: the time stands still
    control(table, "add", T0 + 100)
    assert left(table, T0 + 200) == 66 and table.current.timers["round"].total == 70
    control(table, "resume", T0 + 200)
    assert left(table, T0 + 210) == 56
    control(table, "add", T0 + 210, seconds=30)
    assert left(table, T0 + 210) == 86
    control(table, "end", T0 + 220)
    assert left(table, T0 + 220) == 0 and table.current.timers["round"].running


@pytest.mark.parametrize(
    "data, seat, message",
    [
        ({"name": "round", "do": "resume"}, None, "not paused"),
        ({"name": "night", "do": "pause"}, None, "no timer called 'night'"),
        ({"name": "round", "do": "stop"}, None, "pause, resume, add, end"),
        ({"name": "round", "do": "add", "seconds": 0}, None, "add 1 to 3600"),
        ({"name": "round", "do": "add", "seconds": True}, None, "add 1 to 3600"),
        ({"name": "round", "do": "pause", "seconds": 5}, None, "only adding"),
        ({"name": "round", "do": "pause", "extra": 1}, None, "not extra"),
        ({"name": "round", "do": "pause"}, 1, "only the host"),
    ],
)
def test_bad_timer_controls_are_refused_and_change_nothing(data, seat, message):
    table = started_table()
    before = table.current
    with pytest.raises(IllegalAction, match=message):
        table.attempt(Action(TIMER, data, seat), 0, T0 + 1)
    assert table.current is before and left(table, T0 + 1) == 9


def test_timer_done_only_once_run_out_and_then_the_timer_is_gone():
    table = started_table()
    with pytest.raises(IllegalAction, match="has not run out"):
        table.attempt(Action(TIMER_DONE, {"name": "round"}), 0, T0 + 9.9)
    table.apply(Action(TIMER_DONE, {"name": "round"}), 0, at=T0 + 10)
    assert table.current.timers == {} and table.current.state.over == 1
    with pytest.raises(IllegalAction, match="no timer called 'round'"):
        table.attempt(Action(TIMER_DONE, {"name": "round"}), 0, T0 + 11)


def test_undo_of_the_start_cancels_the_timer_and_undo_of_a_pause_restores_it():
    table = started_table()
    control(table, "pause", T0 + 4)
    table.undo()
    assert table.current.timers["round"].running and left(table, T0 + 6) == 4
    table.undo()
    assert table.current.timers == {}


def test_replay_restores_the_deadline_from_the_entries_times():
    entries = [
        Entry(1, Action(NEW, {"game": NAME, "seats": ["Ann"]}), 3, T0 - 5),
        Entry(2, Action("start"), 0, T0),
        Entry(3, Action(TIMER, {"name": "round", "do": "pause"}), 0, T0 + 2),
        Entry(4, Action(TIMER, {"name": "round", "do": "resume"}), 0, T0 + 50),
        Entry(5, Action(UNDO), 0, T0 + 51),
        Entry(6, Action(TIMER, {"name": "round", "do": "add"}), 0, T0 + 52),
    ]
    table = replay(entries, {NAME: TimedRounds()})
    assert table.current.timers["round"] == timing.Timer(total=70, deadline=None, left=68, warnings=((3, WARNING),))


def test_a_new_game_leaves_no_timer_of_the_last():
    table = started_table()
    table.apply(Action(NEW, {"game": NAME, "seats": ["Cy"]}), 1, at=T0 + 1)
    assert table.current.timers == {}


def test_a_timer_drains_its_track_one_space_a_second():
    timers = started_table().current.timers
    assert timing.tracks(timers, T0) == {"timer_round": Track(10, 10)}
    assert timing.tracks(timers, T0 + 6.5) == {"timer_round": Track(4, 10)}
    assert timing.tracks(timers, T0 + 10) == {"timer_round": Track(0, 10)}
    assert timing.tracks(timers, T0 - 60) == {"timer_round": Track(10, 10)}  # a clock set back


def test_effects_refuse_nonsense():
    with pytest.raises(ValueError):
        StartTimer("the round", 10)
    with pytest.raises(ValueError):
        StartTimer("round", 0)
    with pytest.raises(ValueError):
        Say("Sleep.", then_wait=61)
