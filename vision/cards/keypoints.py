"""Finding taught illustrated cards by their keypoints (SIFT), however they lie.

A card with a picture has hundreds of distinctive corners and blobs; the same points
are found again on a photo of it that is turned, tilted, partly covered or in glare,
and a homography fitted to the matched points (RANSAC) gives the card's four corners
even when one or two of them are hidden.  That is what this stage adds to the outline
finder of :mod:`vision.cards.detect`: a card whose outline is broken by another card,
a phone or a patterned table is still found, from what shows of its face.

A plain card (a SET card, a playing card's pips) has few points, and those it has are
shared with its siblings (every heart is the same heart), so matches that are not
clearly nearer one deck card's point than any other's are dropped: such cards are
left to the whole-card descriptor (:mod:`vision.cards.describe`).

SIFT rather than ORB: on the generated cluttered scenes of ``make bench`` both found
about as many cards, but ORB also named two wrongly with as many agreeing matches as
some right ones had; SIFT named none wrongly.  It is the costly look (several hundred
ms on a 1280 px photo, one core), which is why the reader skips it when every outline
was named.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.cards.overlap import same_place

FEATURE_SIDE = 1600
"""The frame is halved (exactly, area-averaged) until its long side is at most this
before its keypoints are found: SIFT's cost grows with the pixels."""
FRAME_FEATURES = 3000
CARD_FEATURES = 1000
CONTRAST = 0.02
"""SIFT's contrast threshold (OpenCV's default is 0.04): half the default keeps the
fainter points of a card seen small, dim or through a sleeve."""
RATIO = 0.9
"""Lowe's ratio test: a frame point's nearest deck point must be this much nearer
than the nearest point of any other card, or the match is ambiguous (a pip every card
has)."""
NEIGHBOURS = 10
"""Deck points looked up per frame point: enough to find the nearest of another card
and every sibling card's copy of a shared mark (a suit has eight taught cards)."""
MIN_MATCHES = 10
MIN_INLIERS = 16
"""Matches agreeing with one homography needed to name a card: a random or
look-alike card gathers a handful at most."""
RANSAC_PX = 6.0
RNG_SEED = 25
"""OpenCV's random generator (one per thread) is seeded before the kd-trees are built and
before each frame's fits, so a frame reads the same whatever the thread read before it."""
"""Reprojection error (pixels) of a match that agrees with a homography.  Shared
matches (see :func:`_places`) are fitted with OpenCV's USAC (PROSAC sampling, local
optimisation) rather than plain RANSAC: on the generated scenes it read the same cards
at half the reader's time, because a deck card fitted to a few true matches among many
stray ones no longer runs out its iterations.  Distinctive matches keep RANSAC: with
USAC a half-covered card's hidden corners landed a little further out (5.2% of the card
against under 5%); its place only needs to be found, not extrapolated."""


@dataclass(frozen=True)
class DeckPoints:
    """Every taught card's keypoint descriptors, where each lies on its card (card-image
    pixels) and which card it belongs to; ``cards`` is how many cards there are."""

    descriptors: np.ndarray
    points: np.ndarray
    owner: np.ndarray
    cards: int
    _index: list[cv2.FlannBasedMatcher] = field(default_factory=list, compare=False, repr=False)

    def index(self) -> cv2.FlannBasedMatcher:
        """A kd-tree search over the descriptors, built once (exact search against a
        deck of thousands of points costs seconds a frame; the trees a few ms)."""
        if not self._index:
            cv2.setRNGSeed(RNG_SEED)  # the trees are random: the same deck, the same trees
            matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 64})
            matcher.add([self.descriptors])
            matcher.train()
            self._index.append(matcher)
        return self._index[0]


@dataclass(frozen=True)
class Sighting:
    """A deck card found by its keypoints: its row, its corners in the frame (those of the
    taught image, clockwise from its top-left) and how many matches agree."""

    row: int
    corners: np.ndarray
    inliers: int

    @property
    def confidence(self) -> float:
        """0-1, growing with the matches that agree: 0.5 at MIN_INLIERS, 0.8 at 2.5x."""
        return 1.0 - MIN_INLIERS / (2.0 * self.inliers) if self.inliers >= MIN_INLIERS else 0.0


def _sift(count: int) -> cv2.SIFT:
    return cv2.SIFT_create(nfeatures=count, contrastThreshold=CONTRAST)


