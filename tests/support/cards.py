"""The card photos (tests/data/cards: five SET photos from the cards-set, Apache-2.0) and
their labels."""

from __future__ import annotations

import cv2
import numpy as np

from bench.cards import load_labels
from support import DATA as TEST_DATA

DATA = TEST_DATA / "cards"
LABELS: dict[str, tuple[str, list[str]]] = load_labels(DATA)
"""image -> (use, 9 names row-major)."""
ENROLL = sorted(img for img, (use, _) in LABELS.items() if use == "enroll")
TEST = sorted(img for img, (use, _) in LABELS.items() if use == "test")


def photo(name: str) -> np.ndarray:
    return cv2.imread(str(DATA / "images" / name))
