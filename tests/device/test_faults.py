"""Faults the other rooms do not inject: the camera library failing to import, an LED
pin failing mid-game, the system clock jumping.  Each is said and shown, and the table
plays on by hand."""

from __future__ import annotations

import time

import pytest
from gpiozero import Device

from device import daemon as daemon_module
from device.store import Store
from device.table_service import SteadyClock, TableService
from device.timers import TimerKeeper
from engine.actions import Action
from engine.effects import Say
from engine.table import NEW
from support.daemon import make_daemon
from support.timer_game import NAME, games
from support.waiting import wait_for


@pytest.fixture
def box(tmp_path):
    made = []

    def build(**camera):
        d = make_daemon(tmp_path, **camera)
        made.append(d)
        return d

    yield build
    for d in made:
        d.close()
    Device.pin_factory = None


def test_a_camera_library_that_fails_to_import_is_said_and_play_goes_on(box, monkeypatch):
    def no_library(*args, **kwargs):
        raise ImportError("libcamera.so.0.3: cannot open shared object file")

    monkeypatch.setattr(daemon_module, "open_camera", no_library)
    d = box()
    d.start()
    wait_for(lambda: d.parts["camera"] == "missing", timeout=30)
    assert any("Camera problem" in n and "ImportError" in n for n in d.service.public_view()["notices"])
    assert wait_for(lambda: any("Camera problem" in line for line in d.narrator.history), timeout=60)
    d.service.submit(Action(NEW, {"game": "dice", "seats": ["Ann"]}))
    d.service.submit(Action("roll", {"dice": [3, 4]}))
    assert d.service.public_view()["view"]["total"] == 7


def test_an_led_pin_failing_mid_game_is_said_and_shown_and_play_goes_on(box, monkeypatch):
    from gpiozero.pins.mock import MockPin, MockPWMPin

    monkeypatch.setattr(daemon_module, "LIGHTS_STEADY_S", 0.5)
    d = box(source="usb:/dev/familiar-no-such-camera")
    said: list[str] = []
    d.service.add_listener(lambda effects: said.extend(e.text for e in effects if isinstance(e, Say)))
    d.problems.clear()  # no camera problem: the status light is steady, written at once

    def broken(self, state):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(MockPin, "_set_state", broken)
    monkeypatch.setattr(MockPWMPin, "_set_state", broken)
    d._show_board()
    assert d.parts["gpio"] == "failing"
    assert any("Lights and buttons problem" in n for n in d.service.public_view()["notices"]), d.service.public_view()[
        "notices"
    ]
    assert any("Lights and buttons problem" in line for line in said), said
    d.service.submit(Action(NEW, {"game": "dice", "seats": ["Ann"]}))  # play goes on by hand
    d.service.submit(Action("roll", {"dice": [2, 2]}))
    assert d.service.public_view()["view"]["total"] == 4
    monkeypatch.undo()  # the pins work again: a redraw after a steady while clears the warning
    monkeypatch.setattr(daemon_module, "LIGHTS_STEADY_S", 0.5)
    time.sleep(0.6)
    d._show_board()
    assert "gpio" not in d.problems and d.parts["gpio"] == "simulated"
    assert any("Lights and buttons: working again" in n for n in d.service.public_view()["notices"])


class Wall:
    """A system clock a test can set (NTP setting a Pi's clock at boot)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_clock_jump_keeps_each_timers_time_left_and_is_said(tmp_path):
    wall, mono = Wall(1_000.0), Wall(50.0)
    service = TableService(Store(tmp_path / "familiar.db"), games=games())
    service.clock = SteadyClock(wall=wall, monotonic=mono)
    said: list[str] = []
    keeper = TimerKeeper(service, say=said.append, redraw=lambda: None)
    service.submit(Action(NEW, {"game": NAME, "seats": ["Ann"]}))
    service.submit(Action("start"))
    keeper.check()
    wall.now += 3_600  # the clock is set an hour on; one second has passed
    mono.now += 1
    keeper.check()
    assert service.store.entries()[-1].action.kind == "start", "the jump ended the round"
    assert service.timers()["round"].remaining(service.clock()) == pytest.approx(9.0)
    assert any("clock" in n for n in service.public_view()["notices"])
    mono.now += 10
    keeper.check()
    assert service.store.entries()[-1].action.kind == "timer_done"
