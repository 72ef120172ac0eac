"""The config file: example == defaults, every option documented, bad files named precisely."""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from pathlib import Path

import pytest

from device import config as config_module
from device.config import (
    EXAMPLE_PATH,
    Bar,
    Config,
    ConfigError,
    Segment,
    config_from_dict,
    load_config,
)


def test_example_file_loads_to_exactly_the_defaults() -> None:
    assert load_config(EXAMPLE_PATH) == Config()


def test_every_option_appears_in_the_example_and_nothing_else() -> None:
    example = tomllib.loads(EXAMPLE_PATH.read_text())
    sections = typing.get_type_hints(Config)
    assert set(example) == set(sections)
    for name, cls in sections.items():
        assert set(example[name]) == {f.name for f in dataclasses.fields(cls)}, name


def test_no_path_and_no_default_file_gives_defaults(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(config_module, "DEFAULT_PATH", tmp_path / "absent.toml")
    assert load_config(None) == Config()


def test_no_path_reads_the_default_file_when_present(tmp_path: Path, monkeypatch) -> None:
    default = tmp_path / "familiar.toml"
    default.write_text('[web]\nport = 9000\n[box]\nsimulate = true\nstate_dir = "/tmp/x"\n')
    monkeypatch.setattr(config_module, "DEFAULT_PATH", default)
    loaded = load_config(None)
    assert loaded.web.port == 9000
    assert loaded.box.simulate is True
    assert loaded.box.state_dir == Path("/tmp/x")
    assert loaded.gpio == Config().gpio


def test_partial_file_keeps_other_defaults_and_converts_types(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    path.write_text(
        "[gpio]\nhold_seconds = 2\n[audio]\nvolume = 0\n"
        '[lights.bars]\nturn = { pins = [4, 5, 6], colour = "#ffffff" }\n'
    )
    loaded = load_config(path)
    assert dict(loaded.lights.bars) == {"turn": Bar((4, 5, 6), "#ffffff")}  # the table replaces the default
    assert loaded.lights.segments == Config().lights.segments
    assert loaded.gpio.hold_seconds == 2.0 and isinstance(loaded.gpio.hold_seconds, float)
    assert loaded.audio.volume == 0.0
    assert loaded.state_path(loaded.vision.dice_dir) == Path("/var/lib/familiar/dice")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[gpio]\nconfirm_pin = 5\n", "lights.bars.threat.pins: pin 5 is used twice (also gpio.confirm_pin)"),
        ('[lights.bars]\nturn = { pins = [4, 4], colour = "#ffffff" }\n', "lights.bars.turn.pins: pin 4 is used twice"),
        (
            '[lights.bars]\na = { pins = [16], colour = "#ffffff" }\nb = { pins = [17, 16], colour = "#ffffff" }\n',
            "lights.bars.a.pins: pin 16 is used twice (also lights.bars.b.pins)",
        ),
        (
            '[lights]\nstrip = "/dev/spidev0.0"\n[gpio]\nundo_pin = 10\n',
            "lights.strip (SPI0): pin 10 is used twice (also gpio.undo_pin)",
        ),
        (
            '[lights]\nstrip = "/dev/spidev0.0"\n[lights.bars]\nturn = { pins = [16, 8], colour = "#ffffff" }\n',
            "lights.bars.turn.pins: pin 8 is used twice (also lights.strip (SPI0))",
        ),
        ("[gpio]\nstatus_pin = 26\n", "gpio.status_pin: pin 26 is used twice (also gpio.confirm_pin)"),
        ('[lights.bars]\nturn = { pins = [], colour = "#ffffff" }\n', "lights.bars.turn.pins: needs at least one pin"),
        (
            '[lights.bars]\nturn = { pins = [4, 40], colour = "#ffffff" }\n',
            "lights.bars.turn.pins: BCM pin must be between 0 and 27, got 40",
        ),
        ("[lights.bars]\nturn = { pins = [4] }\n", "lights.bars.turn: missing colour"),
        (
            '[lights.bars]\nturn = { pins = [4], colour = "red" }\n',
            'lights.bars.turn.colour: must be a colour "#rrggbb"',
        ),
        ('[lights.bars]\nTurn = { pins = [4], colour = "#ffffff" }\n', "lights.bars.Turn: a track name is lower-case"),
        ("[lights.bars]\nturn = [4]\n", "lights.bars.turn: must be a table, got a list"),
        ("[lights]\nbars = 3\n", "lights.bars: must be a table of tracks, got an integer (3)"),
        (
            '[lights.bars]\norder = { pins = [4], colour = "#ffffff" }\n',
            "lights.segments.order: track 'order' is mapped twice (also lights.bars.order)",
        ),
        (
            '[lights.segments]\na = { first = 0, pixels = 5, colour = "#000000" }\nb = { first = 4, pixels = 2, colour = "#000000" }\n',
            "lights.segments.b: pixels 4-5 overlap lights.segments.a at pixel 4",
        ),
        ("[lights]\nstrip_pixels = 12\n", "lights.segments.election: pixels 11-13 do not fit on a strip of 12 pixels"),
        (
            '[lights.segments]\na = { first = 0, pixels = 0, colour = "#000000" }\n',
            "lights.segments.a.pixels: must be between 1 and 150, got 0",
        ),
        ('[lights]\nstrip = "spi0"\n', 'lights.strip: must be "" (no strip) or an SPI device such as "/dev/spidev0.0"'),
        ('[lights]\nstrip_order = "BGR"\n', 'lights.strip_order: must be "GRB" (WS2812B) or "RGB"'),
        ("[lights]\nstrip_brightness = 0\n", "lights.strip_brightness: must be between 0.02 and 1.0, got 0.0"),
        ("[gpio]\ntrack_pins = [4, 5]\n", "gpio.track_pins: moved: each track names its own LEDs now"),
        ('[gpio]\nstatus_pin = "12"\n', "gpio.status_pin: expected an integer, got a string ('12')"),
        ("[gpio]\nhold_seconds = 10\n", "gpio.hold_seconds: must be between 0.3 and 5.0, got 10.0"),
        ("[box]\nsimulate = 1\n", "box.simulate: expected true or false, got an integer (1)"),
        ("[box]\nsimualte = true\n", "box.simualte: unknown key"),
        ("[speaker]\nvolume = 1\n", "speaker: unknown section"),
        ("box = 1\n", "box: must be a table"),
        ("[web]\nport = 0\n", "web.port: must be between 1 and 65535, got 0"),
        ("[web]\nport = 80.5\n", "web.port: expected an integer, got a number (80.5)"),
        ('[web]\npublic_url = "box.local"\n', "web.public_url: must be empty or start with http://"),
        ("[audio]\nvolume = 1.5\n", "audio.volume: must be between 0.0 and 1.0, got 1.5"),
        ('[audio]\nvoice = ""\n', "audio.voice: must not be empty"),
        ('[camera]\nsource = "usb"\n', 'camera.source: must be "auto", "picamera2", "usb:N"'),
        ("[vision]\nconfirm_below = -0.1\n", "vision.confirm_below: must be between 0.0 and 1.0"),
        (
            '[lights.bars]\nturn = { pins = [4, true], colour = "#ffffff" }\n',
            "lights.bars.turn.pins: expected a list of integers",
        ),
    ],
)
def test_bad_values_name_the_key_and_the_fault(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_dict(tomllib.loads(text))
    assert str(caught.value).startswith(message)


def test_good_camera_sources_are_accepted() -> None:
    for source in ("auto", "picamera2", "usb:0", "usb:12", "replay:/tmp/photos"):
        assert config_from_dict({"camera": {"source": source}}).camera.source == source


def test_missing_file_and_syntax_error_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="absent.toml: no such file"):
        load_config(tmp_path / "absent.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[web\nport = 1\n")
    with pytest.raises(ConfigError, match=r"broken.toml: .*line 1"):
        load_config(broken)


def test_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().web.port = 1  # type: ignore[misc]


def test_a_strip_with_the_threat_track_on_it_too() -> None:
    text = (
        '[lights]\nstrip = "/dev/spidev0.0"\n[lights.bars]\n'
        '[lights.segments]\norder = { first = 0, pixels = 5, colour = "#1f4dff" }\n'
        'threat = { first = 5, pixels = 8, colour = "#ff2a1a" }\n'
    )
    lights = config_from_dict(tomllib.loads(text)).lights
    assert lights.strip == "/dev/spidev0.0" and dict(lights.bars) == {}
    assert dict(lights.segments) == {"order": Segment(0, 5, "#1f4dff"), "threat": Segment(5, 8, "#ff2a1a")}
