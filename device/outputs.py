"""The box's lights: an LED bar for a track (e.g. the Threat Track) and a status LED.

Small wrappers in the style of gpiozero's own composite devices: every pin goes through
gpiozero's pin factory (lgpio on a Pi, ``MockFactory`` when simulating), so the same code
runs on a real table and in tests, and nothing here imports RPi.GPIO or lgpio itself.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from gpiozero import Factory, LEDBarGraph, PWMLED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from device.config import GpioConfig

T = TypeVar("T")

# How the status light looks; slow enough to read across a table, not a strobe.
BREATHE_SECONDS = 1.5
BLINK_SECONDS = 0.3


class HardwareError(RuntimeError):
    """The GPIO pins cannot be used; the message says why and how to fix it."""


def make_pin_factory(simulate: bool) -> Factory | None:
    """``MockFactory`` with PWM-capable pins when simulating; ``None`` lets gpiozero pick the
    real factory (GPIOZERO_PIN_FACTORY, lgpio under systemd) on first use."""
    return MockFactory(pin_class=MockPWMPin) if simulate else None


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


class TrackLights:
    """A track of N spaces as an LED bar: ``show(k)`` lights LEDs 1..k (0 = at the start)."""

    def __init__(self, pins: Sequence[int], *, pin_factory: Factory | None = None) -> None:
        self._bar = LEDBarGraph(*pins, pin_factory=pin_factory)
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
        self._bar.value = value / self.length  # also stops any earlier blink
        if attention and value:
            self._bar[value - 1].blink(on_time=BLINK_SECONDS, off_time=BLINK_SECONDS)
        self._value, self._attention = value, attention and value > 0

    def snapshot(self) -> dict[str, Any]:
        """What the LEDs show right now, read back from the pins (for the virtual board)."""
        return {
            "lit": [bool(led.is_lit) for led in self._bar],
            "value": self._value,
            "attention": self._attention,
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
    """All the box's lights, built from the ``[gpio]`` section."""

    def __init__(self, track: TrackLights, status: StatusLight) -> None:
        self.track = track
        self.status = status

    @classmethod
    def from_config(cls, gpio: GpioConfig, pin_factory: Factory | None = None) -> Outputs:
        """Claims the track and status pins, or raises :class:`HardwareError` with the fix."""
        track = claim_pins(gpio.track_pins,
                           lambda: TrackLights(gpio.track_pins, pin_factory=pin_factory))
        try:
            status = claim_pins([gpio.status_pin],
                                lambda: StatusLight(gpio.status_pin, pin_factory=pin_factory))
        except HardwareError:
            track.close()
            raise
        return cls(track, status)

    @property
    def pin_factory(self) -> Factory:
        """The factory the pins really came from (gpiozero picks it when given None), so the
        buttons can share it and a simulated box's pins can be driven."""
        return self.track._bar.pin_factory

    def snapshot(self) -> dict[str, Any]:
        """Both lights as the virtual board shows them."""
        return {"track": self.track.snapshot(), "status": self.status.snapshot()}

    def close(self) -> None:
        """Releases every pin."""
        self.status.close()
        self.track.close()