def deck_points(images: list[np.ndarray]) -> DeckPoints:
    """Keypoints of each taught (straightened) card image."""
    sift = _sift(CARD_FEATURES)
    descriptors, points, owner = [], [], []
    for row, image in enumerate(images):
        keys, desc = sift.detectAndCompute(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), None)
        if desc is None:
            continue
        descriptors.append(desc)
        points.append(np.float32([k.pt for k in keys]))
        owner.append(np.full(len(keys), row, np.int32))
    if not descriptors:
        return DeckPoints(
            np.zeros((0, 128), np.float32), np.zeros((0, 2), np.float32), np.zeros(0, np.int32), len(images)
        )
    return DeckPoints(np.concatenate(descriptors), np.concatenate(points), np.concatenate(owner), len(images))


def _working(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame in grey, shrunk (area-averaged) so its long side is at most FEATURE_SIDE,
    and the factor back to full size."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    scale = FEATURE_SIDE / max(grey.shape)
    if scale >= 1.0:
        return grey, 1.0
    size = (round(grey.shape[1] * scale), round(grey.shape[0] * scale))
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA), grey.shape[1] / size[0]


@dataclass(frozen=True)
class Place:
    """Where the keypoints see a card they cannot name alone: the corners of the best
    supported fit (frame pixels) and every deck row that fits there, best first.  The
    cards of one suit share their index and pips, so the place is sure and the name is
    left to the ink check (:mod:`vision.cards.verify`)."""

    corners: np.ndarray
    rows: tuple[int, ...]


def sightings(frame: np.ndarray, deck: DeckPoints, card_size: tuple[int, int]) -> list[Sighting]:
    """The deck cards whose keypoints are found in ``frame`` (BGR), best supported first;
    each frame point supports one card at most."""
    return look(frame, deck, card_size)[0]


def look(
    frame: np.ndarray, deck: DeckPoints, card_size: tuple[int, int], mask: np.ndarray | None = None
) -> tuple[list[Sighting], list[Place]]:
    """One keypoint search of ``frame`` (where ``mask`` is non-zero, if given): the
    cards its distinctive points name (see :func:`sightings`), and the places where
    points shared by several deck cards fit one of them (see :class:`Place`) and no
    named card lies."""
    if len(deck.descriptors) == 0:
        return [], []
    grey, back = _working(frame)
    if mask is not None:
        mask = cv2.resize(mask, grey.shape[::-1], interpolation=cv2.INTER_NEAREST)
    keys, desc = _sift(FRAME_FEATURES).detectAndCompute(grey, mask)
    if desc is None or len(keys) < MIN_MATCHES:
        return [], []
    neighbours = deck.index().knnMatch(desc, k=NEIGHBOURS)
    cv2.setRNGSeed(RNG_SEED)  # the fits sample at random: one frame, one reading, whatever came before
    frame_all = np.float32([k.pt for k in keys])
    named = _named(_distinct(neighbours, deck.owner), frame_all, deck, card_size)
    places = _places(_shared(neighbours), frame_all, deck, card_size, named)
    scale = lambda c: c * back  # noqa: E731
    return (
        [Sighting(s.row, scale(s.corners), s.inliers) for s in named],
        [Place(scale(p.corners), p.rows) for p in places],
    )


SCREEN = cv2.USAC_FAST
"""Most deck cards with enough distinctive matches to be fitted are not in the frame
(a few dozen stray matches each): a fast USAC fit (PROSAC sampling, stopping early) rules
them out at a thirtieth of RANSAC's cost, and only the cards it keeps are fitted again
by RANSAC, whose hidden corners of a half-covered card land closer (see RANSAC_PX).
A row with fewer matches than MIN_INLIERS could never be named, so it is not fitted."""


def _named(good: list, frame_all: np.ndarray, deck: DeckPoints, card_size: tuple[int, int]) -> list[Sighting]:
    """Per deck card, the homography its distinctive matches agree on, best first."""
    if len(good) < MIN_MATCHES:
        return []
    frame_pts = frame_all[[m.queryIdx for m in good]]
    deck_idx = np.int32([m.trainIdx for m in good])
    rows = deck.owner[deck_idx]
    found = []
    for row in np.flatnonzero(np.bincount(rows, minlength=deck.cards) >= MIN_INLIERS):
        chosen = rows == row
        card_pts, seen_pts = deck.points[deck_idx[chosen]], frame_pts[chosen]
        if _fit(int(row), card_pts, seen_pts, card_size, SCREEN) is None:
            continue  # screened out cheaply (see SCREEN)
        sighting = _fit(int(row), card_pts, seen_pts, card_size)
        if sighting is not None:
            found.append(sighting)
    return sorted(found, key=lambda s: -s.inliers)


