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
from collections.abc import Iterator
from typing import Any

RETRY_MS = 3000
HEARTBEAT_S = 15.0
LIFETIME_S = 300.0
WAKE_S = 1.0  # how soon a stopping server ends streams; a wait this long costs nothing


def version_events(
    service: Any,
    stopping: threading.Event,
    *,
    heartbeat: float = HEARTBEAT_S,
    lifetime: float = LIFETIME_S,
) -> Iterator[str]:
    """The SSE body: the version now, then each new version, with comment heartbeats."""
    version = service.version
    yield f"retry: {RETRY_MS}\n\ndata: {version}\n\n"
    started = last_sent = time.monotonic()
    while not stopping.is_set():
        now = time.monotonic()
        if now - started >= lifetime:
            return
        wait = min(WAKE_S, heartbeat - (now - last_sent), lifetime - (now - started))
        latest = service.wait_for_change(version, timeout=max(wait, 0.0))
        if stopping.is_set():
            return
        if latest != version:
            version = latest
            last_sent = time.monotonic()
            yield f"data: {version}\n\n"
        elif time.monotonic() - last_sent >= heartbeat:
            last_sent = time.monotonic()
            yield ": keep-alive\n\n"
