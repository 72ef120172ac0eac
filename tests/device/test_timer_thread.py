"""The box's side of the table timers: the service logs the moment the rules saw, the
timer thread says warnings and sends ``timer_done``, the daemon drains a bar; and the
narrator's exact pauses, measured from its own record."""

from __future__ import annotations

import pytest
from gpiozero import Device

import engine.table
from device.config import AudioConfig
from device.narrator import Narrator, Spoken
from device.store import Store
from device.table_service import TableService
from device.timers import TimerKeeper
from engine.actions import Action
from engine.effects import TIMER_DONE
from engine.table import NEW, TIMER, UNDO
from support.daemon import make_daemon
from support.timer_game import NAME, NIGHT, WARNING, games
from support.waiting import LATE_S, wait_for


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


def test_ending_a_timer_early_skips_its_warnings(tmp_path):
    """End now jumps a running timer to zero: the reminders it jumped over are not said
    in one burst (issue 50); one reached by time passing still is."""
    service = TableService(Store(tmp_path / "familiar.db"), games=games())
    service.submit(Action(NEW, {"game": NAME, "seats": ["Ann"], "options": {"seconds": 60}}))
    said = []
    service.submit(Action("start"))
    deadline = service.timers()["round"].deadline
    service.clock = clock = Clock(deadline - 50)
    keeper = TimerKeeper(service, say=said.append, redraw=lambda: None)
    keeper.check()
    clock.now += 0.2
    service.submit(Action(TIMER, {"name": "round", "do": "end"}))
    keeper.check()
    assert said == [] and service.table.current.state.over == 1
    service.submit(Action("start"))  # a second round runs its course: warned on time
    clock.now = service.timers()["round"].deadline - 3.1
    keeper.check()
    clock.now += 0.2
    keeper.check()
    assert said == [WARNING]
    service.store.close()


def test_a_paused_timer_is_never_done(timed):
    timed.submit(Action("start"))
    timed.submit(Action(TIMER, {"name": "round", "do": "pause"}))
    timed.clock = Clock(10**10)
    keeper = TimerKeeper(timed, say=lambda text: None, redraw=lambda: None)
    keeper.check()
    assert "round" in timed.timers() and timed.table.current.state.over == 0


# The narrator's pauses, measured from its own record


def assert_quiet(before: Spoken, after: Spoken, then_wait: float) -> None:
    """The quiet after a line is never shorter than declared; the next line is synthesised
    during it and starts as soon as it is over and the WAV is ready (a loaded machine may
    synthesise for longer than the quiet), give or take a thread woken late."""
    began, ready = after.synthesised
    gap = after.started - before.ended
    due = max(before.ended + then_wait, ready)
    assert then_wait <= gap and began - before.ended < LATE_S, (after.text, then_wait, gap)
    assert after.started - due < LATE_S, (after.text, then_wait, gap)


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
        assert_quiet(before, after, line.then_wait)


# The board: the real daemon on simulated pins drains the timer's track


@pytest.mark.slow
def test_the_daemon_drains_the_timer_on_an_idle_bar_sends_timer_done_and_pauses(tmp_path, monkeypatch):
    monkeypatch.setattr(engine.table, "registry", games)
    box = make_daemon(tmp_path, source="usb:/dev/familiar-no-such-camera")
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
            assert_quiet(heard[line.text], heard[after.text], line.then_wait)
    finally:
        box.close()
        Device.pin_factory = None
