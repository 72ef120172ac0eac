"""Shared fixtures for the device tests: a fresh simulated pin factory per test.

Imported by tests/conftest.py (``from tests.conftest_device import *``) or directly.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from device.outputs import make_pin_factory


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's own MockFactory with PWM pins, exactly what ``box.simulate = true`` uses;
    reset afterwards so no pin state or reservation leaks into the next test."""
    factory = make_pin_factory(simulate=True)
    assert isinstance(factory, MockFactory)
    yield factory
    factory.reset()


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Polls ``condition`` until it holds; used for background threads (blink, pulse,
    button callbacks) so tests check behaviour, never speed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return condition()
