"""Which of the box's threads have reported in lately, for systemd's watchdog.

systemd restarts the box when the main loop stops pinging (``WatchdogSec``); a main loop
that pings regardless would keep a box alive whose camera thread died or hangs inside a
driver call. So each watched thread beats, and the main loop pings only while every
thread beat within its own limit: a thread that stops beating stops the pings, and
systemd restarts the service.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Heartbeats:
    """The last beat of each watched thread, and how long each may stay silent."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._limits: dict[str, float] = {}

    def expect(self, name: str, within_s: float) -> None:
        """Watch ``name`` from now on: it must beat at least every ``within_s`` seconds."""
        with self._lock:
            self._limits[name] = within_s
            self._last[name] = self._clock()

    def beat(self, name: str) -> None:
        """``name`` is alive and making progress."""
        with self._lock:
            self._last[name] = self._clock()

    def stalled(self) -> dict[str, float]:
        """The watched threads silent for longer than their limit, with their silence (s)."""
        now = self._clock()
        with self._lock:
            silent = {name: now - self._last[name] for name in self._limits}
            return {name: s for name, s in silent.items() if s > self._limits[name]}