SHARED_RATIO = 0.8
"""A shared match: a deck point as near as this ratio allows to the frame point's
nearest (of any card).  Points of sibling cards at the same place are equally near."""


def _shared(neighbours: list) -> list[tuple[int, int]]:
    """(frame point, deck point) pairs for every deck point nearly as near as the
    nearest: a pip every heart has matches each heart's copy of it."""
    pairs = []
    for near in neighbours:
        if near:
            limit = near[0].distance / SHARED_RATIO
            pairs.extend((m.queryIdx, m.trainIdx) for m in near if m.distance <= limit)
    return pairs


def _places(
    pairs: list[tuple[int, int]], frame_all: np.ndarray, deck: DeckPoints, card_size: tuple[int, int], named: list
) -> list[Place]:
    """Fits of each deck card to its shared matches, grouped by where they lie; a place
    where a named card lies is that card's."""
    if len(pairs) < MIN_MATCHES:
        return []
    query, train = np.int32(pairs).T
    free = np.ones(len(query), bool)  # points on a named card are that card's
    for sighting in named:
        free &= ~_inside(sighting.corners, frame_all[query])
    query, train = query[free], train[free]
    rows = deck.owner[train]
    fits = []
    for row in np.flatnonzero(np.bincount(rows, minlength=deck.cards) >= MIN_INLIERS):
        chosen = rows == row
        fit = _fit(int(row), deck.points[train[chosen]], frame_all[query[chosen]], card_size, cv2.USAC_FAST)
        if fit is not None:
            fits.append(fit)
    places: list[tuple[Sighting, list[int]]] = []
    for fit in sorted(fits, key=lambda s: -s.inliers):
        if any(same_place(fit.corners, s.corners) for s in named):
            continue
        home = next((p for p in places if same_place(fit.corners, p[0].corners)), None)
        if home is None:
            places.append((fit, [fit.row]))
        else:
            home[1].append(fit.row)
    return [Place(best.corners, tuple(rows_)) for best, rows_ in places]


def _inside(quad: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Which points lie inside a convex, clockwise quad (all cross products one sign)."""
    edges = np.roll(quad, -1, axis=0) - quad
    rel = pts[:, None, :] - quad[None, :, :]
    cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
    return np.all(cross >= 0, axis=1)


def _distinct(neighbours: list, owner: np.ndarray) -> list:
    """Each frame point's nearest deck point, kept when it passes the ratio test against
    the nearest point of *another* card: two near points of one card (a repeated
    texture) say the same card, so they must not cancel each other out."""
    good = []
    for near in neighbours:
        if not near:
            continue
        best = near[0]
        rival = next((m for m in near[1:] if owner[m.trainIdx] != owner[best.trainIdx]), None)
        if rival is None or best.distance < RATIO * rival.distance:
            good.append(best)
    return good


def _fit(
    row: int, card_pts: np.ndarray, frame_pts: np.ndarray, card_size: tuple[int, int], method: int = cv2.RANSAC
) -> Sighting | None:
    """The homography from the card to the frame that most matches agree with, if it is
    one a real card could show (a convex, not too skewed quad)."""
    matrix, mask = cv2.findHomography(card_pts, frame_pts, method, RANSAC_PX, maxIters=500, confidence=0.995)
    if matrix is None:
        return None
    inliers = int(mask.sum())
    if inliers < MIN_INLIERS:
        return None
    w, h = card_size
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), matrix)[0]
    if not _plausible(corners):
        return None
    return Sighting(row, corners, inliers)


MAX_SKEW = 3.0
"""Longest side / shortest side of a card's quad: a card tilted 45 degrees away and
seen end on is far less skewed than this; a degenerate homography is not."""


def _plausible(quad: np.ndarray) -> bool:
    """True when ``quad`` could be a card: convex, clockwise, not degenerate."""
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return False
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides.min() < 8 or sides.max() / sides.min() > MAX_SKEW:
        return False
    (ax, ay), (bx, by) = (quad[1] - quad[0]).tolist(), (quad[2] - quad[1]).tolist()
    return ax * by - ay * bx > 0  # clockwise on screen: a mirrored fit is no card
