"""Fixtures of the reader tests."""

from __future__ import annotations

import pytest

from support.cards import ENROLL, LABELS, photo
from vision.cards import Catalog


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The green-1 and red-2 cards taught from their enrol photos (18 cards)."""
    catalog = Catalog(tmp_path_factory.mktemp("deck") / "set")
    for img in ENROLL:
        catalog.enroll_grid(photo(img), 3, 3, LABELS[img][1])
    return catalog
