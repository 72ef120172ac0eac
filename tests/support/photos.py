"""The copied real tray photos the dice tests read, or paste a rendered symbol die
into (the die itself and its measurement live in ``bench/taught_dice.py``).

Named test_dice_* only because that is the file pattern this part owns; it holds no
tests itself.
"""

from __future__ import annotations

import cv2
import numpy as np

from bench.dice import Label, load_labels
from device.cli import DEMO_PHOTOS
from support import DATA

TESTS_DATA = DATA


def local_photos(folder: str) -> dict[str, tuple[np.ndarray, list[Label]]]:
    """The few copied photos in ``tests/data/<folder>`` (``"tray"``: the demo's photos,
    ``device/demo_tray``) with their labels, fixed like the benchmark's, whatever their split."""
    root = DEMO_PHOTOS if folder == "tray" else TESTS_DATA / folder
    labels = {**load_labels(root, "train"), **load_labels(root, "test")}
    return {name: (cv2.imread(str(root / name)), labs) for name, labs in sorted(labels.items())}
