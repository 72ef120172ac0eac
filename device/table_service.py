"""The box's one table: the pure engine table, made durable and observable.

Every change goes through :meth:`TableService.submit` (or :meth:`undo`): the action
is checked against the rules, appended to the SQLite log, and only then adopted
and its effects handed to the listeners (speaker, LEDs).  Pages learn of changes
through a version counter; each page then fetches its *own* view, so the shared
change signal never carries anybody's secret, and every seat is signalled at the
same moment whatever changed (no timing tells who was dealt what).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from device.store import SeatTaken, Store
from engine import timers as timing
from engine.actions import Action, IllegalAction
from engine.effects import Effect, Notice, Say
from engine.table import NEW, UNDO, Entry, GameFault, UndoNeedsConfirmation, replay

Listener = Callable[[list[Effect]], None]
log = logging.getLogger("familiar")

NOTICES = 20


def new_token() -> str:
    """A 256-bit random token for a seat or the host, URL- and cookie-safe."""
    return secrets.token_urlsafe(32)


class TableService:
    """Thread-safe owner of the table, the log and the seat claims."""

    def __init__(self, store: Store, games: dict | None = None) -> None:
        self.store = store
        self.games = games
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._listeners: list[Listener] = []
        self.version = 0
        self.notices: deque[str] = deque(maxlen=NOTICES)
        self._pairing_until = 0.0
        self.clock: Callable[[], float] = time.time
        """Wall time for the log and the timers (the timer thread reads it too)."""
        self._load(self.store.entries())

    def _load(self, entries: list[Entry]) -> None:
        """Replay the log: this is crash recovery."""
        self.table = replay(entries, self.games)

    @property
    def game_seq(self) -> int:
        """The log position of the current game's start: seat claims belong to it."""
        return self.table.game_seq

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(effects)`` after each accepted change (in order, one at a time)."""
        self._listeners.append(listener)

    # Changing the table

    def submit(self, action: Action) -> list[Effect]:
        """Check, persist, adopt, then announce one action; IllegalAction changes nothing."""
        with self._lock:
            seed = secrets.randbits(63) if action.kind == NEW else 0
            at = self.clock()  # one moment for the rules and the log: timers fold from it
            try:
                outcome = self.table.attempt(action, seed, at)
            except GameFault as fault:
                log.error("a game fault on %s (refused, nothing changed):\n%s", action.kind, fault.trace)
                raise
            entry = self.store.append(action, seed, at)
            self.table.commit(outcome, entry)
            self._changed_with(outcome.effects)
            return outcome.effects

    def undo_warning(self) -> str | None:
        """What undoing now would take back from phones (see ``Table.undo_warning``)."""
        with self._lock:
            return self.table.undo_warning()

    def undo(self, confirmed: bool = False) -> list[Effect]:
        """Take back the last action.  One that showed a secret on a phone is undone only
        when the host confirms, having been told who saw what."""
        with self._lock:
            if not self.table.kept:
                raise IllegalAction("there is nothing to undo")
            warning = self.table.undo_warning()
            if warning and not confirmed:
                raise UndoNeedsConfirmation(warning)
            self.store.append(Action(UNDO), 0)
            self.table.undo()
            effects: list[Effect] = [Say("Undone.")]
            self._changed_with(effects)
            return effects

    def note(self, text: str, speak: bool = False) -> None:
        """Tell the host something (and the table, if ``speak``): warnings, degraded parts."""
        with self._lock:
            self._changed_with([Notice(text), *([Say(text)] if speak else [])])

    def touch(self) -> None:
        """Wake every page without changing the table: something a page shows beside
        the table changed (a reading parked for the host, or dropped by it)."""
        with self._lock:
            self.version += 1
            self._changed.notify_all()

    def _changed_with(self, effects: list[Effect]) -> None:
        self.notices.extend(e.text for e in effects if isinstance(e, Notice))
        self.version += 1
        self._changed.notify_all()
        for listener in self._listeners:
            listener(effects)

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until the version passes ``since`` (or timeout); returns the version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != since, timeout=timeout)
            return self.version

    # Reading the table

    def public_view(self) -> dict[str, Any]:
        with self._lock:
            view = self.table.public_view()
            claimed = self.store.claimed(self.game_seq)
            view["claimed"] = [i in claimed for i in range(len(view["seats"]))]
            view["notices"] = list(self.notices)
            view["timers"] = timing.shown(self.table.current.timers, self.clock())
            view["version"] = self.version
            return view

    def timers(self) -> timing.Timers:
        """The table's timers now (each frozen), read under the lock for the timer thread."""
        with self._lock:
            return dict(self.table.current.timers)

    def private_view(self, seat: int) -> dict[str, Any]:
        with self._lock:
            view = self.table.private_view(seat)
            view["version"] = self.version
            return view

    # Seats and host

    def claim_seat(self, seat: int) -> str:
        """Give the caller ``seat`` and return its new token (SeatTaken if it is not free)."""
        with self._lock:
            seats = self.table.current.seats
            if not 0 <= seat < len(seats):
                raise IllegalAction(f"there is no seat {seat}")
            token = new_token()
            self.store.claim(self.game_seq, seat, token)
            self._changed_with([])
            return token

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        with self._lock:
            return self.store.seat_of(self.game_seq, token)

    def reset_seat(self, seat: int) -> None:
        """A lost phone: free the seat, kill the old token, and say so aloud."""
        with self._lock:
            seats = self.table.current.seats
            if not 0 <= seat < len(seats):
                raise IllegalAction(f"there is no seat {seat}")
            if not self.store.release(self.game_seq, seat):
                raise IllegalAction(f"{seats[seat]}'s seat has no phone to reset")
            self._changed_with([Say(f"{seats[seat]}'s seat was reset. {seats[seat]}, join again from your phone.")])

    def open_host_pairing(self, seconds: float = 60.0) -> None:
        """The box's button was pressed: for a minute, a new device may become host."""
        with self._lock:
            self._pairing_until = time.monotonic() + seconds
            self._changed_with([Say("Open the host page on the new device now.")])

    def claim_host(self) -> str:
        """Make the caller host: free when there is none, else only while pairing is open."""
        with self._lock:
            if self.store.has_host() and time.monotonic() > self._pairing_until:
                raise PermissionError("this box already has a host: press the box's confirm button, then try again")
            token = new_token()
            self.store.set_host(token)
            self._pairing_until = 0.0
            return token

    def is_host(self, token: str | None) -> bool:
        return bool(token) and self.store.host_matches(token)


__all__ = ["TableService", "SeatTaken", "UndoNeedsConfirmation", "new_token"]
