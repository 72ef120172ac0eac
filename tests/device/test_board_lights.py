"""The board's named tracks on real LED drivers: bars on gpiozero's MockFactory (pin
states asserted) and the RGB strip through Adafruit's neopixel_spi with only the spidev
handle replaced (the bytes that would go to /dev/spidev0.0 asserted, decoded bit by bit)."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from device.config import Bar, Config, Segment
from device.outputs import HardwareError, Outputs, place
from device.strip import BLINK_SECONDS, RecordingSpidev, SpidevBus, StripLights, open_spidev
from engine.effects import Track
from support.board_game import decode, three_tracks
from support.waiting import wait_until

BARS = {"order": (4, 27, 22, 23, 24), "dark_arts": (25, 5, 6, 16, 17, 0), "election": (1, 14, 15)}
BLUE, GREEN, AMBER = "#1f4dff", "#12b83a", "#ffa000"


def config(**lights) -> Config:
    """The default box with its lights replaced; simulated, as the demo and tests run."""
    base = Config()
    return dataclasses.replace(
        base, box=dataclasses.replace(base.box, simulate=True), lights=dataclasses.replace(base.lights, **lights)
    )


def three_bars() -> Config:
    colours = {"order": BLUE, "dark_arts": GREEN, "election": AMBER}
    return config(bars={name: Bar(pins, colours[name]) for name, pins in BARS.items()}, segments={})


def strip_only(**more) -> Config:
    return config(strip="/dev/spidev0.0", bars={}, **more)


@pytest.fixture
def built(mock_factory: MockFactory) -> Iterator:
    made: list[Outputs] = []

    def build(cfg: Config) -> Outputs:
        made.append(Outputs.from_config(cfg, pin_factory=mock_factory))
        return made[-1]

    yield build
    for outputs in made:
        outputs.close()


def pins(factory: MockFactory, numbers) -> list[bool]:
    return [bool(factory.pin(n).state) for n in numbers]


def test_three_tracks_at_once_on_three_bars(built, mock_factory) -> None:
    outputs = built(three_bars())
    outputs.show(three_tracks(order=3, dark_arts=6, election=1))
    assert pins(mock_factory, BARS["order"]) == [True] * 3 + [False] * 2
    assert pins(mock_factory, BARS["dark_arts"]) == [True] * 6
    assert pins(mock_factory, BARS["election"]) == [True, False, False]
    outputs.show(three_tracks(order=5, dark_arts=0, election=3))  # full tracker: chaos, blinking
    assert pins(mock_factory, BARS["order"]) == [True] * 5
    assert pins(mock_factory, BARS["dark_arts"]) == [False] * 6
    current = mock_factory.pin(BARS["election"][2])
    assert wait_until(lambda: not current.state) and wait_until(lambda: current.state)
    assert pins(mock_factory, BARS["election"][:2]) == [True, True]
    snap = outputs.snapshot()["tracks"]
    assert set(snap) == {"order", "dark_arts", "election"}
    assert snap["election"] | {"lit": None} == {
        "lit": None,
        "value": 3,
        "length": 3,
        "attention": True,
        "colour": AMBER,
        "blinking": 2,
        "on": "bar",
        "leds": "election",
    }
    assert snap["election"]["lit"] == [True] * 3 and snap["order"]["colour"] == BLUE


def test_three_tracks_at_once_on_the_strip(built) -> None:
    outputs = built(strip_only(strip_pixels=16, strip_brightness=0.25))
    device = outputs.strip.device
    assert isinstance(device, RecordingSpidev)
    outputs.show(three_tracks(order=3, dark_arts=6, election=1))
    assert device.max_speed_hz == 6_400_000 and device.mode == 0 and device.bits_per_word == 8
    # GRB order at brightness 0.25: blue #1f4dff -> (0x4d, 0x1f, 0xff) x 0.25, floored
    blue, green, amber, off = bytes([19, 7, 63]), bytes([46, 4, 14]), bytes([40, 63, 0]), bytes(3)
    expected = blue * 3 + off * 2 + green * 6 + amber + off * 2 + off * 2  # 16 pixels, 2 spare
    assert decode(device.writes[-1]) == expected
    assert device.writes[-1][:240] == bytes(240) and device.writes[-1][-240:] == bytes(240)  # 300 us reset
    snap = outputs.snapshot()["tracks"]
    assert snap["order"]["lit"] == [True] * 3 + [False] * 2 and snap["order"]["on"] == "strip"
    assert snap["dark_arts"]["colour"] == GREEN and snap["election"]["blinking"] is None


def test_the_penalty_space_blinks_on_the_strip(built) -> None:
    outputs = built(strip_only(strip_pixels=14, strip_brightness=1.0))
    device = outputs.strip.device
    outputs.show(three_tracks(order=0, dark_arts=0, election=3))
    amber, off = bytes([0xA0, 0xFF, 0x00]), bytes(3)  # full brightness: the colour itself, GRB
    on_frame, off_frame = off * 11 + amber * 3, off * 11 + amber * 2 + off
    assert decode(device.writes[-1]) == on_frame
    assert wait_until(lambda: decode(device.writes[-1]) == off_frame, timeout=4 * BLINK_SECONDS + 2)
    assert wait_until(lambda: decode(device.writes[-1]) == on_frame, timeout=4 * BLINK_SECONDS + 2)
    assert outputs.snapshot()["tracks"]["election"]["lit"] == [True] * 3  # blinking counts as lit
    outputs.show(three_tracks(order=0, dark_arts=0, election=2))  # the penalty is over
    writes = len(device.writes)
    assert decode(device.writes[-1]) == off_frame
    wait_until(lambda: False, timeout=3 * BLINK_SECONDS)
    assert len(device.writes) == writes  # nothing blinks, nothing is written


def test_a_track_longer_than_its_segment_is_scaled_onto_it(built) -> None:
    outputs = built(strip_only(segments={"threat": Segment(0, 4, "#ff0000")}, strip_pixels=4, strip_brightness=1.0))
    device = outputs.strip.device
    red, off = bytes([0, 255, 0]), bytes(3)
    outputs.show({"threat": Track(5, 8)})
    assert decode(device.writes[-1]) == red * 3 + off  # ceil(5 * 4 / 8)
    outputs.show({"threat": Track(8, 8)})
    assert decode(device.writes[-1]) == red * 4


def test_more_tracks_than_lights_show_what_fits_and_the_rest_on_the_page(built, mock_factory) -> None:
    outputs = built(config())  # the default box: one bar, named for the Threat Track
    outputs.show(three_tracks(order=2, dark_arts=4, election=3))
    assert pins(mock_factory, (4, 27, 22, 23, 24, 25, 5, 6)) == [True] * 2 + [False] * 6  # order takes the idle bar
    snap = outputs.snapshot()["tracks"]
    assert snap["order"]["on"] == "bar" and snap["order"]["leds"] == "threat"
    assert snap["dark_arts"] == {
        "lit": [True] * 4 + [False] * 2,
        "colour": None,
        "blinking": None,
        "value": 4,
        "length": 6,
        "attention": False,
        "on": None,
        "leds": None,
    }
    assert snap["election"]["on"] is None and snap["election"]["blinking"] == 2
    assert "threat" not in snap  # the bar is in use, under the track it shows


def test_idle_lights_go_dark_and_are_shown_idle(built, mock_factory) -> None:
    outputs = built(three_bars())
    outputs.show(three_tracks(order=5, dark_arts=6, election=2))
    outputs.show({"threat": Track(1, 8)})  # another game: one track, no bar of its own
    assert pins(mock_factory, BARS["order"]) == [True] + [False] * 4
    assert pins(mock_factory, BARS["dark_arts"] + BARS["election"]) == [False] * 9
    snap = outputs.snapshot()["tracks"]
    assert snap["threat"]["leds"] == "order"
    assert snap["dark_arts"]["idle"] is True and snap["dark_arts"]["lit"] == [False] * 6
    outputs.show({})
    assert pins(mock_factory, BARS["order"]) == [False] * 5


def test_place_prefers_a_tracks_own_lights_then_idle_ones() -> None:
    assert place(["a", "b", "c"], ["b", "x"]) == {"b": "b", "a": "x"}
    assert place([], ["x"]) == {}
    assert place(["a"], []) == {}


def test_strip_and_bars_together(built, mock_factory) -> None:
    cfg = config(strip="/dev/spidev0.0", strip_pixels=14)  # threat bar + the three segments
    outputs = built(cfg)
    outputs.show({"threat": Track(4, 8, attention=True), **three_tracks(order=1, dark_arts=0, election=0)})
    assert pins(mock_factory, (4, 27, 22))[:3] == [True] * 3
    assert decode(outputs.strip.device.writes[-1])[:3] == bytes([19, 7, 63])
    assert set(outputs.snapshot()["tracks"]) == {"threat", "order", "dark_arts", "election"}


def test_closing_darkens_the_strip_and_closes_the_device(built) -> None:
    outputs = built(strip_only())
    device = outputs.strip.device
    outputs.show(three_tracks(order=5, dark_arts=6, election=3))
    outputs.strip.close()
    assert decode(device.writes[-1]) == bytes(3 * 30) and device.closed
    outputs.strip = None  # already closed


def test_a_missing_spi_device_is_a_hardware_error_with_the_fix(mock_factory) -> None:
    cfg = dataclasses.replace(strip_only(), box=Config().box)  # real hardware, and no /dev/spidev0.0 here
    with pytest.raises(HardwareError) as caught:
        Outputs.from_config(cfg, pin_factory=mock_factory)
    assert "/dev/spidev0.0" in str(caught.value) and "dtparam=spi=on" in str(caught.value)
    Outputs.from_config(config(), pin_factory=mock_factory).close()  # the pins were released


def test_a_strip_without_its_driver_installed_is_a_hardware_error_with_the_fix(mock_factory, monkeypatch) -> None:
    """The driver is the [strip] extra: a box installed without a strip, then given one in
    its config, stops with a set-up error saying to install again, not with a traceback."""
    monkeypatch.setitem(sys.modules, "neopixel_spi", None)  # makes the import fail
    with pytest.raises(HardwareError, match=r"LED strip's driver is not installed.*sudo make install"):
        Outputs.from_config(strip_only(), pin_factory=mock_factory)
    Outputs.from_config(config(), pin_factory=mock_factory).close()  # the pins were released


def test_the_bus_adapter_frames_each_write_with_lock_and_settings() -> None:
    device = RecordingSpidev()
    bus = SpidevBus(device)
    assert bus.try_lock() and not bus.try_lock()
    bus.configure(baudrate=6_400_000, polarity=1, phase=1)
    bus.write(b"abcdef", 1, 4)
    bus.unlock()
    assert bus.try_lock()
    assert (device.mode, bus.frequency, device.writes) == (3, 6_400_000, [b"bcd"])
    bus.close()
    with pytest.raises(OSError, match="closed"):
        bus.write(b"x")


def test_a_strip_starts_dark() -> None:
    device = RecordingSpidev()
    StripLights(device, strip_only().lights)
    assert [decode(frame) for frame in device.writes] == [bytes(3 * 30)]


def test_open_spidev_names_the_device_and_the_fix(tmp_path) -> None:
    from device.strip import StripError

    with pytest.raises(StripError, match=r"spidev9\.9.*dtparam=spi=on"):
        open_spidev("/dev/spidev9.9")


def test_the_longest_strip_is_one_spi_write_within_spidevs_buffer(built) -> None:
    outputs = built(strip_only(strip_pixels=150))
    outputs.show(three_tracks(order=5, dark_arts=6, election=3))
    frame = outputs.strip.device.writes[-1]
    assert len(frame) == 150 * 24 + 2 * 240 <= 4096  # spidev's default bufsiz: no gap mid-frame


def test_a_failing_strip_write_is_kept_as_a_problem_not_raised(built) -> None:
    outputs = built(strip_only())
    device = outputs.strip.device
    device.closed = True  # e.g. the SPI device went away
    outputs.show(three_tracks(order=2, dark_arts=0, election=3))  # blinking too: the blinker survives
    assert outputs.problem == "the LED strip cannot be written: the SPI device is closed"
    assert outputs.snapshot()["tracks"]["order"]["lit"] == [True] * 2 + [False] * 3
    device.closed = False
    assert wait_until(lambda: outputs.problem is None, timeout=4 * BLINK_SECONDS + 2)
