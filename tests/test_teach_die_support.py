"""The few copied tray photos the taught-die tests paste the rendered die into.

The die itself and the measurement live in ``bench/taught_dice.py``.  Named
test_teach_die_* to sit beside its tests; it holds no tests itself.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bench.dice import Label, load_labels

TESTS_DATA = Path(__file__).resolve().parent / "data"


def local_photos(folder: str) -> dict[str, tuple[np.ndarray, list[Label]]]:
    """The few copied photos in ``tests/data/<folder>`` (for the tests), whatever their split."""
    root = TESTS_DATA / folder
    labels = {**load_labels(root, "train"), **load_labels(root, "test")}
    return {name: (cv2.imread(str(root / name)), labs) for name, labs in sorted(labels.items())}
