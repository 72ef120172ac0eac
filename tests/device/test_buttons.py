"""The two buttons, pressed by driving MockFactory pins low (they pull up, press to ground)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from device.buttons import Buttons
from device.config import GpioConfig
from device.outputs import HardwareError, StatusLight
from support.waiting import wait_until

HOLD = 0.3
GPIO = GpioConfig(hold_seconds=HOLD)  # confirm on BCM 26, undo on BCM 13


class Recorder:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, name: str):
        return lambda: self.calls.append(name)


@pytest.fixture
def pressed(mock_factory: MockFactory) -> Iterator[tuple[Buttons, Recorder]]:
    record = Recorder()
    buttons = Buttons(
        GPIO,
        on_confirm=record("confirm"),
        on_confirm_hold=record("pair"),
        on_undo=record("undo"),
        on_undo_hold=record("repeat"),
        pin_factory=mock_factory,
    )
    yield buttons, record
    buttons.close()


def tap(pin) -> None:
    pin.drive_low()
    time.sleep(0.05)  # longer than the bounce time, far shorter than the hold time
    pin.drive_high()


def test_confirm_tap_fires_once_on_release(pressed, mock_factory) -> None:
    _, record = pressed
    tap(mock_factory.pin(26))
    assert wait_until(lambda: record.calls == ["confirm"])
    time.sleep(HOLD + 0.1)
    assert record.calls == ["confirm"]


def test_short_undo_press_undoes_once(pressed, mock_factory) -> None:
    _, record = pressed
    tap(mock_factory.pin(13))
    assert wait_until(lambda: record.calls == ["undo"])
    time.sleep(HOLD + 0.1)
    assert record.calls == ["undo"]


@pytest.mark.parametrize(("pin", "held", "tapped"), [(13, "repeat", "undo"), (26, "pair", "confirm")])
def test_a_hold_fires_the_hold_action_and_nothing_on_release(pressed, mock_factory, pin, held, tapped) -> None:
    _, record = pressed
    button = mock_factory.pin(pin)
    button.drive_low()
    assert wait_until(lambda: record.calls == [held])
    button.drive_high()
    time.sleep(0.1)
    assert record.calls == [held]
    tap(button)  # the next short press is a tap again
    assert wait_until(lambda: record.calls == [held, tapped])


def test_confirm_without_a_hold_action_ignores_holds(mock_factory) -> None:
    record = Recorder()
    buttons = Buttons(
        GPIO,
        on_confirm=record("confirm"),
        on_undo=record("undo"),
        on_undo_hold=record("repeat"),
        pin_factory=mock_factory,
    )
    try:
        buttons.simulate("confirm-hold")
        buttons.simulate("confirm")
        assert wait_until(lambda: record.calls == ["confirm"])
    finally:
        buttons.close()


def test_simulated_presses_go_through_the_pins(pressed) -> None:
    buttons, record = pressed
    for name in ("confirm", "undo", "undo-hold", "confirm-hold"):
        buttons.simulate(name)
    assert wait_until(lambda: record.calls == ["confirm", "undo", "repeat", "pair"])
    with pytest.raises(ValueError):
        buttons.simulate("redo")


def test_a_failing_handler_is_logged_and_the_button_keeps_working(mock_factory, caplog) -> None:
    calls: list[str] = []

    def broken() -> None:
        calls.append("confirm")
        raise RuntimeError("engine said no")

    buttons = Buttons(
        GPIO, on_confirm=broken, on_undo=lambda: None, on_undo_hold=lambda: None, pin_factory=mock_factory
    )
    try:
        tap(mock_factory.pin(26))
        tap(mock_factory.pin(26))
        assert wait_until(lambda: len(calls) == 2)
        assert wait_until(lambda: "confirm button's handler failed" in caplog.text)
    finally:
        buttons.close()


def test_a_taken_pin_raises_hardware_error_and_frees_the_other(mock_factory) -> None:
    blocker = StatusLight(13, pin_factory=mock_factory)
    try:
        with pytest.raises(HardwareError, match="cannot use GPIO pins 13"):
            Buttons(
                GPIO, on_confirm=lambda: None, on_undo=lambda: None, on_undo_hold=lambda: None, pin_factory=mock_factory
            )
        Buttons(
            GpioConfig(undo_pin=14),
            on_confirm=lambda: None,
            on_undo=lambda: None,
            on_undo_hold=lambda: None,
            pin_factory=mock_factory,
        ).close()  # 26 was freed
    finally:
        blocker.close()
