"""Frames for teaching a symbol die: real tray photos emptied of their dice with the
rendered Clue-like die of ``bench/taught_dice.py`` pasted in, alone or among pipped dice."""

from __future__ import annotations

import numpy as np

from bench.taught_dice import camera_finish, empty_tray, paste_die, random_look
from support.photos import local_photos

TRAYS = local_photos("tray")
ROLLS = local_photos("dice")
FULL_TRAY, TRAY_LABELS = TRAYS["IMG_20191208_111904.jpg"]
EMPTY = empty_tray(FULL_TRAY, TRAY_LABELS)


def shot(face: str, seed: int) -> np.ndarray:
    """The die alone in the emptied tray, a new place, turn and light each seed."""
    rng = np.random.default_rng(seed)
    return camera_finish(paste_die(EMPTY, face, random_look(rng, [], EMPTY.shape[0])), rng)


def roll_with(face: str, seed: int) -> tuple[np.ndarray, float, float]:
    """A real photo of pipped dice with the die among them; and where the die lies."""
    frame, labels = ROLLS["IMG_20191208_111328.jpg"]
    rng = np.random.default_rng(seed)
    look = random_look(rng, labels, frame.shape[0])
    return camera_finish(paste_die(frame, face, look), rng), look.x, look.y
