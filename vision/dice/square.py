"""Finding a symbol die's top face near a detector peak, as a square of its body colour.

The pip detector's box is only roughly centred and sized on a die it was not trained
on, and a taught face compared at the wrong scale is compared mostly by its outline,
which every die of that colour shares.  So ``vision.dice.taught`` first finds the
face: the square, at any angle, whose inside looks most like the die's body colour
and whose surround looks least like it.  (Other ways of judging the square were
tried and read worse: ``docs/experiments/2026-11-dice-reader.md``.)
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from vision.dice.patch import MARGIN as PATCH_MARGIN
from vision.dice.patch import cut_patch

WINDOW = 64
"""Side of the window in which the die's square is searched (pixels)."""

SQUARE_ANGLES = np.arange(0.0, 90.0, 10.0)
SQUARE_SIDES = np.geomspace(0.55, 1.5, 8)
"""Square angles (degrees) and sides (times the detector's size) searched coarsely:
the detector's size is off by up to a third, more on dice unlike the pipped ones..."""

FINE_ANGLES = (-5.0, -2.5, 0.0, 2.5, 5.0)
FINE_SIDES = (0.9, 0.95, 1.0, 1.05, 1.1)
"""...then finely around the best coarse square (degrees, times its side)."""

SECOND_SQUARE = 0.88
"""When the best square does not match surely, the best square under this share of its
side is tried too."""

SQUARE_CONTRAST = 0.25
"""Least contrast between the die and the tray around it (body-likeness inside the
square minus outside, 0-1) for the square to be trusted."""


def locate_face(
    frame: np.ndarray, x: float, y: float, size: float, body: np.ndarray | None = None, below: float | None = None
) -> tuple[float, float, float, float, float]:
    """(cx, cy, side, angle, contrast) of the die's top face near a detector peak.

    The detector's box is only roughly centred and sized on a symbol die, and a face
    compared at the wrong scale is mostly compared by its outline, which every die of
    that colour shares.  So the die is found as the square, at any angle, whose inside
    looks most like the die's body colour and whose surround looks least like it;
    ``contrast`` says how clearly it stands out from the tray.  ``body`` is the taught
    die's colour (Lab); when teaching it is not known yet, and both colours of the
    die's middle are tried (see ``_middle_colours``).  With ``below`` (frame pixels)
    only squares smaller than that are searched: the second guess when the best square
    took in a neighbour of the die's colour, such as a dark tray edge.
    """
    span = 2.2 * size
    ppf = WINDOW / span  # window pixels per frame pixel
    window = cut_patch(frame, x, y, span / PATCH_MARGIN, out=WINDOW)
    lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
    limit = None if below is None else below * ppf
    if body is not None:
        score, px, py, side, angle = _square_of(lab, body, size * ppf, limit)
    else:
        tried = [_square_of(lab, colour, size * ppf, limit) for colour in _middle_colours(lab, size * ppf)]
        clear = [t for t in tried if t[0] >= SQUARE_CONTRAST]
        # The die's square holds the symbol's: of two clear squares, the larger is the die.
        score, px, py, side, angle = max(clear, key=lambda t: t[3]) if clear else max(tried)
    centre = ((WINDOW - 1) / 2, (WINDOW - 1) / 2)
    back = cv2.invertAffineTransform(cv2.getRotationMatrix2D(centre, angle, 1.0))
    wx, wy = back @ np.array([px, py, 1.0])
    return x + (wx - WINDOW / 2) / ppf, y + (wy - WINDOW / 2) / ppf, side / ppf, angle, score


