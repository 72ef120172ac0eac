"""Live updates as server-sent events that carry nothing but the table's version.

Every page hears the same number at the same moment whatever changed, then fetches
its *own* view; so the stream can be shared with anyone and tells nobody who was
dealt what, not even by timing.  The stream ends itself after a few minutes (the
browser reconnects after ``retry``) so a phone that slept without closing its
socket frees its server thread.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

MAX_STREAMS = 20
"""Open streams in all, well below the server's worker threads (each stream holds one):
10-12 phones, the host page, the board and a few dead streams not yet noticed fit, and
the remaining threads always answer ordinary requests (32 streams froze the box)."""
MAX_STREAMS_PER_CLIENT = 4
"""A phone needs one; a reload can leave one more until its heartbeat finds it dead."""
MAX_UNKNOWN_STREAMS = 8
"""Streams for pages without a seat or host cookie (the join page, a stranger): the other
slots stay free for the seated phones and the host, whatever strangers do (6 addresses
once held all 20)."""
BUSY_RETRY_MS = 15000
RETRY_MS = 3000
HEARTBEAT_S = 15.0
LIFETIME_S = 300.0
WAKE_S = 1.0  # how soon a stopping server ends streams; a wait this long costs nothing


class StreamSlots:
    """Counts open streams, in all, per client address and for clients nobody knows, to
    keep each under its cap."""

    def __init__(
        self, total: int = MAX_STREAMS, per_client: int = MAX_STREAMS_PER_CLIENT, unknown: int = MAX_UNKNOWN_STREAMS
    ) -> None:
        self.total, self.per_client, self.unknown = total, per_client, unknown
        self._open: Counter[tuple[str, bool]] = Counter()
        self._lock = threading.Lock()

    def held(self) -> int:
        """Streams open now, in all."""
        with self._lock:
            return sum(self._open.values())

    @contextmanager
    def hold(self, client: str, known: bool = False) -> Iterator[bool]:
        """A slot for ``client`` while the block runs (True), or no slot (False); a client
        not ``known`` (no seat or host cookie) only among the first MAX_UNKNOWN_STREAMS."""
        key = (client, known)
        with self._lock:
            unknown = sum(n for (_, k), n in self._open.items() if not k)
            mine = sum(n for (c, _), n in self._open.items() if c == client)
            granted = (
                sum(self._open.values()) < self.total and mine < self.per_client and (known or unknown < self.unknown)
            )
            if granted:
                self._open[key] += 1
        try:
            yield granted
        finally:
            if granted:
                with self._lock:
                    self._open[key] -= 1
                    if not self._open[key]:
                        del self._open[key]


def version_events(
    service: Any,
    stopping: threading.Event,
    slots: StreamSlots,
    client: str,
    *,
    known: bool = False,
    gone: Callable[[], bool] = lambda: False,
    heartbeat: float = HEARTBEAT_S,
    lifetime: float = LIFETIME_S,
) -> Iterator[str]:
    """The SSE body: the version now, then each new version, with comment heartbeats.
    Over the caps, only a retry time and an end: the page polls (its stream "failed")
    and the browser asks for a stream again after BUSY_RETRY_MS.  ``gone`` tells that the
    client has left (waitress's ``client_disconnected``), so a page navigated away frees
    its slot within WAKE_S instead of at the next heartbeat.  ``known``: the client holds
    a seat or is the host (see :class:`StreamSlots`)."""
    with slots.hold(client, known) as granted:
        if not granted:
            yield f"retry: {BUSY_RETRY_MS}\n\n"
            return
        yield from _stream(service, stopping, gone, heartbeat, lifetime)


def _stream(
    service: Any, stopping: threading.Event, gone: Callable[[], bool], heartbeat: float, lifetime: float
) -> Iterator[str]:
    version = service.version
    yield f"retry: {RETRY_MS}\n\ndata: {version}\n\n"
    started = last_sent = time.monotonic()
    while not stopping.is_set():
        now = time.monotonic()
        if now - started >= lifetime:
            return
        wait = min(WAKE_S, heartbeat - (now - last_sent), lifetime - (now - started))
        latest = service.wait_for_change(version, timeout=max(wait, 0.0))
        if stopping.is_set() or gone():
            return
        if latest != version:
            version = latest
            last_sent = time.monotonic()
            yield f"data: {version}\n\n"
        elif time.monotonic() - last_sent >= heartbeat:
            last_sent = time.monotonic()
            yield ": keep-alive\n\n"
