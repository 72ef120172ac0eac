"""Fixtures every room shares: a fresh state directory with a durable table service, and
gpiozero's own MockFactory reset after each test (as gpiozero's own tests do)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from device.outputs import make_pin_factory
from device.store import Store
from device.table_service import TableService


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "familiar.db")
    yield s
    s.close()


@pytest.fixture
def service(store: Store) -> TableService:
    return TableService(store)


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's own MockFactory with PWM pins, exactly what ``box.simulate = true`` uses;
    reset afterwards so no pin state or reservation leaks into the next test."""
    factory = make_pin_factory(simulate=True)
    assert isinstance(factory, MockFactory)
    yield factory
    factory.reset()
