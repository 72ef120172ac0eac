"""Tells systemd how the box is doing (``Type=notify`` with a watchdog).

A tiny class in the style of piwheels' ``systemd.py``: one small method per message, over
the ``sdnotify`` package. Outside systemd (``NOTIFY_SOCKET`` unset: a laptop, the demo,
tests) every method is a no-op, so the daemon calls them unconditionally.
"""

from __future__ import annotations

import os

import sdnotify


class Notifier:
    """sd_notify messages for the unit in ``systemd/familiar.service``."""

    def __init__(self) -> None:
        self._notifier = sdnotify.SystemdNotifier() if os.environ.get("NOTIFY_SOCKET") else None

    @property
    def available(self) -> bool:
        """True when systemd is listening (the box runs as a ``Type=notify`` service)."""
        return self._notifier is not None

    def notify(self, state: str) -> None:
        """Sends one raw sd_notify message (``KEY=value`` lines); ignored outside systemd."""
        if self._notifier is not None:
            self._notifier.notify(state)

    def ready(self) -> None:
        """Start-up finished: systemd marks the unit active and starts the watchdog clock."""
        self.notify("READY=1")

    def watchdog_ping(self) -> None:
        """The main loop is alive; must come at least every ``watchdog_period()`` seconds."""
        self.notify("WATCHDOG=1")

    def status(self, text: str) -> None:
        """One line shown by ``systemctl status familiar`` (e.g. "waiting for a roll")."""
        self.notify("STATUS=" + " ".join(text.split()))

    def stopping(self) -> None:
        """Shutting down on purpose, so systemd does not count it as a failure."""
        self.notify("STOPPING=1")

    def watchdog_period(self) -> float | None:
        """``WatchdogSec`` in seconds as systemd passed it (``WATCHDOG_USEC``), or None when
        no watchdog applies to this process. Ping at half this period."""
        usec = os.environ.get("WATCHDOG_USEC")
        pid = os.environ.get("WATCHDOG_PID")
        if not usec or (pid and pid != str(os.getpid())):
            return None
        try:
            return int(usec) / 1_000_000
        except ValueError:
            return None
