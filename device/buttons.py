"""The box's two buttons, each with a tap action and a hold action.

- confirm: tap = confirm / next; held ``hold_seconds`` = open host pairing (optional)
- undo: tap = undo the last action; held = repeat the last spoken line

A tap acts on *release*: only when the button comes back up is it known whether it was
a tap or a hold, and a hold must never also undo (or confirm) a move at the table.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from gpiozero import Button, Factory

from device.config import GpioConfig
from device.outputs import claim_pins

log = logging.getLogger(__name__)

# Contact bounce of a cheap tactile switch settles within a few milliseconds.
BOUNCE_SECONDS = 0.02
# How long a simulated tap keeps the pin low: well above bounce, well below a hold.
TAP_SECONDS = 0.05

Action = Callable[[], None]


def _guarded(name: str, action: Action) -> Action:
    """Runs a callback on gpiozero's thread, logging instead of losing an exception:
    one failing handler must not leave the button dead for the rest of the game."""

    def run() -> None:
        try:
            action()
        except Exception:  # noqa: BLE001 - logged, the button keeps working
            log.exception("the %s button's handler failed", name)

    return run


class TapOrHold:
    """One gpiozero ``Button`` telling a tap (fires on release) from a hold (fires once
    ``hold_seconds`` have passed, and then nothing fires on release)."""

    def __init__(
        self,
        name: str,
        pin: int,
        hold_seconds: float,
        on_tap: Action,
        on_hold: Action | None,
        pin_factory: Factory | None,
    ) -> None:
        self.name = name
        self.button = claim_pins(
            [pin], lambda: Button(pin, bounce_time=BOUNCE_SECONDS, hold_time=hold_seconds, pin_factory=pin_factory)
        )
        self._held = threading.Event()
        self._on_tap = _guarded(name, on_tap)
        self._on_hold = _guarded(f"{name} (held)", on_hold) if on_hold else None
        self.button.when_pressed = self._held.clear
        self.button.when_held = self._hold
        self.button.when_released = self._release

    def _hold(self) -> None:
        self._held.set()
        if self._on_hold is not None:
            self._on_hold()

    def _release(self) -> None:
        if not self._held.is_set():
            self._on_tap()
        self._held.clear()

    def simulate(self, hold: bool) -> None:
        """Presses a simulated (MockFactory) button for a tap or a hold, through the same
        pin events as a real press; blocks for the hold time when ``hold``."""
        pin = self.button.pin
        if not hasattr(pin, "drive_low"):
            raise RuntimeError(f"the {self.name} button is a real button: press it on the box")
        pin.drive_low()
        time.sleep(self.button.hold_time + 0.2 if hold else TAP_SECONDS)
        pin.drive_high()

    def close(self) -> None:
        self.button.close()


class Buttons:
    """Confirm and undo, on the ``[gpio]`` pins (wired to ground; internal pull-ups)."""

    def __init__(
        self,
        gpio: GpioConfig,
        *,
        on_confirm: Action,
        on_undo: Action,
        on_undo_hold: Action,
        on_confirm_hold: Action | None = None,
        pin_factory: Factory | None = None,
    ) -> None:
        """Claims both pins or raises ``HardwareError`` with the fix."""
        self.confirm = TapOrHold(
            "confirm", gpio.confirm_pin, gpio.hold_seconds, on_confirm, on_confirm_hold, pin_factory
        )
        try:
            self.undo = TapOrHold("undo", gpio.undo_pin, gpio.hold_seconds, on_undo, on_undo_hold, pin_factory)
        except Exception:
            self.confirm.close()
            raise

    def simulate(self, button: str) -> None:
        """The virtual board's buttons: "confirm", "confirm-hold", "undo" or "undo-hold"."""
        name, _, hold = button.partition("-")
        if name not in ("confirm", "undo") or hold not in ("", "hold"):
            raise ValueError(f"no such button: {button!r}")
        getattr(self, name).simulate(hold=bool(hold))

    def close(self) -> None:
        """Releases both pins."""
        self.undo.close()
        self.confirm.close()
