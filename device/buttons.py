"""The box's two buttons: confirm/next, and undo (held: repeat the last spoken line).

Undo acts on *release*, not on press: only when the button comes back up do we know
whether it was a short press (undo) or a hold (repeat), and a hold must never also
undo a move at the table.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from gpiozero import Button, Factory

from device.config import GpioConfig
from device.outputs import claim_pins

log = logging.getLogger(__name__)

# Contact bounce of a cheap tactile switch settles within a few milliseconds.
BOUNCE_SECONDS = 0.02

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


class Buttons:
    """Confirm (acts on press) and undo (press = undo, held ``hold_seconds`` = repeat)."""

    def __init__(
        self,
        confirm_pin: int,
        undo_pin: int,
        *,
        on_confirm: Action,
        on_undo: Action,
        on_repeat: Action,
        hold_seconds: float = 1.0,
        pin_factory: Factory | None = None,
    ) -> None:
        self._on_undo = _guarded("undo", on_undo)
        self._on_repeat = _guarded("undo (held)", on_repeat)
        self._held = threading.Event()
        self.confirm = claim_pins([confirm_pin], lambda: Button(
            confirm_pin, bounce_time=BOUNCE_SECONDS, pin_factory=pin_factory))
        try:
            self.undo = claim_pins([undo_pin], lambda: Button(
                undo_pin, bounce_time=BOUNCE_SECONDS, hold_time=hold_seconds,
                pin_factory=pin_factory))
        except Exception:
            self.confirm.close()
            raise
        self.confirm.when_pressed = _guarded("confirm", on_confirm)
        self.undo.when_pressed = self._held.clear
        self.undo.when_held = self._undo_held
        self.undo.when_released = self._undo_released

    @classmethod
    def from_config(
        cls, gpio: GpioConfig, *, on_confirm: Action, on_undo: Action, on_repeat: Action,
        pin_factory: Factory | None = None,
    ) -> Buttons:
        """Both buttons on the ``[gpio]`` pins; raises ``HardwareError`` with the fix."""
        return cls(gpio.confirm_pin, gpio.undo_pin, on_confirm=on_confirm, on_undo=on_undo,
                   on_repeat=on_repeat, hold_seconds=gpio.hold_seconds, pin_factory=pin_factory)

    def _undo_held(self) -> None:
        self._held.set()
        self._on_repeat()

    def _undo_released(self) -> None:
        if not self._held.is_set():
            self._on_undo()
        self._held.clear()

    def close(self) -> None:
        """Releases both pins."""
        self.undo.close()
        self.confirm.close()
