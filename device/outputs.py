"""The box's lights: the board's named tracks on LED bars and strip segments, and a
status LED.

Small wrappers in the style of gpiozero's own composite devices: every pin goes through
gpiozero's pin factory (lgpio on a Pi, ``MockFactory`` when simulating), so the same code
runs on a real table and in tests, and nothing here imports RPi.GPIO or lgpio itself.
The strip (``device/strip.py``) is driven over SPI instead.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from gpiozero import PWMLED, Factory, LEDBarGraph
from gpiozero.pins.mock import MockFactory, MockPWMPin

from device.config import Config
from device.strip import BLINK_SECONDS, StripError, StripLights
from engine.effects import Track

T = TypeVar("T")

# How the status light breathes; slow enough to read across a table, not a strobe.
BREATHE_SECONDS = 1.5


class HardwareError(RuntimeError):
    """The GPIO pins cannot be used; the message says why and how to fix it."""


class SimulatedPin(MockPWMPin):  # type: ignore[misc]
    """gpiozero's mock PWM pin, remembering only its latest ``KEPT`` changes.

    ``MockPin`` records every change (its ``states``, for a test's ``assert_states``);
    the demo's breathing status light changes many times a second for hours, so the
    record grew without end (0.3 MB a minute under ``make load``)."""

    KEPT = 10_000

    def _change_state(self, value: float) -> bool:
        changed: bool = super()._change_state(value)
        if len(self.states) > 2 * self.KEPT:
            del self.states[: -self.KEPT]
        return changed


def make_pin_factory(simulate: bool) -> Factory | None:
    """``MockFactory`` with PWM-capable pins when simulating; ``None`` lets gpiozero pick the
    real factory (GPIOZERO_PIN_FACTORY, lgpio under systemd) on first use."""
    return MockFactory(pin_class=SimulatedPin) if simulate else None


def claim_pins(pins: Sequence[int], build: Callable[[], T]) -> T:
    """Runs a device constructor, turning any pin-level failure into :class:`HardwareError`.

    Pin libraries fail in their own ways (gpiozero's BadPinFactory / PinUnsupported,
    ``lgpio.error`` for a busy or missing gpiochip, ``PermissionError`` without the gpio
    group), and each one means the same thing to the person at the box.
    """
    try:
        return build()
    except Exception as cause:  # noqa: BLE001 - see docstring: every cause gets the same advice
        listed = ", ".join(str(pin) for pin in pins)
        raise HardwareError(
            f"cannot use GPIO pins {listed}: {type(cause).__name__}: {cause}; on a Pi add the "
            "user to the gpio group, or set box.simulate = true to run on simulated pins"
        ) from cause


def led_count(value: int, length: int, leds: int) -> int:
    """LEDs to light for a track position: one per space when the LEDs are enough,
    else scaled so that the last space always lights them all."""
    if length <= leds:
        return min(value, leds)
    return math.ceil(value * leds / length)


class TrackLights:
    """A track of N spaces as an LED bar: ``show(k)`` lights LEDs 1..k (0 = at the start)."""

    def __init__(self, pins: Sequence[int], *, colour: str | None = None, pin_factory: Factory | None = None) -> None:
        self._bar = LEDBarGraph(*pins, pin_factory=pin_factory)
        self.colour = colour
        self._value = 0
        self._attention = False

    @property
    def length(self) -> int:
        """Number of LEDs (spaces after the start space)."""
        return len(self._bar)

    def show(self, value: int, attention: bool = False) -> None:
        """Lights LEDs 1..value; ``attention`` blinks LED ``value`` (the current space, e.g.
        the Threat Track's penalty space). At value 0 there is no LED to blink."""
        if not 0 <= value <= self.length:
            raise ValueError(f"track value must be between 0 and {self.length}, got {value}")
        if (value, attention and value > 0) == (self._value, self._attention):
            return  # unchanged: a running blink keeps its rhythm
        self._bar.value = value / self.length  # also stops any earlier blink
        if attention and value:
            self._bar[value - 1].blink(on_time=BLINK_SECONDS, off_time=BLINK_SECONDS)
        self._value, self._attention = value, attention and value > 0

    def snapshot(self) -> dict[str, Any]:
        """What the LEDs show right now, read back from the pins (for the virtual board);
        the blinking LED counts as lit, whichever half of its blink the pin is in."""
        blinking = self._value - 1 if self._attention else None
        return {
            "lit": [bool(led.is_lit) or i == blinking for i, led in enumerate(self._bar)],
            "value": self._value,
            "attention": self._attention,
            "colour": self.colour,
            "blinking": blinking,
        }

    def close(self) -> None:
        """Releases the pins (turning the LEDs off)."""
        self._bar.close()


class StatusLight:
    """One PWM LED telling the table what the box needs: breathing, steady or blinking."""

    def __init__(self, pin: int, *, pin_factory: Factory | None = None) -> None:
        self._led = PWMLED(pin, pin_factory=pin_factory)
        self._mode = "off"

    def waiting(self) -> None:
        """Slow breathing: the box is waiting for the table (a roll, a card, a player)."""
        self._led.pulse(fade_in_time=BREATHE_SECONDS, fade_out_time=BREATHE_SECONDS)
        self._mode = "waiting"

    def ready(self) -> None:
        """Steady on: everything is fine and nothing is awaited."""
        self._led.on()
        self._mode = "ready"

    def attention(self) -> None:
        """Blinking: the host must look at the page (a reading to confirm, a problem)."""
        self._led.blink(on_time=BLINK_SECONDS, off_time=BLINK_SECONDS)
        self._mode = "attention"

    def off(self) -> None:
        """Dark: the box is stopping."""
        self._led.off()
        self._mode = "off"

    def snapshot(self) -> dict[str, Any]:
        """The current mode and the LED's real brightness (0..1) read back from the pin."""
        return {"mode": self._mode, "brightness": round(float(self._led.value), 3)}

    def close(self) -> None:
        """Releases the pin."""
        self._led.close()


class Outputs:
    """All the box's lights: LED bars and strip segments by track name, and the status LED.

    A game's track goes to the LEDs the config names for it; a track without LEDs of its
    own takes LEDs this game leaves idle (so a game whose track is not called "threat"
    still lights the bar), and the tracks that do not fit are on the board page only.
    """

    def __init__(self, bars: Mapping[str, TrackLights], strip: StripLights | None, status: StatusLight) -> None:
        self.bars = dict(bars)
        self.strip = strip
        self.status = status
        self._lock = threading.Lock()
        self._tracks: dict[str, Track] = {}
        self._placed: dict[str, str] = {}

    @classmethod
    def from_config(cls, config: Config, pin_factory: Factory | None = None) -> Outputs:
        """Claims the bars' and status pins and opens the strip, or raises
        :class:`HardwareError` with the fix (releasing whatever was claimed)."""
        built: list[Any] = []
        try:
            bars = {}
            for name, bar in config.lights.bars.items():
                bars[name] = claim_pins(
                    bar.pins, lambda bar=bar: TrackLights(bar.pins, colour=bar.colour, pin_factory=pin_factory)
                )
                built.append(bars[name])
            status = claim_pins(
                [config.gpio.status_pin], lambda: StatusLight(config.gpio.status_pin, pin_factory=pin_factory)
            )
            built.append(status)
            try:
                strip = StripLights.from_config(config.lights, config.box.simulate)
            except StripError as error:
                raise HardwareError(str(error)) from error
        except HardwareError:
            for device in reversed(built):
                device.close()
            raise
        return cls(bars, strip, status)

    @property
    def pin_factory(self) -> Factory:
        """The factory the pins really came from (gpiozero picks it when given None), so the
        buttons can share it and a simulated box's pins can be driven."""
        return self.status._led.pin_factory

    @property
    def problem(self) -> str | None:
        """Why the strip is not showing the board right now (a failing SPI write), if so."""
        return self.strip.problem if self.strip is not None else None

    def _leds(self) -> dict[str, tuple[str, int]]:
        """Every set of track LEDs by name: its kind and how many LEDs it has."""
        leds = {name: ("bar", bar.length) for name, bar in self.bars.items()}
        if self.strip is not None:
            leds.update({name: ("strip", self.strip.length(name)) for name in self.strip.segments})
        return leds

    def show(self, tracks: Mapping[str, Track]) -> None:
        """Lights every track that fits, from the game's state (so undo and restarts
        restore the board); LEDs this game does not use go dark."""
        leds = self._leds()
        with self._lock:
            self._tracks, self._placed = dict(tracks), place(list(tracks), list(leds))
            used = {output: track for track, output in self._placed.items()}
            for output, (kind, count) in leds.items():
                track = tracks.get(used[output]) if output in used else None
                value = led_count(track.value, track.length, count) if track else 0
                attention = bool(track and track.attention)
                if kind == "bar":
                    self.bars[output].show(value, attention)
                else:
                    self.strip.show(output, value, attention)

    def snapshot(self) -> dict[str, Any]:
        """Every track of the game (and every idle set of LEDs) as the virtual board shows
        it: ``on`` says where (``"bar"``, ``"strip"`` or ``None``: the page only)."""
        leds = self._leds()
        with self._lock:
            tracks, placed = dict(self._tracks), dict(self._placed)
        shown: dict[str, Any] = {}
        for name, track in tracks.items():
            where = placed.get(name)
            lights = self._lit(where) if where else _unlit(track)
            kind = leds[where][0] if where else None
            shown[name] = {
                **lights,
                "value": track.value,
                "length": track.length,
                "attention": track.attention,
                "on": kind,
                "leds": where,
            }
        for output, (kind, _) in leds.items():
            if output not in placed.values() and output not in shown:
                shown[output] = {
                    **self._lit(output),
                    "length": leds[output][1],
                    "on": kind,
                    "leds": output,
                    "idle": True,
                }
        return {"tracks": shown, "status": self.status.snapshot()}

    def _lit(self, output: str) -> dict[str, Any]:
        return self.bars[output].snapshot() if output in self.bars else self.strip.snapshot(output)

    def close(self) -> None:
        """Releases every pin and the strip (turning the LEDs off)."""
        self.status.close()
        for bar in self.bars.values():
            bar.close()
        if self.strip is not None:
            self.strip.close()


def place(tracks: Sequence[str], leds: Sequence[str]) -> dict[str, str]:
    """Which LEDs show which track: a track's own LEDs by name first, then each track
    without LEDs takes the next set this game leaves idle, in config order."""
    placed = {name: name for name in tracks if name in leds}
    idle = [name for name in leds if name not in placed]
    for name in tracks:
        if name not in placed and idle:
            placed[name] = idle.pop(0)
    return placed


def _unlit(track: Track) -> dict[str, Any]:
    """A track with no LEDs of its own, drawn on the page one space per LED."""
    blinking = track.value - 1 if track.attention and track.value else None
    return {"lit": [i < track.value for i in range(track.length)], "colour": None, "blinking": blinking}
