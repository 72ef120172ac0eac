"""The last look before a card is named: does it show anything its taught card lacks?

The whole-card descriptor (:mod:`vision.cards.describe`) sums a card up on coarse
grids, which tells SET cards apart (they differ in whole shapes) but not a four of
hearts from a five: one pip is a small part of a coarse grid.  Here the card's ink map
(ink relative to the local paper, so lamps and shadows divide out) is laid over its
taught card's, and the card is refused when some patch of it, the size of a small
printed mark, differs clearly: a pip more or less, another picture, another card lying
over part of it, or the same marks in another ink colour (a nine of spades where the
nine of hearts was taught).  A card that passes has the same marks in the same places,
in the same colours.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.cards.describe import prepare, tint_map, trimmed

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


COLOURED = 15.0
"""Chroma (distance from grey in Lab's (a, b) plane, the card white-balanced on its
paper) from which an inked pixel has a hue: the generated cards' black pips are under
1, their red and coloured inks 40-90 (median), the SET cards' 44-88."""
HUE_ANGLE = 45.0
"""Degrees of hue angle by which two coloured pixels must differ to be in other inks:
red, green and purple lie 70-120 degrees apart; each SET test card against its own
taught card differs by at most 28 degrees (99th percentile of its inked pixels, median
5).  An angle, because hue wraps round (a red just under 0 degrees and one just over
are one ink), and chroma is not compared: the same solid red photographed more or less
saturated (72 against 88) is one red, which an (a, b) distance called two."""
GREY_GAP = 30.0
"""Chroma by which a coloured pixel must exceed a grey one's (under COLOURED) to be in
another ink: black and red ink lie ~55 apart; a SET test card against its own taught
card, at most 29 (99th percentile; an ink's faint, blurred edge against the paper)."""


class Ink(NamedTuple):
    """A straightened card's ink map (0-1, blurred) and the colour (Lab a, b) at each
    pixel, blurred alike, for :func:`difference`."""

    level: np.ndarray
    colour: np.ndarray


def ink(card: np.ndarray) -> Ink:
    """A straightened card's ink, for :func:`differs`."""
    img, lab = prepare(card)
    tint, _ = tint_map(img)
    ab = cv2.GaussianBlur(np.ascontiguousarray(lab[..., 1:]), (0, 0), INK_BLUR)
    return Ink(cv2.GaussianBlur(tint, (0, 0), INK_BLUR), ab)


def differs(card: Ink, taught: Ink) -> bool:
    """True when the ink map ``card`` shows a patch larger than MAX_PATCH that the
    taught card's ink map ``taught`` does not (or the other way round)."""
    return difference(card, taught) > MAX_PATCH


def difference(card: Ink, taught: Ink, seen: np.ndarray | None = None, align: bool = True) -> float:
    """The largest patch where two cards' ink differs (in level, or in colour where
    both are inked), as a fraction of the card; only where ``seen`` (see
    :func:`in_view`) is non-zero, if given.  A card whose marks differ only by lying a
    pixel or two off is compared again once laid onto the taught card (see
    :func:`aligned`), unless ``align`` is False: the aligning costs an ECC fit, too
    dear when a card is compared with every card of a deck."""
    labels, stats = _patches(card, taught, seen)
    patch = _largest(stats, labels.size)
    return _unless_aligned(card, taught, seen, patch) if align else patch


def _unless_aligned(card: Ink, taught: Ink, seen: np.ndarray | None, patch: float) -> float:
    """``patch``, the largest differing patch, or if it is over MAX_PATCH the smaller
    one left once ``card`` is laid onto ``taught`` (see :func:`aligned`)."""
    if patch <= MAX_PATCH:
        return patch
    moved = aligned(card, taught, seen)
    if moved is None:
        return patch
    labels, stats = _patches(moved, taught, seen)
    return min(patch, _largest(stats, labels.size))


ALIGN_STEPS = 30
MAX_SHIFT = 9.0
"""Ink-map pixels (~9% of the card's width) by which :func:`aligned` may move any of the
taught card's marks: a found outline can be a sleeve's, ~10% wider than the card in it,
or a tilted card's slanted a little (an affine shear of 0.09 on the generated scenes),
and then every pip reads as a crescent beside itself.  A pip more or less, or another
picture, is left over whatever affine warp lays the rest on the taught card."""


