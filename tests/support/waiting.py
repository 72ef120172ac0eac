"""Waiting for background threads (blink, pulse, button callbacks, the daemon's camera
and narrator), so tests check behaviour, never speed."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

LATE_S = 0.4
"""How late a background thread may wake: the narrator's lines and pauses are timed by
its own thread, which a loaded machine wakes late (0.26 s seen with a load average of
20 on 2 cores)."""


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Polls ``condition`` until it holds; used for background threads (blink, pulse,
    button callbacks) so tests check behaviour, never speed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return condition()


def wait_for(predicate: Callable[[], T], timeout: float = 30.0) -> T:
    """``predicate``'s first true value, or an AssertionError after ``timeout`` seconds."""
    found: list[T] = []
    if not wait_until(lambda: bool(found.append(predicate()) or found[-1]), timeout):
        raise AssertionError(f"timed out after {timeout} s")
    return found[-1]
