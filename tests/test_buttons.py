"""The two buttons, pressed by driving MockFactory pins low (they pull up, press to ground)."""
from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from device.buttons import Buttons
from device.config import GpioConfig
from device.outputs import HardwareError, StatusLight
from tests.conftest_device import mock_factory, wait_until  # noqa: F401 - fixture

HOLD = 0.3


class Recorder:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, name: str):
        return lambda: self.calls.append(name)


@pytest.fixture
def pressed(mock_factory: MockFactory) -> Iterator[tuple[Buttons, Recorder]]:
    record = Recorder()
    buttons = Buttons.from_config(
        GpioConfig(hold_seconds=HOLD), on_confirm=record("confirm"), on_undo=record("undo"),
        on_repeat=record("repeat"), pin_factory=mock_factory)
    yield buttons, record
    buttons.close()


def tap(pin) -> None:
    pin.drive_low()
    time.sleep(0.05)  # longer than the bounce time, far shorter than the hold time
    pin.drive_high()


def test_confirm_fires_on_press(pressed, mock_factory) -> None:
    _, record = pressed
    mock_factory.pin(26).drive_low()
    assert wait_until(lambda: record.calls == ["confirm"])
    mock_factory.pin(26).drive_high()
    time.sleep(0.05)
    assert record.calls == ["confirm"]


def test_short_undo_press_undoes_once(pressed, mock_factory) -> None:
    _, record = pressed
    tap(mock_factory.pin(13))
    assert wait_until(lambda: record.calls == ["undo"])
    time.sleep(HOLD + 0.1)
    assert record.calls == ["undo"]


def test_held_undo_repeats_and_does_not_undo_on_release(pressed, mock_factory) -> None:
    _, record = pressed
    pin = mock_factory.pin(13)
    pin.drive_low()
    assert wait_until(lambda: record.calls == ["repeat"])
    pin.drive_high()
    time.sleep(0.1)
    assert record.calls == ["repeat"]
    tap(pin)  # the next short press is an undo again
    assert wait_until(lambda: record.calls == ["repeat", "undo"])


def test_a_failing_handler_is_logged_and_the_button_keeps_working(mock_factory, caplog) -> None:
    calls: list[str] = []

    def broken() -> None:
        calls.append("confirm")
        raise RuntimeError("engine said no")

    buttons = Buttons(26, 13, on_confirm=broken, on_undo=lambda: None, on_repeat=lambda: None,
                      pin_factory=mock_factory)
    try:
        pin = mock_factory.pin(26)
        tap(pin)
        tap(pin)
        assert wait_until(lambda: len(calls) == 2)
        assert wait_until(lambda: "confirm button's handler failed" in caplog.text)
    finally:
        buttons.close()


def test_a_taken_pin_raises_hardware_error(mock_factory) -> None:
    blocker = StatusLight(13, pin_factory=mock_factory)
    try:
        with pytest.raises(HardwareError, match="cannot use GPIO pins 13"):
            Buttons(26, 13, on_confirm=lambda: None, on_undo=lambda: None,
                    on_repeat=lambda: None, pin_factory=mock_factory)
        Buttons(26, 14, on_confirm=lambda: None, on_undo=lambda: None,
                on_repeat=lambda: None, pin_factory=mock_factory).close()  # 26 was released
    finally:
        blocker.close()
