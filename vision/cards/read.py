"""Reading revealed cards: find each card, straighten it, and name it from a taught deck.

    catalog = Catalog(Path("decks/unmask"))
    catalog.enroll_grid(photo, 3, 3, names)            # teach once
    for card in read_cards(frame, catalog):             # every reveal
        print(card.name, card.confidence, card.corners)

A card is named only when it is close to a deck card in *every* respect (silhouette,
fill, layout, colour, texture: see :mod:`vision.cards.describe`) and clearly closer to
it than to any other deck card; otherwise it is reported with ``name=None``, because
calling an unknown card by its nearest look-alike would corrupt the game.

Each deck card is held sharp and as a soft photo would show it (see
:data:`vision.cards.describe.SOFT_VIEWS`); a card is matched to whichever is nearer.
Search is one matrix product of the frame's card descriptors with the deck's, so a
deck of 1000 costs little more than a deck of 80: describing the cards dominates.

A frame is looked at in this order, each stage once: outlines found
(:mod:`vision.cards.detect`) -> each named by the descriptor -> checked for a mark its
taught card lacks (:mod:`vision.cards.verify`) -> if any outline is left unnamed, the
taught cards' keypoints searched for (:mod:`vision.cards.keypoints`), which names those
outlines and adds the cards whose outline was broken or covered -> where the two looks
disagree, unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from threadpoolctl import ThreadpoolController

from vision.cards.catalog import Catalog, CatalogError
from vision.cards.describe import (
    PARTS,
    ROTATE_180,
    WARP_SIZE,
    Lighting,
    describe_lit,
    fill_of,
    part_distances,
    rotated_180,
)
from vision.cards.detect import CARD_SIZE, card_transform, find_cards_scaled, warp_card, working_frame
from vision.cards.keypoints import Place, Sighting, look
from vision.cards.overlap import shared_area
from vision.cards.verify import MAX_PATCH, Ink, covered_difference, difference, differs, in_view, ink, masked_difference
from vision.images import check_frame

MAX_PART_DISTANCE = 1.6
"""A match is rejected when any part is further than this many tolerances away: the same
card photographed again stays below ~1.5, a card differing in colour, count, fill or
shape goes above it in that part."""

UNEVEN_LIGHT = 0.75
MAX_CLIPPED = 0.02
UNEVEN_MAX_PART_DISTANCE = 1.3
"""A card whose paper is lit unevenly (darkest / brightest paper level under
UNEVEN_LIGHT, see :func:`vision.cards.describe.tint_map`) is under a lamp's
reflection: its fill reads wrongly (an empty shape looks striped), so it must match
more closely to be named.  Plainly lit cards stay well above UNEVEN_LIGHT and the
cards glare made the reader name wrongly fall below it; tightening only those cards
costs a few right readings and removed the wrong ones.  A card more than MAX_CLIPPED
washed out to white counts as under a reflection too: when the reflection covers the
whole card its paper is evenly white, and its stripes are gone.  Both rules stay: a
camera that rolls highlights off instead of clipping them would slip past
MAX_CLIPPED."""

FILL_BLIND_PARTS = ("silhouette", "hues")
"""What a reflection leaves alone: where the marks are and the ink's colour.  Where a
reflection clips the paper to white (see MAX_CLIPPED), faint print (stripes) can vanish
but never appear, so a card that reads as less filled than a deck card it matches in
these parts might be that card: it is refused (the stricter limit alone let a striped
card whose stripes had washed out be named as the empty one).  Only clipped cards are
judged so: applied to every unevenly lit card it refused more right readings."""

INK_READ_PARTS = ("silhouette", "layout", "hues", "chroma")
INK_READ_DISTANCE = 2.2
"""The parts the ink check (:mod:`vision.cards.verify`), which every named outline must
pass, reads mark by mark: where the marks are and in which colours.  In these a plainly
lit card may lie up to this many tolerances from its deck card (a card tilted 30-45
degrees, its far end softer, or with a die on it, came 1.6-2.1 away), because a card
of another count, shape, layout or colour fails the ink check.  Fill and texture (fine
stripes, thin lines) and contrast the ink map does not see: they keep
MAX_PART_DISTANCE, so a striped card whose sibling was never taught stays unknown."""

MAX_RATIO = 0.85
"""Best distance / second-best distance; above it two deck cards are about equally
close and the reading is ambiguous, so it is refused."""


_BLAS = ThreadpoolController()
"""The search product is small; letting BLAS spread it over busy cores made it many
times slower on a loaded 2-core machine, so it runs single-threaded."""


@dataclass(frozen=True)
class Card:
    """One card found in a frame: its catalog name (None when unknown), its corners in
    image pixels (clockwise from the card's top-left) and a 0-1 confidence."""

    name: str | None
    corners: tuple[tuple[float, float], ...]
    confidence: float

    def to_json(self) -> dict[str, Any]:
        """The card as the CLI and web page report it."""
        return {
            "card": self.name,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class Match:
    """The verdict on one card: catalog row (None = unknown), upside down?, confidence."""

    row: int | None
    flipped: bool
    confidence: float
    near: int | None = None
    """When unknown, the deck card the descriptor ranked first if it came near enough in
    every part the ink check cannot read for the ink to decide (see :func:`_near_miss`)."""


def _distances(queries: np.ndarray, vectors: np.ndarray, norms: np.ndarray) -> np.ndarray:
    """Euclidean distance of every query row to every catalog row."""
    with _BLAS.limit(limits=1, user_api="blas"):
        product = queries @ vectors.T
    sq = norms[None, :] + (queries**2).sum(axis=1)[:, None] - 2.0 * product
    return np.sqrt(np.maximum(sq, 0.0))


def plainly_lit(lighting: Lighting) -> bool:
    """True unless a lamp's reflection may have erased faint print (see UNEVEN_LIGHT)."""
    return lighting.evenness >= UNEVEN_LIGHT and lighting.clipped <= MAX_CLIPPED


def _verdict(query: np.ndarray, views: np.ndarray, is_flipped: bool, vectors: np.ndarray, lighting: Lighting) -> Match:
    """Name one card from its distances to each view of each deck card (views x cards,
    the better way up), or refuse: see MAX_PART_DISTANCE, UNEVEN_LIGHT, FILL_BLIND_PARTS
    and MAX_RATIO."""
    limit = MAX_PART_DISTANCE if plainly_lit(lighting) else UNEVEN_MAX_PART_DISTANCE
    row = views.min(axis=0)  # each card's nearest view: the runner-up must be another card
    if len(row) > 1:
        two = np.argpartition(row, 1)[:2]
        best, second = (int(two[0]), int(two[1])) if row[two[0]] <= row[two[1]] else (int(two[1]), int(two[0]))
        ratio = float(row[best] / row[second]) if row[second] > 0 else 0.0
    else:
        best, ratio = 0, 0.0
    # the best card's views (sharp, soft): it is near enough when one of them is in every part
    parts = part_distances(query, vectors[best :: views.shape[1]])
    within = bool(np.any(np.all(parts <= _part_limits(lighting), axis=1)))
    worst_part = float(parts.max(axis=1).min())
    closeness = max(0.0, 1.0 - worst_part / (2.0 * limit))
    distinct = max(0.0, 1.0 - ratio / (2.0 * MAX_RATIO))
    erased = lighting.clipped > MAX_CLIPPED and _fuller_lookalike(query, best, vectors, limit, views.shape[1])
    if not within or ratio > MAX_RATIO or erased:
        near = best if lighting.clipped <= MAX_CLIPPED and _near_miss(parts, lighting) else None
        return Match(None, is_flipped, 1.0 - min(closeness, distinct), near)
    return Match(best, is_flipped, min(closeness, distinct))


NEAR_MISS_DISTANCE = 2.75
"""Part distance (tolerances) up to which a card the descriptor refuses may still be
named by its ink alone (see :func:`_near_miss`) in the parts the ink map also reads
(silhouette, layout, chroma) and in texture.  On the tuning scenes right cards refused
in place came 1.7-2.6 away there, under something lying over part of them or a loose
outline that let the table in, while their ink matched (0.2-0.6%); the never-taught
cards nearest a taught one, drawn clean, are 4.1 (silhouette) or 3.9 (chroma) away
from it (an art card whose ink matches another's, new03 against art22 at 0.3%)."""
INK_BLIND_PARTS = ("fill", "contrast")
"""Parts the ink map does not read (stripes and thin outlines lie under INK_DIFFERENCE,
contrast is divided out): a near miss must still be within its usual limit in these.
The never-taught seven of diamonds, whose ink matches the taught seven of hearts
(0.12%: the pips differ in small separate slivers), is 16 away in fill."""
_NEAR_PARTS = np.isin(PARTS, ("silhouette", "layout", "chroma", "texture"))
_INK_BLIND = np.isin(PARTS, INK_BLIND_PARTS)


def _near_miss(parts: np.ndarray, lighting: Lighting) -> bool:
    """True when one view of the descriptor's first-ranked card (``parts``: views x
    PARTS) is within NEAR_MISS_DISTANCE in the parts the ink reads and texture, and
    within its usual limit in INK_BLIND_PARTS.  Hues are not looked at: something lying
    over a black card (another card's corner, a glass) gives it hues its taught card
    lacks (4.35 away, a whole histogram against none), and the ink check compares ink
    colours where both cards are inked."""
    limits = _part_limits(lighting)
    ok = np.all(parts[:, _NEAR_PARTS] <= NEAR_MISS_DISTANCE, axis=1) & np.all(
        parts[:, _INK_BLIND] <= limits[_INK_BLIND], axis=1
    )
    return bool(np.any(ok))


_INK_READ = np.isin(PARTS, INK_READ_PARTS)


def _part_limits(lighting: Lighting) -> np.ndarray:
    """Each part's largest distance (PARTS order) for a card to be named: see
    MAX_PART_DISTANCE, UNEVEN_MAX_PART_DISTANCE and INK_READ_DISTANCE."""
    if not plainly_lit(lighting):
        return np.full(len(PARTS), UNEVEN_MAX_PART_DISTANCE)
    return np.where(_INK_READ, INK_READ_DISTANCE, MAX_PART_DISTANCE)


def _fuller_lookalike(query: np.ndarray, best: int, vectors: np.ndarray, limit: float, cards: int) -> bool:
    """True when a deck card other than ``best`` matches ``query`` in FILL_BLIND_PARTS
    and is more filled: a reflection may have washed that card's print out."""
    blind = part_distances(query, vectors, FILL_BLIND_PARTS).max(axis=1) <= limit
    fuller = fill_of(vectors) > fill_of(query)
    others = np.arange(len(vectors)) % cards != best
    return bool(np.any(blind & fuller & others))


def identify(cards: list[np.ndarray], catalog: Catalog) -> list[Match]:
    """Match straightened cards against the catalog, trying each both ways up."""
    vectors, norms = catalog.vectors()
    if len(vectors) == 0:
        raise CatalogError(f"catalog {catalog.directory} is empty: teach it some cards first")
    if not cards:
        return []
    described = [describe_lit(card) for card in cards]
    upright = np.stack([vector for vector, _ in described])
    queries = np.concatenate([upright, upright[:, ROTATE_180]])  # both ways up, one product
    dist = _distances(queries, vectors, norms).reshape(len(queries), catalog.views, len(catalog))
    n = len(cards)
    matches = []
    for i in range(n):
        flipped = bool(dist[n + i].min() < dist[i].min())
        j = n + i if flipped else i
        matches.append(_verdict(queries[j], dist[j], flipped, vectors, described[i][1]))
    return matches


def _corners(quad: np.ndarray, flipped: bool) -> tuple[tuple[float, float], ...]:
    """Quad corners as tuples, starting from the matched card's own top-left."""
    pts = np.roll(quad, -2, axis=0) if flipped else quad
    return tuple((float(x), float(y)) for x, y in pts)


def _checked(match: Match, card: np.ndarray, catalog: Catalog) -> Match:
    """``match``, or unknown when the card shows a mark its taught card lacks (see
    :mod:`vision.cards.verify`): the descriptor alone cannot tell a pip more or less."""
    if match.row is None and match.near is None:
        return match
    seen = ink(rotated_180(card) if match.flipped else card)
    if match.row is None:
        return _ink_vouched(match, seen, catalog)
    if differs(seen, catalog.ink(catalog.names[match.row])):
        return Match(None, match.flipped, 1.0 - match.confidence)
    return match


def _ink_vouched(match: Match, seen: Ink, catalog: Catalog) -> Match:
    """``match`` named as its near miss (see :func:`_near_miss`) when the card's ink
    (``seen``, the way up the descriptor chose) matches that deck card's (as every named
    outline must) and no other deck card's as well (see :func:`_ink_rival`); otherwise
    ``match``, unknown."""
    assert match.near is not None
    patch = difference(seen, catalog.ink(catalog.names[match.near]))
    if patch > MAX_PATCH or _ink_rival(seen, match.near, catalog, np.ones(seen.level.shape, np.uint8)):
        return match
    return Match(match.near, match.flipped, 1.0 - patch / (2.0 * MAX_PATCH))


def read_cards(frame: np.ndarray, catalog: Catalog) -> list[Card]:
    """Every card in the frame, named from ``catalog`` (None when not in it), top to bottom.

    Two looks, each once: outlines found and named whole (see :func:`identify`), then,
    unless every outline was named, the taught cards' keypoints searched for (see
    :mod:`vision.cards.keypoints`), which finds an illustrated card whose outline is
    broken or covered and names the outlines the first look left unknown."""
    frame = check_frame(frame)
    if len(catalog) == 0:
        raise CatalogError(f"catalog {catalog.directory} is empty: teach it some cards first")
    small, back = working_frame(frame)
    found = find_cards_scaled(small)
    padded = cv2.cvtColor(small, cv2.COLOR_BGR2BGRA)  # OpenCV warps 4 channels ~30% faster than 3, same pixels
    warped = [cv2.cvtColor(warp_card(padded, q, WARP_SIZE), cv2.COLOR_BGRA2BGR) for q in found]
    names = catalog.names
    matches = [_checked(m, card, catalog) for m, card in zip(identify(warped, catalog), warped, strict=True)]
    cards = [
        Card(None if m.row is None else names[m.row], _corners(q * back, m.flipped), m.confidence)
        for q, m in zip(found, matches, strict=True)
    ]
    named = [q * back for q, m in zip(found, matches, strict=True) if m.row is not None]
    if (
        cards
        and len(named) == len(cards)
        and _bare_elsewhere(small, [q for q, m in zip(found, matches, strict=True) if m.row is not None])
    ):
        return cards
    seen, places = look(frame, catalog.points(), CARD_SIZE, _outside(frame.shape[:2], named))
    quads = [q * back for q in found] + [s.corners for s in seen]
    sighted = [_sighted(frame, s, catalog, quads) for s in seen]
    sighted += [card for card in (_ink_named(frame, place, catalog) for place in places) if card is not None]
    sighted.sort(key=lambda card: card.name is None)  # named first: an unknown sighting only fills a gap
    return sorted(merge(cards, sighted), key=_reading_order)


BARE = 0.01
"""Fraction of the frame outside the named cards that may hold edges while the frame
is still taken to show nothing else (a plain table, a few crumbs): then the costly
keypoint look is skipped.  A patterned table, or a card whose outline was not found,
has edges far above this, so the look runs."""


def _bare_elsewhere(small: np.ndarray, named: list[np.ndarray]) -> bool:
    """True when, outside the (grown) named cards, the working frame is nearly edgeless."""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 30, 90)
    away = _outside(grey.shape, named, grow=1.1)
    return np.count_nonzero(edges & away) <= BARE * max(1, np.count_nonzero(away))


def _outside(shape: tuple[int, ...], quads: list[np.ndarray], grow: float = 1.0) -> np.ndarray:
    """A mask (255) of the frame outside ``quads``, each grown by ``grow`` about its centre."""
    mask = np.full(shape[:2], 255, np.uint8)
    for quad in quads:
        centre = quad.mean(axis=0)
        cv2.fillConvexPoly(mask, ((quad - centre) * grow + centre).astype(np.int32), 0)
    return mask


SURE_INLIERS = 32
"""Agreeing matches from which a keypoint sighting names its card on its own (twice
MIN_INLIERS).  A card never taught shares marks with taught ones (a suit's pips in
nearly the same layout, a rank's glyph, the font of every title), and a few of those
can agree with one homography: on scenes with half their cards never taught, the
untaught eight of spades was sighted as the seven with 20-23 matches, as many as true
sightings of cards half covered or seen small.  So a sighting with fewer is named only
when the card straightened from where it lies shows its taught card's ink (see
:mod:`vision.cards.verify`), which reads every mark, the pip more included; otherwise
it is reported unknown."""


MIN_IN_VIEW = 0.5
"""Fraction of a weakly sighted card that must show (inside the photo, under no other
card found) for its ink to vouch for it: the ink is compared only there (see
:func:`vision.cards.verify.in_view`), and a sliver agrees with too many cards."""


def _sighted(frame: np.ndarray, sighting: Sighting, catalog: Catalog, quads: list[np.ndarray]) -> Card:
    """The card a keypoint sighting names, or an unknown card where it lies when the
    sighting is weak and the ink does not agree (see SURE_INLIERS and :func:`_shows`)."""
    corners = tuple((float(x), float(y)) for x, y in sighting.corners)
    if sighting.inliers >= SURE_INLIERS:
        return Card(catalog.names[sighting.row], corners, sighting.confidence)
    seen = _shows(frame, sighting.corners, quads)
    if seen is not None:
        card = warp_card(frame, sighting.corners, WARP_SIZE)
        patch, shown = covered_difference(ink(card), catalog.ink(catalog.names[sighting.row]), seen)
        if patch <= MAX_PATCH and shown >= MIN_IN_VIEW:
            return Card(catalog.names[sighting.row], corners, sighting.confidence)
    return Card(None, corners, 0.0)


def _shows(frame: np.ndarray, corners: np.ndarray, quads: list[np.ndarray]) -> np.ndarray | None:
    """Where the card at ``corners`` may show, as a mask of its ink map: inside the photo
    and outside the other ``quads`` found (cards that may lie over it; which lies on top
    is not known), or None when that is less than MIN_IN_VIEW of the card."""
    me = _quad_card(corners)
    others = [q for q in quads if _shared(me, _quad_card(q)) < SAME_PLACE]
    seen, fraction = in_view(frame.shape, card_transform(corners, WARP_SIZE), WARP_SIZE, others)
    return seen if fraction >= MIN_IN_VIEW else None


def _quad_card(quad: np.ndarray) -> Card:
    return Card(None, tuple((float(x), float(y)) for x, y in quad), 0.0)


def _ink_named(frame: np.ndarray, place: Place, catalog: Catalog) -> Card | None:
    """The one deck card, of those whose shared keypoints fit ``place``, whose ink
    matches the card straightened from there (either way up) where nothing lies over it
    (see :func:`_place_fit`), or None: a card more covered, or never taught, matches
    none, and a card that matches two is not named.  (Masking the other quads found, as
    :func:`_sighted` does, named no more cards on the tuning scenes and would hide a pip
    more under a neighbour's outline.)"""
    card = warp_card(frame, place.corners, WARP_SIZE)
    inks = (ink(card), ink(rotated_180(card)))
    fits = []
    for row in place.rows:
        taught = catalog.ink(catalog.names[row])
        for flipped, seen in enumerate(inks):
            fit = _place_fit(seen, taught)
            if fit is not None:
                fits.append((row, bool(flipped), *fit))
    if len({fit[0] for fit in fits}) != 1:
        return None
    row, flipped, patch, shown = min(fits, key=lambda f: f[2])
    if _ink_rival(inks[int(flipped)], row, catalog, shown):
        return None
    quad = np.roll(place.corners, -2, axis=0) if flipped else place.corners
    return Card(catalog.names[row], tuple((float(x), float(y)) for x, y in quad), 1.0 - patch / (2.0 * MAX_PATCH))


def _place_fit(seen: Ink, taught: Ink) -> tuple[float, np.ndarray] | None:
    """The largest differing patch between a place's ink and a deck card's, and where
    they were compared, once what lies over the card is masked (see
    :func:`vision.cards.verify.masked_difference`: a card dropped over its corner, a phone over
    its side), or None when over MAX_PATCH or when under MIN_IN_VIEW of it is left."""
    patch, shown = masked_difference(seen, taught, np.ones(seen.level.shape, np.uint8))
    if np.count_nonzero(shown) < MIN_IN_VIEW * shown.size:
        return None
    return (patch, shown) if patch <= MAX_PATCH else None


def _ink_rival(seen: Ink, row: int, catalog: Catalog, shown: np.ndarray) -> bool:
    """True when a deck card other than ``row`` matches the ink ``seen`` as well where it
    was compared (``shown``): the shared keypoints are grey, so a sibling in another
    colour or fill (a SET card's) is not among the rows fitted to a place, and faint
    print (stripes, thin outlines, under INK_DIFFERENCE) leaves the ink of such siblings
    alike.  Each was named as the one fitted on the SET variations (glare, a corner
    covered).  Rivals are compared without :func:`vision.cards.verify.aligned`: one ECC
    fit per deck card costs too much."""
    return any(
        name != catalog.names[row] and difference(seen, catalog.ink(name), shown, align=False) <= MAX_PATCH
        for name in catalog.names
    )


def _reading_order(card: Card) -> tuple[float, float]:
    xs, ys = zip(*card.corners, strict=True)
    return sum(ys) / 4.0, sum(xs) / 4.0


SAME_PLACE = 0.5
"""Intersection over the smaller quad above which two readings are of one card."""
ONE_CARD = 0.85
"""Two sightings sharing this much lie in one place: the weaker is not another card.
Below it both are kept, because one card dropped on another can cover half of it
and both still show their own points."""


def merge(outlined: list[Card], sighted: list[Card]) -> list[Card]:
    """The readings of both looks, one per card.  A sighting (best supported first) names
    the unknown outlines it covers and takes their place; where it lies on an outline
    named otherwise, the two looks disagree and that card is reported unknown, because a
    wrong name costs more than none; a sighting on no outline is a card whose outline was
    not found (covered, or lost in the table's pattern) and is added.  A sighting left
    unknown (see SURE_INLIERS) takes the place of unknown outlines (a covered card's
    visible part) but never of a named reading."""
    out = [(card, True) for card in outlined]  # (reading, from the outline look?)
    placed: list[Card] = []
    for seen in sighted:
        if any(_shared(seen, other) >= ONE_CARD for other in placed):
            continue  # a weaker fit where another card was sighted: one card, two names
        under = [i for i, (card, outline) in enumerate(out) if outline and _shared(seen, card) >= SAME_PLACE]
        if seen.name is None:  # names nothing, but its corners span the whole card
            if any(out[i][0].name is not None for i in under) or any(
                _shared(seen, other) >= SAME_PLACE for other in placed
            ):
                continue
            out = [reading for i, reading in enumerate(out) if i not in under] + [(seen, False)]
            continue
        placed.append(seen)
        rivals = [i for i in under if out[i][0].name not in (None, seen.name)]
        if rivals:
            for i in rivals:
                out[i] = (Card(None, out[i][0].corners, 0.0), True)
            continue
        if any(out[i][0].name == seen.name for i in under):
            continue  # both looks agree: the outline's corners are the finer
        out = [reading for i, reading in enumerate(out) if i not in under] + [(seen, False)]
    return [card for card, _ in out]


def _shared(a: Card, b: Card) -> float:
    """Intersection of two readings' quads over the smaller one's area."""
    qa, qb = np.float32(a.corners), np.float32(b.corners)
    smaller = min(abs(cv2.contourArea(qa)), abs(cv2.contourArea(qb)))
    return shared_area(qa, qb) / max(smaller, 1e-6)
