"""Table timers: state folded from the log with each entry's wall time, the host's
controls, undo, the box's timer thread; and the narrator's exact pauses."""

from __future__ import annotations

import pytest

from device.config import AudioConfig
from device.narrator import Narrator
from device.store import Store
from device.table_service import TableService
from device.timers import TimerKeeper
from engine import timers as timing
from engine.actions import Action, IllegalAction
from engine.effects import TIMER_DONE, Say, StartTimer, Track
from engine.table import NEW, TIMER, UNDO, Entry, Table, replay
from tests.timer_game import NAME, NIGHT, WARNING, TimedRounds, games

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


# The box's side: the service logs the time, the timer thread acts on it


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def timed(tmp_path):
    service = TableService(Store(tmp_path / "familiar.db"), games=games())
    service.submit(Action(NEW, {"game": NAME, "seats": ["Ann"]}))
    yield service
    service.store.close()


def test_the_service_logs_the_moment_the_rules_saw(timed, tmp_path):
    timed.submit(Action("start"))
    logged = timed.store.entries()[-1]
    timer = timed.timers()["round"]
    assert timer.deadline == logged.at + 10
    again = TableService(Store(tmp_path / "familiar.db"), games=games())  # a restart
    assert again.timers() == {"round": timer}
    assert again.public_view()["timers"]["round"]["total"] == 10


def test_the_timer_thread_warns_redraws_and_sends_timer_done_once(timed):
    said, redraws = [], []
    timed.submit(Action("start"))
    deadline = timed.timers()["round"].deadline
    timed.clock = clock = Clock(deadline - 10)
    keeper = TimerKeeper(timed, say=said.append, redraw=lambda: redraws.append(clock.now))
    for step in (0, 4, 6.5, 7.5):
        clock.now = deadline - 10 + step
        keeper.check()
    assert said == [WARNING] and len(redraws) == 4  # 10 lit, then 6, 4 and 3 of 10
    clock.now = deadline
    keeper.check()
    kinds = [e.action.kind for e in timed.store.entries()]
    assert kinds == [NEW, "start", TIMER_DONE] and timed.timers() == {}
    assert timed.table.current.state.over == 1

    timed.undo()  # the round is running again, run out: it waits for the host
    keeper.check()
    assert [e.action.kind for e in timed.store.entries()][-1] == UNDO
    clock.now += 5
    timed.submit(Action(TIMER, {"name": "round", "do": "end"}))  # a new deadline: sent again
    clock.now = timed.timers()["round"].deadline + 0.1
    keeper.check()
    assert [e.action.kind for e in timed.store.entries()][-2:] == [TIMER, TIMER_DONE]


def test_a_restarted_thread_does_not_repeat_warnings_already_said(timed):
    said = []
    timed.submit(Action("start"))
    deadline = timed.timers()["round"].deadline
    timed.clock = Clock(deadline - 2)
    keeper = TimerKeeper(timed, say=said.append, redraw=lambda: None)
    keeper.check()
    assert said == []


def test_a_paused_timer_is_never_done(timed):
    timed.submit(Action("start"))
    timed.submit(Action(TIMER, {"name": "round", "do": "pause"}))
    timed.clock = Clock(10**10)
    keeper = TimerKeeper(timed, say=lambda text: None, redraw=lambda: None)
    keeper.check()
    assert "round" in timed.timers() and timed.table.current.state.over == 0


# The narrator's pauses, measured from its own record


@pytest.mark.parametrize("speaker", [False, True])
def test_a_line_then_wait_is_followed_by_exactly_that_quiet(tmp_path, speaker):
    """The ALSA ``null`` device plays nothing but runs the real aplay path; the third line
    is long, and its synthesis happens inside the half-second quiet before it."""
    narrator = Narrator(AudioConfig(device="null"), speaker=speaker, wav_dir=tmp_path / "speech")
    try:
        for line in NIGHT:
            narrator.say(line.text, then_wait=line.then_wait)
        assert narrator.wait_idle(60)
        record = narrator.record
    finally:
        narrator.close()
    assert [r.text for r in record] == [line.text for line in NIGHT] and narrator.problems == []
    for before, after, line in zip(record, record[1:], NIGHT, strict=False):
        gap = after.started - before.ended
        assert line.then_wait <= gap < line.then_wait + 0.1, (line, gap)


# The board: the real daemon on simulated pins drains the timer's track


def test_the_daemon_drains_the_timer_on_an_idle_bar_sends_timer_done_and_pauses(tmp_path, monkeypatch):
    import dataclasses

    from gpiozero import Device

    import engine.table
    from device.cli import demo_config
    from device.config import Config
    from device.daemon import Daemon
    from tests.test_daemon import wait_for

    monkeypatch.setattr(engine.table, "registry", games)
    base = demo_config(Config(), tmp_path / "state", port=0)
    config = dataclasses.replace(
        base, camera=dataclasses.replace(base.camera, source="usb:/dev/familiar-no-such-camera")
    )
    box = Daemon(config)
    box.start()
    try:
        box.service.submit(Action(NEW, {"game": NAME, "seats": ["Ann"], "options": {"seconds": 3}}))
        box.service.submit(Action("start"))
        lit = lambda: box.board()["tracks"]["timer_round"]  # noqa: E731
        assert lit()["on"] == "bar" and lit()["leds"] == "threat"  # the bar this game leaves idle
        for n in (3, 2, 1):  # read back from the MockFactory pins, one LED a second
            wait_for(lambda n=n: lit()["lit"] == [True] * n + [False] * (8 - n))
        wait_for(lambda: box.service.table.current.state.over == 1, timeout=10)
        assert [e.action.kind for e in box.store.entries()][-1] == TIMER_DONE
        board = box.board()["tracks"]
        assert "timer_round" not in board and board["threat"]["idle"] and not any(board["threat"]["lit"])

        box.service.submit(Action("night"))  # the game's pauses reach the narrator as they were declared
        assert box.narrator.wait_idle(60)
        heard = {r.text: r for r in box.narrator.record}
        for line, after in zip(NIGHT, NIGHT[1:], strict=False):
            gap = heard[after.text].started - heard[line.text].ended
            assert line.then_wait <= gap < line.then_wait + 0.1, (line, gap)
    finally:
        box.close()
        Device.pin_factory = None
