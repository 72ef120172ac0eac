"""Finding cards in a photo and straightening them.

Cards are found twice over, because no single cue works on every table:
* brightness (Otsu): a light card on a dark table is a bright blob;
* edges (Canny): a card on a light table shows only its outline and shadow.
Every closed region from either map that is card-shaped (convex, nearly rectangular,
a sensible size) becomes a candidate quad; duplicates from the two maps are merged.
Work happens on a copy scaled to ``DETECT_SIDE`` pixels so a 2-megapixel photo
costs the same few milliseconds as a small one; corners are scaled back afterwards.
"""

from __future__ import annotations

import math
import statistics
from typing import NamedTuple

import cv2
import numpy as np

from vision.cards.edges import NEXT, PREVIOUS, RUNS_ON, aspects, line_quads, runs_on
from vision.cards.overlap import shared_area

DETECT_SIDE = 1100
"""Detection works on the frame halved (area-averaged, cheap at exact halves) until
its long side is at most this: a card of a 3x3 grid is still ~200 px there."""

CARD_SIZE = (200, 300)
"""Canonical portrait card (width, height) returned by :func:`warp_card`."""

MIN_AREA_FRACTION = 0.004
MAX_AREA_FRACTION = 0.9
"""A single-card photo may be mostly card; only a card cut by the frame edge is refused."""
MIN_RECTANGULARITY = 0.86
COVERED_RECTANGULARITY = 0.6
COVERED_SIZE = 1.25
"""A card with a corner covered (another card dropped on it) shows a region with a bite
out of it, less rectangular than a whole card; but its three visible corners still span
the whole card, so the minimum-area rectangle of what is seen is the card.  Such a
region (rectangularity at least COVERED_RECTANGULARITY) is taken only where nothing
whole was found, and only when its rectangle is within COVERED_SIZE times the area of
the whole cards found (cards of one game are the same size)."""
"""Contour area / its minimum-area rectangle: rounded corners and a little
perspective keep a real card above ~0.9; blobs of table texture fall far below."""

FIT_POINTS = 160
"""Contour points used to fit a card's sides: plenty for a straight line, and cheap."""

SAME_CARD_AREA = 0.7

BLOCK_AREA = 2.2
"""A candidate this many times the typical card's area is several cards seen as one;
one this many times smaller is not a card either."""
"""Two overlapping quads whose areas are within this ratio outline the same card."""

MAX_ASPECT = 1.85
"""Long side / short side; playing cards are ~1.4-1.6, tarot ~1.7, some are square.
A printed lozenge on a card (a SET oval is ~2.1) is not a card."""

TILTED_ASPECT = 2.0
"""Long side / short side of a quad found from lines: a 5:7 playing card seen 45
degrees off straight down, its long side across the tilt, looks 1.4 / cos 45 = 2.0 long."""

FIRM_EDGES = (30, 2)
FAINT_EDGES = (10, 2)
"""(low Canny threshold (the high one is 3x), pixels the edges are thickened by) of the
two edge maps.  The firm map's edges are thickened so a faint stretch of a card's
outline does not leave a gap for its region to leak through.  The faint map catches a
pale card on a pale table, whose outline is a step of a few grey levels.
Its outlines are looser, so it only adds cards the other maps missed (see
:func:`find_cards_scaled`).  Chosen on light-table variations of the enrol photos,
where it finds cards the firm map misses, with no card lost or added on the untouched
photos."""