def aligned(card: Ink, taught: Ink, seen: np.ndarray | None = None) -> Ink | None:
    """``card``'s ink laid onto ``taught``'s by the affine warp that best lines the two
    ink maps up (ECC, only where ``seen``), or None when that fails or would move a
    corner more than MAX_SHIFT: marks a little off read as a thin crescent beside each
    mark, the largest of which can pass for a pip more."""
    warp = np.eye(2, 3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, ALIGN_STEPS, 1e-4)
    mask = None if seen is None else seen.astype(np.uint8)
    try:
        _, warp = cv2.findTransformECC(taught.level, card.level, warp, cv2.MOTION_AFFINE, criteria, mask, 3)
    except cv2.error:
        return None
    h, w = card.level.shape
    ys, xs = np.nonzero(taught.level > INK_DIFFERENCE)
    marks = np.stack([xs, ys, np.ones_like(xs)], axis=1).astype(np.float32)
    if len(marks) == 0 or np.abs(marks @ warp.T - marks[:, :2]).max() > MAX_SHIFT:
        return None
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    level = cv2.warpAffine(card.level, warp, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    colour = cv2.warpAffine(card.colour, warp, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    return Ink(level, colour)


COVERING = 0.025
"""A patch of different ink larger than this fraction of the card is taken for something
lying over it (another card, a phone, a die, a lamp's glare), not for a printed mark:
a playing card's pip, the smallest mark that tells two cards apart, is 1.2-1.5%.  On the
generated scenes, weak keypoint sightings of right cards partly covered by things not
found as cards differed by patches of 3.4-12.5%; the untaught eight of spades sighted
as the seven, by 1.2-1.5% (its pip more)."""


def covered_difference(card: Ink, taught: Ink, seen: np.ndarray, entering: bool = False) -> tuple[float, float]:
    """The largest patch where two cards' ink differs (as :func:`difference`) once the
    patches taken as covering the card are masked (see :func:`_uncover`; slivers
    entering from the edge only if ``entering``), and the fraction of the card left to
    compare: a card partly under something that was not found is judged on what shows
    of it, and a mark more or less still tells.  A weak keypoint sighting's name comes
    from the few points it matched, so slivers are not excused for it (that made a wrong
    reading on the reported seed's totals)."""
    patch, shown = masked_difference(card, taught, seen, entering)
    return patch, float(np.count_nonzero(shown)) / shown.size


def masked_difference(card: Ink, taught: Ink, seen: np.ndarray, entering: bool = True) -> tuple[float, np.ndarray]:
    """The largest patch where two cards' ink differs (as :func:`difference`) where
    nothing lies over the card (see :func:`_uncover`), and that mask.  The patches are
    found once: when none covers the card they are the difference's own."""
    labels, stats = _patches(card, taught, seen)
    shown = _uncover(labels, stats, seen, entering)
    if shown is seen:
        return _unless_aligned(card, taught, seen, _largest(stats, labels.size)), seen
    return difference(card, taught, shown), shown


def _uncover(labels: np.ndarray, stats: np.ndarray, seen: np.ndarray, entering: bool) -> np.ndarray:
    """``seen`` less the convex hull of each patch among ``labels`` taken as something
    lying over the card (see :func:`_covering`; slivers entering from the edge only if
    ``entering``), or ``seen`` itself when none covers the card.  The hull takes in the
    fragments of an object inside its outline, where its colours happen to match the
    card's ink; it is not grown beyond that: a pip more lying just beside a cover was
    masked with it when each patch was grown by 14 px (an untaught eight of spades under
    a phone was named the seven in 10 of 144 places, none with hulls; on the tuning seeds
    the hulls read 2 cards more on one seed and 1 fewer on another)."""
    big = _covering(labels, stats, seen, entering) if len(stats) > 1 else []
    if len(big) == 0:
        return seen
    covered = np.zeros_like(seen, dtype=np.uint8)
    for label in big:
        ys, xs = np.nonzero(labels == label)
        cv2.fillConvexPoly(covered, cv2.convexHull(np.stack([xs, ys], axis=1).astype(np.int32)), 1)
    return seen & (1 - covered)


ENTERING = 6
"""Ink-map pixels from the edge of what is compared (the card's trimmed edge, another
card's outline, the photo's edge: see :func:`in_view`) within which a patch counts as
reaching it.  A phone, a pen or a card lying over a card's side shows as a patch that
enters from that edge, often smaller than COVERING because most of the object hides
where the card is inked anyway."""


def _covering(labels: np.ndarray, stats: np.ndarray, seen: np.ndarray, slivers: bool = True) -> np.ndarray:
    """Labels of the patches taken as something lying over the card: larger than
    COVERING, or, if ``slivers``, larger than MAX_PATCH and reaching the edge of
    ``seen`` (see ENTERING): on the tuning scenes the places and weak sightings of
    right cards refused by 0.6-0.9% were such slivers, where a mark more lies inside."""
    area = stats[:, cv2.CC_STAT_AREA]
    outside = (seen == 0).astype(np.uint8)
    kernel = np.ones((2 * ENTERING + 1, 2 * ENTERING + 1), np.uint8)
    near = cv2.dilate(outside, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=1) > 0
    entering = np.zeros(len(stats), bool)
    entering[np.unique(labels[near & (labels > 0)])] = True
    covering = (area > COVERING * labels.size) | (slivers & entering & (area > MAX_PATCH * labels.size))
    covering[0] = False
    return np.flatnonzero(covering)


def _patches(card: Ink, taught: Ink, seen: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The connected patches of different ink: their labels and OpenCV's stats."""
    level = np.abs(card.level - taught.level) > INK_DIFFERENCE
    inked = np.minimum(card.level, taught.level) > INK_DIFFERENCE
    different = (level | (inked & _other_ink(card.colour, taught.colour))).astype(np.uint8)
    if seen is not None:
        different &= seen
    different = cv2.morphologyEx(different, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(different, connectivity=8)
    return labels, stats


def _largest(stats: np.ndarray, size: int) -> float:
    """The largest patch's area (stats of :func:`_patches`) as a fraction of the card."""
    largest = int(stats[1:, cv2.CC_STAT_AREA].max()) if len(stats) > 1 else 0
    return largest / size


def _other_ink(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two (a, b) colour maps show other inks: both coloured with hues further
    apart than HUE_ANGLE, or one grey and the other more coloured by GREY_GAP."""
    ca, cb = np.hypot(a[..., 0], a[..., 1]), np.hypot(b[..., 0], b[..., 1])
    # the angle between the two hues from their dot and cross products: no wrap to mind
    dot = a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1]
    cross = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    angle = np.degrees(np.abs(np.arctan2(cross, dot)))
    both = (ca >= COLOURED) & (cb >= COLOURED)
    grey = np.minimum(ca, cb) < COLOURED
    return (both & (angle > HUE_ANGLE)) | (grey & (np.abs(ca - cb) > GREY_GAP))


VIEW_EDGE = 7
"""Pixels (description scale) of the ink map next to the photo's edge (or another
card's) that are not compared: the warp repeats the edge's pixels beyond it, and the local paper level
(a 41 px closing) and the blur smear those streaks a few pixels inward."""


def in_view(
    shape: tuple[int, ...], to_card: np.ndarray, size: tuple[int, int], hidden: list[np.ndarray] | tuple = ()
) -> tuple[np.ndarray, float]:
    """Where a card straightened to ``size`` by the homography ``to_card`` (frame to
    card) lies inside a frame of ``shape`` and outside the ``hidden`` quads (frame
    pixels: other cards that may lie over it): a mask the shape of its ink map (1 =
    compared) and the fraction of the card it covers.  A card running out of the photo,
    or under another, is compared only on what may show of it."""
    frame = np.full(shape[:2], 255, np.uint8)
    card = cv2.warpPerspective(frame, to_card, size, flags=cv2.INTER_NEAREST, borderValue=0)
    for quad in hidden:
        corners = cv2.perspectiveTransform(np.float32(quad).reshape(1, -1, 2), to_card)[0]
        cv2.fillConvexPoly(card, np.round(corners).astype(np.int32), 0)
    inner = trimmed(card) > 250
    fraction = float(np.count_nonzero(inner)) / inner.size
    kernel = np.ones((2 * VIEW_EDGE + 1, 2 * VIEW_EDGE + 1), np.uint8)
    return cv2.erode(inner.astype(np.uint8), kernel, borderValue=1), fraction
