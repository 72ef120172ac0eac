"""The box's one configuration file: ``/etc/familiar/familiar.toml`` (or ``--config PATH``).

Every option is a field of a frozen dataclass below, with its default and its check
next to it, so the file format, the defaults and the validation cannot drift apart.
A bad file raises :class:`ConfigError` naming the key and what is wrong; the CLI
turns that into exit status 2. ``device/familiar.example.toml`` lists every option.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.messages import LANGUAGES

DEFAULT_PATH = Path("/etc/familiar/familiar.toml")
EXAMPLE_PATH = Path(__file__).with_name("familiar.example.toml")

Check = Callable[[Any], "str | None"]


class ConfigError(ValueError):
    """A configuration problem; the message names the key (``section.key``) and the fault."""


def _between(low: float, high: float) -> Check:
    """A check that a number lies in ``[low, high]``."""

    def check(value: float) -> str | None:
        return None if low <= value <= high else f"must be between {low} and {high}, got {value}"

    return check


def _bcm_pin(value: int) -> str | None:
    """The 40-pin header exposes BCM GPIO 0..27; anything else is a typo."""
    return None if 0 <= value <= 27 else f"BCM pin must be between 0 and 27, got {value}"


def _bcm_pins(value: tuple[int, ...]) -> str | None:
    """A track needs at least one LED, each on a real, distinct header pin."""
    if not value:
        return "needs at least one pin"
    for pin in value:
        if problem := _bcm_pin(pin):
            return problem
    return None


def _not_empty(value: str) -> str | None:
    return None if value.strip() else "must not be empty"


_CAMERA_SOURCE = re.compile(r"^(auto|picamera2|usb:\d+|replay:.+|thrown:.+)$")


def _language(value: str) -> str | None:
    return None if value in LANGUAGES else f"must be one of {', '.join(LANGUAGES)}"


def _camera_source(value: str) -> str | None:
    if _CAMERA_SOURCE.match(value):
        return None
    return f'must be "auto", "picamera2", "usb:N", "replay:PATH" or "thrown:PATH", got {value!r}'


def _mains_hz(value: int) -> str | None:
    return None if value in (0, 50, 60) else f"must be 50, 60 or 0 (no flicker lock), got {value}"


def _url_or_empty(value: str) -> str | None:
    if not value or value.startswith(("http://", "https://")):
        return None
    return f"must be empty or start with http:// or https://, got {value!r}"


_TRACK_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_SPIDEV = re.compile(r"^/dev/spidev(\d+)\.(\d+)$")
SPI0_PINS = (7, 8, 9, 10, 11)
"""GPIO 7-11 belong to SPI0 once ``dtparam=spi=on``: CE1, CE0, MISO, MOSI (the strip's
data line), SCLK. The kernel claims all five, so no LED or button may use them."""


def _colour(value: str) -> str | None:
    return None if _COLOUR.match(value) else f'must be a colour "#rrggbb", got {value!r}'


def _spidev_or_empty(value: str) -> str | None:
    if not value or _SPIDEV.match(value):
        return None
    return f'must be "" (no strip) or an SPI device such as "/dev/spidev0.0", got {value!r}'


def _pixel_order(value: str) -> str | None:
    return None if value in ("GRB", "RGB") else f'must be "GRB" (WS2812B) or "RGB", got {value!r}'


def _option(default: Any, check: Check | None = None, convert: Callable[[str, Any], Any] | None = None) -> Any:
    """A dataclass field carrying its validity check (and, for tables, its converter) in
    the metadata; ``dataclasses.MISSING`` as the default makes the key required."""
    metadata = {"check": check, "convert": convert}
    if isinstance(default, Mapping):  # read-only, but unhashable: dataclasses want a factory
        return field(default_factory=lambda: default, metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class BoxConfig:
    """Whole-box switches: real or simulated hardware, and where state lives."""

    simulate: bool = _option(False)
    state_dir: Path = _option(Path("/var/lib/familiar"))
    language: str = _option("en", _language)


@dataclass(frozen=True)
class GpioConfig:
    """BCM pin map of the status light and the buttons (the track LEDs are in
    :class:`LightsConfig`). Defaults keep clear of I2C (2, 3), SPI (7-11, 16-21), UART
    (14, 15) and I2S (18-21), so a MAX98357A amplifier on 18/19/21 and the LED strip on
    SPI0 still fit (see hardware.md)."""

    status_pin: int = _option(12, _bcm_pin)
    confirm_pin: int = _option(26, _bcm_pin)
    undo_pin: int = _option(13, _bcm_pin)
    hold_seconds: float = _option(1.0, _between(0.3, 5.0))


@dataclass(frozen=True)
class Bar:
    """Plain LEDs on GPIO pins showing one track, first space first, and their colour
    (what the virtual board draws them in; the LEDs' own colour is fixed by the part)."""

    pins: tuple[int, ...] = _option(dataclasses.MISSING, _bcm_pins)
    colour: str = _option(dataclasses.MISSING, _colour)


@dataclass(frozen=True)
class Segment:
    """Pixels ``first`` .. ``first + pixels - 1`` (0 = the pixel nearest the Pi) of the
    strip showing one track, lit in ``colour``."""

    first: int = _option(dataclasses.MISSING, _between(0, 149))
    pixels: int = _option(dataclasses.MISSING, _between(1, 150))
    colour: str = _option(dataclasses.MISSING, _colour)


def _tables_of(kind: type) -> Callable[[str, Any], Mapping[str, Any]]:
    """Converter for a table of named sub-tables (``[lights.bars]``): track name -> ``kind``,
    each sub-table checked like a section, with every key required."""

    def convert(key: str, raw: Any) -> Mapping[str, Any]:
        if not isinstance(raw, dict):
            raise ConfigError(f"{key}: must be a table of tracks, got {_describe(raw)}")
        named = {}
        for name, table in raw.items():
            if not _TRACK_NAME.match(name):
                raise ConfigError(f"{key}.{name}: a track name is lower-case letters, digits and _")
            if not isinstance(table, dict):
                raise ConfigError(f"{key}.{name}: must be a table, got {_describe(table)}")
            missing = [
                f.name for f in dataclasses.fields(kind) if f.default is dataclasses.MISSING and f.name not in table
            ]
            if missing:
                raise ConfigError(f"{key}.{name}: missing {', '.join(missing)}")
            named[name] = _section(f"{key}.{name}", kind, table)
        return MappingProxyType(named)

    return convert


def _named(**entries: Any) -> Mapping[str, Any]:
    """A read-only default table (a frozen config holds no mutable dict)."""
    return MappingProxyType(entries)


@dataclass(frozen=True)
class LightsConfig:
    """The board's tracks on LEDs: each track name (as the game calls it) maps to a bar of
    plain LEDs on GPIO pins, or to a segment of one addressable RGB strip on SPI.  A
    track the game has and the config does not map is shown on the board page only."""

    strip: str = _option("", _spidev_or_empty)
    strip_pixels: int = _option(30, _between(1, 150))
    strip_brightness: float = _option(0.25, _between(0.02, 1.0))
    strip_order: str = _option("GRB", _pixel_order)
    bars: Mapping[str, Bar] = _option(
        _named(threat=Bar((4, 27, 22, 23, 24, 25, 5, 6), "#ff2a1a")), convert=_tables_of(Bar)
    )
    segments: Mapping[str, Segment] = _option(
        _named(order=Segment(0, 5, "#1f4dff"), dark_arts=Segment(5, 6, "#12b83a"), election=Segment(11, 3, "#ffa000")),
        convert=_tables_of(Segment),
    )


@dataclass(frozen=True)
class CameraConfig:
    """Which camera to read, at what resolution and frame rate, and how it is held steady.

    ``lens_position`` is in dioptres (1 / distance in metres) for a module with autofocus
    (Camera Module 3): the default 2.7 focuses at 37 cm, the mount height hardware.md
    gives the standard module; the Wide module at its 21 cm wants 4.8."""

    source: str = _option("auto", _camera_source)
    width: int = _option(1280, _between(160, 4608))
    height: int = _option(720, _between(120, 3456))
    fps: int = _option(10, _between(1, 60))
    mains_hz: int = _option(50, _mains_hz)
    lens_position: float = _option(2.7, _between(0.0, 15.0))


@dataclass(frozen=True)
class AudioConfig:
    """Narration: ALSA device, espeak-ng voice, speed, loudness, and optional WAV copies."""

    device: str = _option("")
    voice: str = _option("en-gb", _not_empty)
    """The espeak-ng voice for English lines (``espeak-ng --voices=en``)."""
    voice_de: str = _option("de", _not_empty)
    """The voice for German lines: a German line is never said with an English voice."""
    rate: int = _option(160, _between(80, 450))
    volume: float = _option(1.0, _between(0.0, 1.0))
    wav_dir: str = _option("")

    def voice_for(self, language: str) -> str:
        """The voice that says a line of ``language``."""
        return self.voice_de if language == "de" else self.voice


@dataclass(frozen=True)
class WebConfig:
    """Where the phones' web page is served, and the address printed in the QR code."""

    host: str = _option("0.0.0.0", _not_empty)
    port: int = _option(8080, _between(1, 65535))
    public_url: str = _option("", _url_or_empty)


AREA = "area"
"""The zone name of a seat's area that is not divided into zones."""
_ZONE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
Box = tuple[float, float, float, float]


def _box(key: str, raw: Any) -> Box:
    """``[left, top, right, bottom]`` as fractions of the camera's frame."""
    if not isinstance(raw, list) or len(raw) != 4 or not all(_is_number(v) for v in raw):
        raise ConfigError(f"{key}: expected [left, top, right, bottom] as fractions of the frame, got {_describe(raw)}")
    left, top, right, bottom = (float(v) for v in raw)
    if not (0.0 <= left < right <= 1.0 and 0.0 <= top < bottom <= 1.0):
        raise ConfigError(f"{key}: needs 0 <= left < right <= 1 and 0 <= top < bottom <= 1, got {raw}")
    return left, top, right, bottom


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _areas(key: str, raw: Any) -> tuple[Mapping[str, Box], ...]:
    """Each seat's area of the table, seats in the table's order: zone name -> its box.
    No two zones may overlap, so every card lies in one zone or none."""
    if not isinstance(raw, list) or not all(isinstance(t, dict) and t for t in raw):
        raise ConfigError(f"{key}: expected a list of tables, one a seat, got {_describe(raw)}")
    areas, placed = [], []
    for seat, table in enumerate(raw):
        zones = {}
        for zone, box in table.items():
            where = f"{key}[{seat}].{zone}"
            if not _ZONE_NAME.match(zone):
                raise ConfigError(f"{where}: a zone name is lower-case letters, digits and _")
            zones[zone] = _box(where, box)
            clash = next((other for other, b in placed if _overlap(b, zones[zone])), None)
            if clash:
                raise ConfigError(f"{where}: overlaps {clash}")
            placed.append((where, zones[zone]))
        if AREA in zones and len(zones) > 1:
            raise ConfigError(f"{key}[{seat}]: {AREA!r} is a whole area: give it alone, or zones without it")
        areas.append(MappingProxyType(zones))
    return tuple(areas)


@dataclass(frozen=True)
class VisionConfig:
    """Reading thresholds and where the taught dice and card catalogues are kept.

    ``confirm_below`` is 0 by default: the readers already report a die or card they
    are not sure of as unsure (thresholds picked on held-out photos, the figures
    ``make bench`` reports), and every unsure reading goes to the host.  A higher
    value also sends sure readings under that confidence to the host, for a table
    that would rather tap more often.

    ``areas`` divides the camera's frame into each seat's part of the table, for games
    that read cards where they lie (Monopoly Deal: each player's Bank and items); see
    :mod:`device.areas` and hardware.md.  Empty: cards belong to no seat."""

    confirm_below: float = _option(0.0, _between(0.0, 1.0))
    dice_dir: Path = _option(Path("dice"))
    card_catalog: Path = _option(Path("cards"))
    areas: tuple[Mapping[str, Box], ...] = _option((), convert=_areas)


@dataclass(frozen=True)
class Config:
    """The whole configuration; ``dataclasses.replace`` makes variants (e.g. the demo's)."""

    box: BoxConfig = field(default_factory=BoxConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    audio: AudioConfig = field(default_factory=AudioConfig)
    web: WebConfig = field(default_factory=WebConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)

    def pin_claims(self) -> list[tuple[str, int]]:
        """Every GPIO pin the box drives, with the key that names it (a strip on SPI0
        claims its bus's pins)."""
        gpio, lights = self.gpio, self.lights
        claims = [(f"lights.bars.{name}.pins", pin) for name, bar in lights.bars.items() for pin in bar.pins]
        claims += [("lights.strip (SPI0)", pin) for pin in SPI0_PINS if lights.strip.startswith("/dev/spidev0.")]
        return claims + [
            ("gpio.status_pin", gpio.status_pin),
            ("gpio.confirm_pin", gpio.confirm_pin),
            ("gpio.undo_pin", gpio.undo_pin),
        ]

    def state_path(self, relative: Path | str) -> Path:
        """Resolves a state path option (e.g. ``vision.dice_dir``) against ``box.state_dir``."""
        return self.box.state_dir / relative


SECTIONS: dict[str, type] = typing.get_type_hints(Config)


def load_config(path: Path | None = None) -> Config:
    """Reads and validates the TOML file; ``None`` means the default path, or all defaults
    when that file does not exist (a laptop, a test)."""
    if path is None:
        if not DEFAULT_PATH.exists():
            return Config()
        path = DEFAULT_PATH
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: {error}") from None
    return config_from_dict(data)


def config_from_dict(data: dict[str, Any]) -> Config:
    """Builds a validated :class:`Config` from parsed TOML (a dict of section tables)."""
    sections = {}
    for name, table in data.items():
        if name not in SECTIONS:
            raise ConfigError(f"{name}: unknown section (known: {', '.join(SECTIONS)})")
        if not isinstance(table, dict):
            raise ConfigError(f"{name}: must be a table ([{name}]), got {_describe(table)}")
        sections[name] = _section(name, SECTIONS[name], table)
    config = Config(**sections)
    _check_distinct_pins(config)
    _check_lights(config.lights)
    return config


def _section(name: str, cls: type, table: dict[str, Any]) -> Any:
    """Converts and checks one ``[section]`` table into its dataclass."""
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in dataclasses.fields(cls)}
    values = {}
    for key, raw in table.items():
        if f"{name}.{key}" in MOVED:
            raise ConfigError(f"{name}.{key}: {MOVED[f'{name}.{key}']}")
        if key not in known:
            raise ConfigError(f"{name}.{key}: unknown key (known: {', '.join(known)})")
        convert = known[key].metadata.get("convert") or (lambda k, r, kind=hints[key]: _convert(k, kind, r))
        value = convert(f"{name}.{key}", raw)
        check = known[key].metadata.get("check")
        if check and (problem := check(value)):
            raise ConfigError(f"{name}.{key}: {problem}")
        values[key] = value
    return cls(**values)


def _convert(key: str, kind: Any, raw: Any) -> Any:
    """Checks a TOML value's type against the field's annotation and converts it."""
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        raise ConfigError(f"{key}: expected true or false, got {_describe(raw)}")
    if kind is int:
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        raise ConfigError(f"{key}: expected an integer, got {_describe(raw)}")
    if kind is float:
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            return float(raw)
        raise ConfigError(f"{key}: expected a number, got {_describe(raw)}")
    if kind in (str, Path):
        if isinstance(raw, str):
            return kind(raw)
        raise ConfigError(f"{key}: expected a string, got {_describe(raw)}")
    if typing.get_origin(kind) is tuple:
        if isinstance(raw, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in raw):
            return tuple(raw)
        raise ConfigError(f"{key}: expected a list of integers, got {_describe(raw)}")
    raise TypeError(f"{key}: no TOML conversion for {kind!r}")  # a programming error


def _describe(raw: Any) -> str:
    """Names a TOML value's type the way the file's author wrote it."""
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list", dict: "a table"}
    return f"{names.get(type(raw), type(raw).__name__)} ({raw!r})"


MOVED = {
    "gpio.track_pins": "moved: each track names its own LEDs now, e.g. "
    '[lights.bars] threat = { pins = [4, 27, ...], colour = "#ff2a1a" }',
}
"""Keys of older files, with where their setting lives now."""


def _check_distinct_pins(config: Config) -> None:
    """One pin can drive one part only; name both keys that claim it."""
    owners: dict[int, list[str]] = {}
    for key, pin in config.pin_claims():
        owners.setdefault(pin, []).append(key)
    for pin, keys in owners.items():
        if len(keys) > 1:
            also = "" if keys[1] == keys[0] else f" (also {keys[1]})"
            raise ConfigError(f"{keys[0]}: pin {pin} is used twice{also}")


def _check_lights(lights: LightsConfig) -> None:
    """Every segment on the strip and clear of the others; every track on one set of LEDs."""
    for name in lights.segments.keys() & lights.bars.keys():
        raise ConfigError(
            f"lights.segments.{name}: track {name!r} is mapped twice (also "
            f"lights.bars.{name}); a track is shown on one set of LEDs"
        )
    taken: dict[int, str] = {}
    for name, seg in lights.segments.items():
        key, span = f"lights.segments.{name}", f"pixels {seg.first}-{seg.first + seg.pixels - 1}"
        if seg.first + seg.pixels > lights.strip_pixels:
            raise ConfigError(
                f"{key}: {span} do not fit on a strip of {lights.strip_pixels} pixels (lights.strip_pixels)"
            )
        for pixel in range(seg.first, seg.first + seg.pixels):
            if pixel in taken:
                raise ConfigError(f"{key}: {span} overlap lights.segments.{taken[pixel]} at pixel {pixel}")
            taken[pixel] = name