def _square_of(
    lab: np.ndarray, body: np.ndarray, size: float, limit: float | None
) -> tuple[float, float, float, float, float]:
    """(contrast, cx, cy, side, angle) of the best square of ``body`` colour in a window
    (``size``: the detector's die size in window pixels; ``limit``: the largest side
    allowed, or None), searched coarsely then finely."""
    diff = lab - body
    diff[..., 0] *= 0.5  # lamp brightness varies more than colour
    like = np.exp(-(diff**2).sum(axis=2) / (2 * 18.0**2)).astype(np.float32)
    centre = ((WINDOW - 1) / 2, (WINDOW - 1) / 2)
    reach = 0.25 * size

    def search(angles: Iterable[float], sides: Iterable[float]) -> tuple[float, float, float, float, float]:
        best = (-1.0, 0.0, 0.0, 0.0, 0.0)
        for angle in angles:
            m = cv2.getRotationMatrix2D(centre, float(angle), 1.0)
            sums = cv2.integral(cv2.warpAffine(like, m, (WINDOW, WINDOW), borderMode=cv2.BORDER_REPLICATE))
            score, px, py, side = _best_square(sums, np.asarray(sides, np.float64), reach)
            if score > best[0]:
                best = (score, px, py, side, float(angle))
        return best

    sides = SQUARE_SIDES * size
    if limit is not None:
        sides = sides[sides < limit]
        if not len(sides):
            return -1.0, 0.0, 0.0, 0.0, 0.0
    coarse = search(SQUARE_ANGLES, sides)
    fine = [coarse[3] * f for f in FINE_SIDES]
    return search([coarse[4] + a for a in FINE_ANGLES], [f for f in fine if limit is None or f < limit])


def _middle_colours(lab: np.ndarray, size: float) -> list[np.ndarray]:
    """The two colours of a die's middle (body and symbol, or body and pips), or one
    for a plain face: one of them is the body, ``locate_face`` finds out which."""
    yy, xx = np.mgrid[0:WINDOW, 0:WINDOW].astype(np.float32) - (WINDOW - 1) / 2
    inner = lab[np.hypot(xx, yy) <= 0.35 * size]
    # Seeded by a split at the median lightness, not at random: the same photo must give
    # the same square each time (random seeds let a teaching photo that passed the
    # check fail when it was stored, and made taught faces differ from run to run).
    start = (inner[:, 0] > np.median(inner[:, 0])).astype(np.int32)[:, None]
    _, labels, _ = cv2.kmeans(
        inner, 2, start, (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5), 1, cv2.KMEANS_USE_INITIAL_LABELS
    )
    labels = labels.ravel()
    groups = [inner[labels == k] for k in (0, 1) if np.count_nonzero(labels == k) >= 0.05 * len(labels)]
    return [np.median(g, axis=0) for g in groups]


def _best_square(sums: np.ndarray, sides: np.ndarray, reach: float) -> tuple[float, float, float, float]:
    """(score, cx, cy, side) of the best axis-aligned square, of one of ``sides`` pixels,
    centred within ``reach`` of the window centre, from the window's integral image
    (squares reaching out of the window are not counted); the score is the mean inside
    minus the mean of a ring around it.  All sides and centres are scored in one numpy
    pass."""
    s = np.maximum(4, np.round(sides)).astype(np.int64)[:, None, None]
    m = np.maximum(2, np.round(0.15 * s)).astype(np.int64)
    centres = np.arange(int(np.ceil(WINDOW / 2 - reach)), int(np.floor(WINDOW / 2 + reach)) + 1)
    top = centres[None, :, None] - s // 2  # (sides, rows, 1)
    left = centres[None, None, :] - s // 2  # (sides, 1, cols)

    def boxes(t: np.ndarray, lf: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        inside = (t >= 0) & (lf >= 0) & (t + n <= WINDOW) & (lf + n <= WINDOW)
        # Squares reaching out of the window are scored -1 below; their corners are
        # clipped only so that indexing stays inside ``sums``.
        t0, l0 = np.clip(t, 0, WINDOW), np.clip(lf, 0, WINDOW)
        t1, l1 = np.clip(t + n, 0, WINDOW), np.clip(lf + n, 0, WINDOW)
        return sums[t1, l1] - sums[t0, l1] - sums[t1, l0] + sums[t0, l0], inside

    inner, _ = boxes(top, left, s)
    outer, fits = boxes(top - m, left - m, s + 2 * m)
    o = s + 2 * m
    score = np.where(fits, inner / (s * s) - (outer - inner) / (o * o - s * s), -1.0)
    k, i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    side = int(s[k, 0, 0])
    return (
        float(score[k, i, j]),
        float(centres[j] - side // 2 + side / 2),
        float(centres[i] - side // 2 + side / 2),
        float(side),
    )
