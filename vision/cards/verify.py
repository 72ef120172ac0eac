"""The last look before a card is named: does it show anything its taught card lacks?

The whole-card descriptor (:mod:`vision.cards.describe`) sums a card up on coarse
grids, which tells SET cards apart (they differ in whole shapes) but not a four of
hearts from a five: one pip is a small part of a coarse grid.  Here the card's ink map
(ink relative to the local paper, so lamps and shadows divide out) is laid over its
taught card's, and the card is refused when some patch of it, the size of a small
printed mark, differs clearly: a pip more or less, another picture, another card lying
over part of it.  A card that passes has the same marks in the same places.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.describe import prepare, tint_map

INK_BLUR = 1.5
"""Blur (sigma, description pixels) of both ink maps before comparing them: the corners
of a found card are a pixel or two off, and a photo is softer than the taught card."""
INK_DIFFERENCE = 0.4
"""Ink level (0-1) by which a pixel of the card must differ from the taught card's to
count as different."""
MAX_PATCH = 0.006
"""Largest patch of different pixels, as a fraction of the card, that a photo of the
card itself shows (compression, a sleeve's sheen, a corner a little off); a playing
card's pip covers over 1%."""


def ink(card: np.ndarray) -> np.ndarray:
    """A straightened card's ink map, blurred, for :func:`differs`."""
    tint, _ = tint_map(prepare(card)[0])
    return cv2.GaussianBlur(tint, (0, 0), INK_BLUR)


def differs(card: np.ndarray, taught: np.ndarray) -> bool:
    """True when the ink map ``card`` shows a patch larger than MAX_PATCH that the
    taught card's ink map ``taught`` does not (or the other way round)."""
    return difference(card, taught) > MAX_PATCH


def difference(card: np.ndarray, taught: np.ndarray) -> float:
    """The largest patch where two ink maps differ, as a fraction of the card."""
    different = (np.abs(card - taught) > INK_DIFFERENCE).astype(np.uint8)
    different = cv2.morphologyEx(different, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(different, connectivity=8)
    largest = int(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0
    return largest / different.size