def working_frame(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame halved until its long side is at most ``DETECT_SIDE``, and the factor
    back to full size.  Exact halves with INTER_AREA are cheap; an arbitrary factor
    costs ten times as much, which is why the scale is a power of two."""
    back = 1.0
    while max(frame.shape[:2]) > DETECT_SIDE:
        frame = cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        back *= 2.0
    return frame, back


def _region_maps(grey: np.ndarray, gradients: tuple[np.ndarray, np.ndarray]) -> list[tuple[np.ndarray, float]]:
    """Binary maps whose white regions may be cards, each with how far (pixels) its
    regions sit inside the true card outline: bright blobs (0), and areas enclosed by edges
    (the edges are thickened to close small gaps, which eats into the regions)."""
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return [(bright, 0.0), _edge_map(gradients, *FIRM_EDGES)]


def _gradients(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Sobel derivatives Canny would compute (same kernel and border), computed once
    for both edge maps."""
    return tuple(cv2.Sobel(grey, cv2.CV_16S, dx, 1 - dx, ksize=3, borderType=cv2.BORDER_REPLICATE) for dx in (1, 0))  # type: ignore[return-value]


def _edge_map(gradients: tuple[np.ndarray, np.ndarray], low: int, grow: int) -> tuple[np.ndarray, float]:
    """Areas enclosed by Canny edges (thickened by ``grow``), and their inset."""
    edges = cv2.dilate(cv2.Canny(*gradients, low, 3 * low), np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    return cv2.bitwise_not(edges), grow + 0.5


def _inflate(quad: np.ndarray, by: float) -> np.ndarray:
    """A (nearly rectangular) quad with every side pushed out by ``by`` pixels (in if negative)."""
    if by == 0:
        return quad
    centre = quad.mean(axis=0)
    out = quad - centre
    return (centre + out * (1.0 + by * np.sqrt(2.0) / np.linalg.norm(out, axis=1, keepdims=True))).astype(np.float32)


class Candidate(NamedTuple):
    """A card-shaped region: its quad and area, the contour it came from, and how well
    the contour fills the quad (1.0 = a perfect quadrilateral).  A quad found from
    lines (``lines``) has no region: its contour is the quad and its fit is how much of
    its sides shows an edge (see :mod:`vision.cards.edges`)."""

    quad: np.ndarray
    area: float
    outline: np.ndarray
    fit: float
    box: tuple[float, float, float, float]
    """Bounding box (x0, y0, x1, y1): most pairs of candidates are far apart, and
    comparing boxes in plain Python is far cheaper than intersecting polygons."""
    inset: float
    """How far inside the card's true outline the contour runs (see _region_maps)."""
    covered: bool
    """Card-sized but with a bite out of it: see COVERED_RECTANGULARITY."""
    lines: bool = False
    seen: np.ndarray | None = None
    """For a quad completed from three sides (see :func:`vision.cards.edges.completed`),
    the part of it seen: another card may lie over the rest."""


def _candidate(contour: np.ndarray, frame_area: float, inset: float) -> Candidate | None:
    """The card a contour outlines, or None when it is not card-shaped.

    A card seen at a slant is a trapezoid, not a rectangle: the area it leaves in its
    minimum-area rectangle falls with the tilt (a 40-degree view of a whole card fills
    ~0.8 of it, so it passed for a covered card).  So a contour whose hull simplifies to
    a plausible card quad (see :func:`_perspective_card`) is judged by how well it fills
    that quad; only other shapes are judged against their rectangle."""
    area = cv2.contourArea(contour)
    if not MIN_AREA_FRACTION * frame_area <= area <= MAX_AREA_FRACTION * frame_area:
        return None
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(approx) == 4 and cv2.isContourConvex(approx) and _perspective_card(approx.reshape(4, 2)):
        quad = approx.reshape(4, 2).astype(np.float32)
        if area / max(float(cv2.contourArea(quad)), 1.0) >= MIN_RECTANGULARITY:
            return _made(quad, area, contour, inset, covered=False)
    rect = cv2.minAreaRect(hull)  # the same rectangle as the contour's, and far fewer points
    (rw, rh) = rect[1]
    if min(rw, rh) <= 0 or area / (rw * rh) < COVERED_RECTANGULARITY:
        return None
    covered = area / (rw * rh) < MIN_RECTANGULARITY
    if max(rw, rh) / min(rw, rh) > MAX_ASPECT:
        return None
    if len(approx) == 4 and cv2.isContourConvex(approx) and not covered:
        quad = approx.reshape(4, 2).astype(np.float32)
    else:  # rounded, chipped or covered corners: the bounding rectangle is the honest outline
        quad = cv2.boxPoints(rect).astype(np.float32)
    return _made(quad, area, contour, inset, covered)


MIN_CORNER_ANGLE = 50.0
"""Smallest corner angle (degrees) of a card seen at a slant: a rectangle viewed from
45 degrees off straight down, turned any way, keeps every corner above ~55."""


def _perspective_card(quad: np.ndarray) -> bool:
    """True when a convex quad could be a card seen at up to ~45 degrees (see
    :func:`_perspective_cards`)."""
    return bool(_perspective_cards(quad.reshape(1, 4, 2))[0])


def _perspective_cards(quads: np.ndarray, max_aspect: float = MAX_ASPECT) -> np.ndarray:
    """Which convex quads (Q x 4 x 2) could be cards seen at up to ~45 degrees: no
    corner sharper than MIN_CORNER_ANGLE, and mean long side / mean short side (a
    foreshortened card's aspect) within MAX_ASPECT."""
    pts = quads.astype(np.float64)
    sides = pts[:, NEXT] - pts
    lengths = np.hypot(sides[..., 0], sides[..., 1])
    before = sides[:, PREVIOUS]
    with np.errstate(divide="ignore", invalid="ignore"):
        cos = -(sides * before).sum(axis=2) / (lengths * lengths[:, PREVIOUS])
    sharpest = np.degrees(np.arccos(np.clip(cos, -1, 1))).min(axis=1)
    return (lengths.min(axis=1) >= 4) & (sharpest >= MIN_CORNER_ANGLE) & (aspects(lengths) <= max_aspect)


def _made(quad: np.ndarray, area: float, contour: np.ndarray, inset: float, covered: bool) -> Candidate:
    quad_area = max(float(cv2.contourArea(quad)), 1.0)
    fit = area / quad_area
    xs, ys = quad[:, 0].tolist(), quad[:, 1].tolist()  # plain floats: numpy's min/max cost more on 4 points
    box = (min(xs), min(ys), max(xs), max(ys))
    return Candidate(quad, quad_area, contour, min(fit, 1.0 / fit), box, inset, covered)


def _fit_sides(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Corners re-made by fitting a line to each side's contour points and intersecting
    neighbouring lines.  Polygon approximation puts a corner somewhere on a card's
    rounded corner; the straight middles of the sides say where the corner really is.

    Four corners are too few for numpy to pay its way: the corner arithmetic is plain
    float32 scalars (the same precision as before), the arrays only hold the outline."""
    points = points.reshape(-1, 2)[:: max(1, len(points) // FIT_POINTS)].astype(np.float32)
    sides = quad[NEXT] - quad  # side i runs from corner i to corner i+1
    lengths = np.hypot(sides[:, 0], sides[:, 1])
    if lengths.min() < 4:
        return quad
    rel = points[None, :, :] - quad[:, None, :]  # 4 x N x 2
    along = np.einsum("snk,sk->sn", rel, sides) / (lengths * lengths)[:, None]
    across = np.abs(rel[..., 0] * sides[:, None, 1] - rel[..., 1] * sides[:, None, 0]) / lengths[:, None]
    near = (along > 0.15) & (along < 0.85) & (across < np.maximum(3.0, 0.04 * lengths)[:, None])
    if near.sum(axis=1).min() < 5:
        return quad
    lines = [cv2.fitLine(points[near[i]], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel() for i in range(4)]
    corners = []
    for (ux, uy, px, py), (vx, vy, qx, qy) in zip(lines[-1:] + lines[:-1], lines, strict=False):
        det = vx * uy - ux * vy
        if abs(det) < 1e-6:
            return quad
        s = ((qx - px) * -vy + vx * (qy - py)) / det
        corners.append((px + s * ux, py + s * uy))
    fitted = np.array(corners, dtype=np.float32)
    if np.abs(fitted - quad).max() > 0.1 * math.sqrt(cv2.contourArea(quad)):
        return quad  # the fit wandered off (a bite out of a side): keep the polygon
    return fitted


def _overlap(a: Candidate, b: Candidate) -> float:
    """Intersection over the smaller area of two candidates' quads."""
    ax0, ay0, ax1, ay1 = a.box
    bx0, by0, bx1, by1 = b.box
    if ax0 >= bx1 or bx0 >= ax1 or ay0 >= by1 or by0 >= ay1:  # apart: the common case
        return 0.0
    return shared_area(a.quad, b.quad) / max(1e-6, min(a.area, b.area))


def _greedy_distinct(cands: list[Candidate]) -> list[Candidate]:
    """One candidate per overlapping group.  Of two outlines of about the same size the
    one that fits its quad better wins (a card whose edge touched a neighbour's, or a
    bright blob bleeding onto a glare, fits worse), unless the larger was found firmly
    from lines (see FIRM_LINES); otherwise the larger wins, because a picture printed
    on a card lies inside the card."""
    kept: list[Candidate] = []
    for cand in sorted(cands, key=lambda c: c.area, reverse=True):
        clash = next((i for i, other in enumerate(kept) if _overlap(cand, other) >= 0.5), None)
        if clash is None:
            kept.append(cand)
        elif cand.area >= SAME_CARD_AREA * kept[clash].area and _better(cand, kept[clash]):
            kept[clash] = cand
    return kept


SAME_OUTLINE = 0.9
"""A region's outline and a quad from lines within this area ratio are one outline
found both ways: the region's is kept (its sides are fitted to the whole contour, and
it is what the descriptor was tuned on)."""


def _better(smaller: Candidate, larger: Candidate) -> bool:
    """Whether ``smaller`` should replace ``larger``, of about the same size, as the
    outline of one card (see :func:`_greedy_distinct`): the better fit, except that a
    firm quad from lines (see FIRM_LINES) gives way to no smaller outline (that is the
    card's printed border), and takes the place of a larger region only when the
    region fills its quad poorly (it bled into a shadow or a neighbour)."""
    if smaller.lines != larger.lines and smaller.area >= SAME_OUTLINE * larger.area:
        return larger.lines
    if smaller.lines and not larger.lines:  # a support and a fill are not comparable
        return _firm(smaller) and larger.fit < FIRM_LINES
    return smaller.fit > larger.fit and not _firm(larger)


FIRM_LINES = 0.9
"""Side support (see :mod:`vision.cards.edges`) above which a quad found from lines is
not given up for a slightly smaller outline that fits its region better: its sides are
on edges all round, so the smaller one is the card's printed border or picture."""


def _firm(cand: Candidate) -> bool:
    return cand.lines and cand.fit >= FIRM_LINES


def _is_merge(cand: Candidate, cands: list[Candidate]) -> bool:
    """True when ``cand`` is two or more touching cards seen as one blob: it holds at
    least two distinct card-sized candidates, each a sizeable part of it and reaching
    its outline (a picture printed on a card keeps clear of the card's edge).  A quad
    found from lines is no blob: its four sides were seen meeting at its corners (and
    the picture and text box printed on a card can fill it up to a few pixels)."""
    if cand.lines:
        return False
    parts = [
        c
        for c in cands
        if 0.2 * cand.area <= c.area <= 0.75 * cand.area and _overlap(cand, c) > 0.8 and not _printed(c, cand)
    ]
    return len(_greedy_distinct(parts)) >= 2


PRINT_MARGIN = 0.04
"""How far (times the square root of its area) inside a candidate every corner of a
smaller one must lie for the smaller to be printed on it rather than a card of it: a
card of a blob has corners on the blob's outline (the maps' insets are a few pixels);
a card's picture frame or text box has a margin of a tenth of the card's width or more."""


def _printed(part: Candidate, whole: Candidate) -> bool:
    """True when every corner of ``part`` lies well inside ``whole`` (see PRINT_MARGIN)
    and ``whole`` is a card: it fits its quad well (FIRM_LINES, as a fill or as a
    support), or ``part`` is a sizeable part of it (a fifth or more).  A loose quad
    holding small card-shaped things is table or blob, and the things may be cards;
    a card's own printed shapes (a SET card's diamonds) are small and inset too."""
    if part.area < 0.2 * whole.area and whole.fit < FIRM_LINES:
        return False
    margin = max(4.0, PRINT_MARGIN * math.sqrt(whole.area))
    outline = whole.quad.reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(outline, (float(x), float(y)), True) >= margin for x, y in part.quad.tolist())


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    """One candidate per card; a blob made of several touching cards gives way to its parts.

    Cards of one game are the same size, so when several cards are found, one far
    larger than the typical card and holding other cards (see :func:`_holds_cards`) is a
    block of cards seen as one (say a card dropped across four others): it is set aside
    and what lies inside it gets its chance.  One far larger that holds nothing but its
    own print is a card on a table whose pattern was found too (the squares of a tiled
    board are smaller than cards and many).  One far smaller is a picture printed on a
    card whose outline was missed."""
    cands = [c for c in cands if not _is_merge(c, cands)]
    while True:
        kept = _greedy_distinct(cands)
        blocks = {id(c) for c in kept if _holds_cards(c, cands)}
        if blocks:
            cands = [c for c in cands if id(c) not in blocks]
            continue
        if len(kept) < 3:
            return kept
        typical = statistics.median(c.area for c in kept)
        return [c for c in kept if c.area * BLOCK_AREA >= typical]


def _holds_cards(cand: Candidate, cands: list[Candidate]) -> bool:
    """True when two or more distinct candidates BLOCK_AREA times smaller lie (mostly)
    in ``cand`` that are not printed on it (see :func:`_printed`).  A quad found firmly
    from lines (see FIRM_LINES) holds none: its sides are a card's, and what is printed
    on it may come nearer its edge than PRINT_MARGIN."""
    if _firm(cand):
        return False
    parts = [
        c for c in cands if c.area * BLOCK_AREA <= cand.area and _overlap(cand, c) >= 0.5 and not _printed(c, cand)
    ]
    return len(_greedy_distinct(parts)) >= 2


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise (in image coordinates) starting at the top end of a long side,
    so the card reads as portrait; which end is 'top' is settled later by matching.

    (Plain Python on the four corners: numpy's per-call cost was most of this.)"""
    pts = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    xy = pts.tolist()
    cx, cy = sum(x for x, _ in xy) / 4.0, sum(y for _, y in xy) / 4.0
    order = sorted(
        range(4), key=lambda i: math.atan2(xy[i][1] - cy, xy[i][0] - cx)
    )  # clockwise on screen (y grows downwards)
    start = min(range(4), key=lambda k: xy[order[k]][0] + xy[order[k]][1])  # the top-left-most corner
    order = order[start:] + order[:start]
    (x0, y0), (x1, y1), (x2, y2) = (xy[i] for i in order[:3])
    if math.hypot(x1 - x0, y1 - y0) > math.hypot(x2 - x1, y2 - y1):
        order = order[1:] + order[:1]  # first edge must be a short (top) side
    return pts[order]


def find_cards(frame: np.ndarray) -> list[np.ndarray]:
    """Card quads (4x2 float32, full-frame pixels, portrait-ordered), top-to-bottom, left-to-right."""
    small, back = working_frame(frame)
    return [q * back for q in find_cards_scaled(small)]


def find_cards_scaled(small: np.ndarray) -> list[np.ndarray]:
    """:func:`find_cards` on a frame already at working scale (coordinates of ``small``)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    frame_area = float(grey.shape[0] * grey.shape[1])
    gradients = _gradients(grey)
    cands = [c for region, inset in _region_maps(grey, gradients) for c in _candidates(region, frame_area, inset)]
    cands = _not_pattern(cands, gradients)
    faint, inset = _edge_map(gradients, *FAINT_EDGES)
    faint_cands = _candidates(faint, frame_area, inset)
    cands += _line_candidates(grey, gradients, frame_area, [c.quad for c in cands + faint_cands if not c.covered])
    kept = _dedupe([c for c in cands if not c.covered])
    faint_kept = _dedupe([c for c in faint_cands if not c.covered])
    kept = _regions_first(faint_kept, kept)
    kept += _missed(faint_kept, kept, BLOCK_AREA)
    if kept:
        kept += _missed(_dedupe([c for c in cands + faint_cands if c.covered]), kept, COVERED_SIZE)
    cards = [order_corners(_inflate(_fit_sides(c.quad, c.outline), c.inset)) for c in kept]
    return sorted(cards, key=lambda q: (float(q[:, 1].mean()), float(q[:, 0].mean())))


def _candidates(region: np.ndarray, frame_area: float, inset: float) -> list[Candidate]:
    """The card-shaped boundaries of one binary map's regions.

    A region's outer boundary runs ``inset`` inside the card's outline; the boundary of
    a hole in a region (the table around a card's thickened edge, in an edge map) runs
    as far outside it, on the other side of the edge."""
    contours, hierarchy = cv2.findContours(region, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    shortest = 4.0 * math.sqrt(MIN_AREA_FRACTION * frame_area)  # contours list every boundary pixel
    found = (
        _candidate(contour, frame_area, -inset if parent >= 0 else inset)
        for contour, parent in zip(contours, hierarchy[0][:, 3].tolist(), strict=False)
        if len(contour) >= shortest
    )
    return [c for c in found if c is not None]


def _regions_first(regions: list[Candidate], kept: list[Candidate]) -> list[Candidate]:
    """``kept``, with each quad from lines that one of ``regions`` outlines too (about
    the same size, mostly on it) given up for that region: on a pale table the faint map
    finds the pale cards, and lines found there can run on into the gap between cards."""
    out = list(kept)
    for region in regions:
        same = [
            i
            for i, k in enumerate(out)
            if _overlap(region, k) >= 0.5 and min(region.area, k.area) >= SAME_CARD_AREA * max(region.area, k.area)
        ]
        if len(same) == 1 and out[same[0]].lines:
            out[same[0]] = region
    return out


def _missed(extra: list[Candidate], kept: list[Candidate], size: float) -> list[Candidate]:
    """Cards of ``extra`` that overlap none of ``kept`` and, when cards were already
    found, are within ``size`` times their area (cards of one game are the same size)."""
    typical = statistics.median(c.area for c in kept) if kept else 0.0
    shown = [k if k.seen is None else _made(k.seen, k.area, k.seen, 0.0, False) for k in kept]  # see Candidate.seen
    return [
        c
        for c in extra
        if all(_overlap(c, k) < 0.2 for k in shown)
        and (not kept or typical <= c.area * size and c.area <= typical * size)
    ]


def warp_card(frame: np.ndarray, quad: np.ndarray, size: tuple[int, int] = CARD_SIZE) -> np.ndarray:
    """The card inside ``quad`` straightened to a portrait ``size`` (width, height) image.

    The first corner of ``quad`` becomes the top-left of the result; corners go clockwise.
    """
    return cv2.warpPerspective(
        frame, card_transform(quad, size), size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )  # INTER_AREA is linear here anyway


def card_transform(quad: np.ndarray, size: tuple[int, int] = CARD_SIZE) -> np.ndarray:
    """The homography :func:`warp_card` straightens ``quad`` with (frame to card pixels)."""
    w, h = size
    src = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _not_pattern(cands: list[Candidate], gradients: tuple[np.ndarray, np.ndarray]) -> list[Candidate]:
    """The candidates that are not squares of a tiled or checked table (see
    :data:`vision.cards.edges.RUNS_ON`)."""
    if not cands:
        return cands
    runs = runs_on(np.stack([_inflate(c.quad, c.inset) for c in cands]), gradients)
    return [c for c, run in zip(cands, runs.tolist(), strict=True) if run < RUNS_ON]


def _line_candidates(
    grey: np.ndarray, gradients: tuple[np.ndarray, np.ndarray], frame_area: float, outlined: list[np.ndarray]
) -> list[Candidate]:
    """Card-shaped quads whose sides are straight lines of the image (see
    :mod:`vision.cards.edges`): cards on a patterned table or cut by another card
    (``outlined``: the quads of cards the regions outline well, which a card completed
    from three sides must not overlap)."""
    shortest = math.sqrt(MIN_AREA_FRACTION * frame_area / MAX_ASPECT)
    low, high = MIN_AREA_FRACTION * frame_area, MAX_AREA_FRACTION * frame_area

    def card_like(quads: np.ndarray) -> np.ndarray:
        pts = quads.astype(np.float64)
        nxt = pts[:, NEXT]
        area = np.abs((pts[..., 0] * nxt[..., 1] - nxt[..., 0] * pts[..., 1]).sum(axis=1)) / 2  # shoelace
        return (low <= area) & (area <= high) & _perspective_cards(quads, TILTED_ASPECT)

    return [
        _made(quad, float(cv2.contourArea(quad)), quad, 0.0, covered=False)._replace(fit=support, lines=True, seen=seen)
        for quad, support, seen in line_quads(grey, gradients, shortest, card_like, outlined)
    ]
