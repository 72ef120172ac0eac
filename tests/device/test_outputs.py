"""The LED track and status light, checked on gpiozero's MockFactory by real pin states."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from device.config import Config
from device.outputs import HardwareError, Outputs, SimulatedPin, StatusLight, TrackLights, led_count
from support.waiting import wait_until

PINS = (4, 27, 22, 23, 24, 25, 5, 6)


@pytest.fixture
def outputs(mock_factory: MockFactory) -> Iterator[Outputs]:
    built = Outputs.from_config(Config(), pin_factory=mock_factory)
    assert list(built.bars) == ["threat"] and built.strip is None  # the default box
    built.track = built.bars["threat"]
    yield built
    built.close()


def test_led_count_maps_a_track_onto_the_leds():
    assert [led_count(v, 6, 8) for v in range(7)] == [0, 1, 2, 3, 4, 5, 6]
    assert [led_count(v, 12, 8) for v in (0, 1, 11, 12)] == [0, 1, 8, 8]


def states(factory: MockFactory, pins=PINS) -> list[bool]:
    return [bool(factory.pin(pin).state) for pin in pins]


@pytest.mark.parametrize("value", range(len(PINS) + 1))
def test_show_lights_exactly_the_first_value_pins(outputs: Outputs, mock_factory, value) -> None:
    outputs.track.show(value)
    assert states(mock_factory) == [i < value for i in range(len(PINS))]
    assert outputs.track.snapshot() == {
        "lit": [i < value for i in range(len(PINS))],
        "value": value,
        "attention": False,
        "colour": "#ff2a1a",
        "blinking": None,
    }


def test_outputs_report_the_factory_their_pins_came_from(outputs: Outputs, mock_factory) -> None:
    assert outputs.pin_factory is mock_factory


def test_show_goes_down_as_well_as_up(outputs: Outputs, mock_factory) -> None:
    outputs.track.show(6)
    outputs.track.show(2)
    assert states(mock_factory) == [True, True] + [False] * 6


def test_attention_blinks_only_the_current_space(outputs: Outputs, mock_factory) -> None:
    outputs.track.show(4, attention=True)
    current = mock_factory.pin(PINS[3])
    assert wait_until(lambda: not current.state)
    assert wait_until(lambda: current.state)
    assert states(mock_factory)[:3] == [True] * 3
    assert states(mock_factory)[4:] == [False] * 4
    snap = outputs.track.snapshot()
    assert snap["attention"] is True and snap["blinking"] == 3 and snap["lit"] == [True] * 4 + [False] * 4


def test_a_new_show_stops_the_blinking(outputs: Outputs, mock_factory) -> None:
    outputs.track.show(4, attention=True)
    outputs.track.show(5)
    for _ in range(20):  # over a full blink period the LEDs stay as shown
        assert states(mock_factory) == [True] * 5 + [False] * 3
        wait_until(lambda: False, timeout=0.05)


def test_show_rejects_values_off_the_track(outputs: Outputs) -> None:
    with pytest.raises(ValueError, match="between 0 and 8"):
        outputs.track.show(9)
    with pytest.raises(ValueError):
        outputs.track.show(-1)


def test_status_ready_is_steady_full_brightness(outputs: Outputs, mock_factory) -> None:
    outputs.status.ready()
    assert mock_factory.pin(12).state == 1
    assert outputs.status.snapshot() == {"mode": "ready", "brightness": 1.0}
    outputs.status.off()
    assert mock_factory.pin(12).state == 0


def test_status_waiting_breathes_through_intermediate_levels(outputs: Outputs, mock_factory) -> None:
    outputs.status.waiting()
    pin = mock_factory.pin(12)
    seen: set[float] = set()
    assert wait_until(lambda: seen.add(round(pin.state, 2)) or len(seen - {0.0, 1.0}) >= 5)
    assert outputs.status.snapshot()["mode"] == "waiting"


def test_status_attention_blinks_fully_on_and_off(outputs: Outputs, mock_factory) -> None:
    outputs.status.attention()
    pin = mock_factory.pin(12)
    assert wait_until(lambda: pin.state == 1)
    assert wait_until(lambda: pin.state == 0)
    assert wait_until(lambda: pin.state == 1)


def test_snapshot_reads_the_real_pin_level(outputs: Outputs, mock_factory) -> None:
    outputs.status.waiting()
    pin = mock_factory.pin(12)
    assert wait_until(lambda: 0.2 < outputs.status.snapshot()["brightness"] < 0.8)
    assert abs(outputs.status.snapshot()["brightness"] - pin.state) < 0.2


def test_no_gpio_raises_a_clear_hardware_error(monkeypatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)  # gpiozero picks a factory afresh
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with pytest.raises(HardwareError) as caught:
        Outputs.from_config(Config())
    message = str(caught.value)
    assert message.startswith("cannot use GPIO pins 4, 27, 22, 23, 24, 25, 5, 6: BadPinFactory")
    assert "gpio group" in message and "box.simulate = true" in message


def test_a_pin_already_in_use_raises_hardware_error_and_frees_the_track(mock_factory) -> None:
    blocker = StatusLight(12, pin_factory=mock_factory)
    with pytest.raises(HardwareError, match="cannot use GPIO pins 12"):
        Outputs.from_config(Config(), pin_factory=mock_factory)
    blocker.close()
    track = TrackLights(PINS, pin_factory=mock_factory)  # pins were released
    track.close()


def test_a_simulated_pin_remembers_only_its_latest_changes(mock_factory) -> None:
    """The demo runs for hours: its pins' record of changes must not grow without end."""
    pin = mock_factory.pin(21)
    pin.function = "output"
    for i in range(2 * SimulatedPin.KEPT + 5):
        pin.state = i % 2
    assert SimulatedPin.KEPT <= len(pin.states) <= 2 * SimulatedPin.KEPT
    assert pin.states[-1].state == (2 * SimulatedPin.KEPT + 4) % 2
