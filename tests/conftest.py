"""Shared fixtures: a fresh state directory and a durable table service per test."""
from __future__ import annotations

from pathlib import Path

import pytest

from device.store import Store
from device.table_service import TableService

DATA = Path(__file__).parent / "data"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "familiar.db")
    yield s
    s.close()


@pytest.fixture
def service(store: Store) -> TableService:
    return TableService(store)
