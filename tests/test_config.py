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
    Config,
    ConfigError,
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
    path.write_text("[gpio]\ntrack_pins = [4, 5, 6]\nhold_seconds = 2\n[audio]\nvolume = 0\n")
    loaded = load_config(path)
    assert loaded.gpio.track_pins == (4, 5, 6)
    assert loaded.gpio.hold_seconds == 2.0 and isinstance(loaded.gpio.hold_seconds, float)
    assert loaded.audio.volume == 0.0
    assert loaded.state_path(loaded.vision.dice_dir) == Path("/var/lib/familiar/dice")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[gpio]\ntrack_pins = [5, 6]\nconfirm_pin = 5\n",
         "gpio.track_pins: pin 5 is used twice (also gpio.confirm_pin)"),
        ("[gpio]\ntrack_pins = [4, 4]\n", "gpio.track_pins: pin 4 is used twice"),
        ("[gpio]\nstatus_pin = 26\n", "gpio.status_pin: pin 26 is used twice (also gpio.confirm_pin)"),
        ("[gpio]\ntrack_pins = []\n", "gpio.track_pins: needs at least one pin"),
        ("[gpio]\ntrack_pins = [4, 40]\n", "gpio.track_pins: BCM pin must be between 0 and 27, got 40"),
        ("[gpio]\nstatus_pin = \"12\"\n", "gpio.status_pin: expected an integer, got a string ('12')"),
        ("[gpio]\nhold_seconds = 10\n", "gpio.hold_seconds: must be between 0.3 and 5.0, got 10.0"),
        ("[box]\nsimulate = 1\n", "box.simulate: expected true or false, got an integer (1)"),
        ("[box]\nsimualte = true\n", "box.simualte: unknown key"),
        ("[speaker]\nvolume = 1\n", "speaker: unknown section"),
        ("box = 1\n", "box: must be a table"),
        ("[web]\nport = 0\n", "web.port: must be between 1 and 65535, got 0"),
        ("[web]\nport = 80.5\n", "web.port: expected an integer, got a number (80.5)"),
        ("[web]\npublic_url = \"box.local\"\n", "web.public_url: must be empty or start with http://"),
        ("[audio]\nvolume = 1.5\n", "audio.volume: must be between 0.0 and 1.0, got 1.5"),
        ("[audio]\nvoice = \"\"\n", "audio.voice: must not be empty"),
        ("[camera]\nsource = \"usb\"\n", "camera.source: must be \"auto\", \"picamera2\", \"usb:N\""),
        ("[vision]\nconfirm_below = -0.1\n", "vision.confirm_below: must be between 0.0 and 1.0"),
        ("[gpio]\ntrack_pins = [4, true]\n", "gpio.track_pins: expected a list of integers"),
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
