"""Finding cards from their straight sides, where no region outlines them.

On a patterned table (tiles, plaid, wood grain) or where cards overlap, a card's outline
is not a closed region of either map :mod:`vision.cards.detect` looks at: the pattern
leaks into it, or the card underneath is cut in two.  Its sides are still straight
lines that end at its corners.  So line segments (OpenCV's LSD) are joined where
two of them meet end to end at a corner, chains of three corners around four
segments become quads (the fourth corner may be hidden under another card: it is
where the two free lines cross), and a quad is kept only when the image shows an
edge along most of each of its four sides.

A card whose far end lies under another card shows three sides meeting at two
corners: it is completed (see :func:`completed`) to the shape the cards found whole in
the frame have, when what it shows is not another card's and the edge across it is
the edge of something lying over it.

What is card-shaped (size, corners, aspect) is judged by the caller, which merges
these quads with the regions' (see :func:`vision.cards.detect.find_cards_scaled`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from vision.cards.overlap import same_place, shared_area

MIN_SEGMENT = 0.35
"""Shortest segment used, as a fraction of the smallest card side the finder accepts:
a card's side, however much of it shows, is rarely shorter; texture strokes mostly are."""
LSD_SCALE = 1.0
"""LSD looks at the working frame itself (its default first shrinks it to 0.8): the
working frame is already small, and a card side lost in the shrink is a card lost."""
LINE_SIDE = 800
"""Lines are looked for on the working frame halved until its long side is at most this
(LSD's cost grows with the pixels; a card filling a ninth of the frame keeps sides of
a hundred pixels and more)."""
PIECE = 16.0
"""LSD pieces shorter than this (px) are not joined into lines: they are texture."""
MAX_SEGMENTS = 160
"""The longest segments kept (after joining): a cluttered working frame has a few
hundred, and the quads are searched among pairs of them."""
JOIN_ANGLE = 3.0
JOIN_OFFSET = 2.0
JOIN_GAP = 8.0
"""Two segments are one line when their directions differ by under JOIN_ANGLE degrees,
each end of the shorter lies within JOIN_OFFSET px of the longer's line and the gap
between them is under JOIN_GAP px (LSD breaks a side where the texture crosses it)."""
CORNER_REACH = 0.12
CORNER_SLACK = 6.0
"""Two segments meet at a corner when their lines cross within CORNER_REACH of either's
length (plus CORNER_SLACK px, a card's rounded corner) beyond or inside one end of each."""
CORNER_ANGLES = (50.0, 130.0)
"""Angles (degrees) two sides of a card seen at up to ~45 degrees meet at (see
:data:`vision.cards.detect.MIN_CORNER_ANGLE`)."""
EDGE_STEP = 24
"""Least gradient (3x3 Sobel of the blurred grey, across the side) counted as an edge:
a step of ~6 grey levels."""
ACROSS = 2.0
"""The gradient must point across the side (at least this many times its component
along it, within ~27 degrees): a table's texture has edges every way."""
SIDE_SUPPORT = 0.6
WEAKEST_SUPPORT = 0.35
"""A quad is a card when at least SIDE_SUPPORT of the length of three of its sides, and
WEAKEST_SUPPORT of the fourth, shows an edge across it: a card partly covered loses
part of one or two sides; lines of a table's pattern rarely close up that well."""
MAX_QUADS = 4000
"""Quads checked per frame at most (chains are enumerated longest segments first)."""


def segments(grey: np.ndarray, shortest: float) -> np.ndarray:
    """Line segments (N x 4: x0, y0, x1, y1) at least ``shortest`` px long, broken
    pieces of one line joined, longest first."""
    scale = 1.0
    while max(grey.shape[:2]) > LINE_SIDE:
        grey = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        scale *= 2.0
    found = _LSD.detect(grey)[0]
    if found is None:
        return np.zeros((0, 4), np.float32)
    segs = found.reshape(-1, 4) * np.float32(scale)
    segs = segs[_lengths(segs) >= max(PIECE, 0.5 * shortest)]
    segs = _joined(segs[np.argsort(-_lengths(segs))])
    segs = segs[_lengths(segs) >= shortest]
    return segs[np.argsort(-_lengths(segs))][:MAX_SEGMENTS]


_LSD = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD, LSD_SCALE)


def _lengths(segs: np.ndarray) -> np.ndarray:
    return np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])


def _joined(segs: np.ndarray) -> np.ndarray:
    """Collinear pieces (see JOIN_ANGLE) merged into one segment spanning them all."""
    n = len(segs)
    if n < 2:
        return segs
    p = segs[:, :2].astype(np.float64)
    u = segs[:, 2:] - p
    length = np.hypot(u[:, 0], u[:, 1])
    u /= np.maximum(length, 1e-9)[:, None]
    sin = math.sin(math.radians(JOIN_ANGLE))
    i, j = np.nonzero(np.triu(np.abs(np.outer(u[:, 0], u[:, 1]) - np.outer(u[:, 1], u[:, 0])) <= sin, 1))
    ok = _collinear(segs, p, u, length, i, j)
    i, j = i[ok], j[ok]
    if not len(i):
        return segs
    group = list(range(n))
    for a, b in zip(i.tolist(), j.tolist(), strict=True):
        a, b = _root(group, a), _root(group, b)
        group[max(a, b)] = min(a, b)
    roots = np.array([_root(group, k) for k in range(n)])
    alone = np.bincount(roots, minlength=n)[roots] == 1
    out = [segs[alone]]
    for r in np.unique(roots[~alone]):
        members = np.nonzero(roots == r)[0]
        base, d = p[r], u[r]  # the longest member (segments come longest first)
        t = (np.concatenate([segs[members, :2], segs[members, 2:]]) - base) @ d
        out.append(np.concatenate([base + t.min() * d, base + t.max() * d])[None].astype(np.float32))
    return np.concatenate(out)


def _collinear(
    segs: np.ndarray, p: np.ndarray, u: np.ndarray, length: np.ndarray, i: np.ndarray, j: np.ndarray
) -> np.ndarray:
    """Which parallel pairs (i, j) lie on one line, each near the other's ends (see JOIN_OFFSET)."""
    ok = np.ones(len(i), bool)
    for a, b in ((i, j), (j, i)):  # b's ends seen from a's line
        rel0, rel1 = p[b] - p[a], segs[b, 2:] - p[a]
        off = np.maximum(np.abs(_cross2(u[a], rel0)), np.abs(_cross2(u[a], rel1)))
        t0, t1 = (rel0 * u[a]).sum(-1), (rel1 * u[a]).sum(-1)
        lo, hi = np.minimum(t0, t1), np.maximum(t0, t1)
        ok &= (off <= JOIN_OFFSET) & (lo <= length[a] + JOIN_GAP) & (hi >= -JOIN_GAP)
    return ok


def _cross2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _root(group: list[int], i: int) -> int:
    while group[i] != i:
        group[i] = group[group[i]]
        i = group[i]
    return i


def corners(segs: np.ndarray) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """For each (segment, end 0 or 1), the (segment, end) it meets at a corner."""
    p = segs[:, :2].astype(np.float64)
    d = segs[:, 2:].astype(np.float64) - p
    length = np.hypot(d[:, 0], d[:, 1])
    u = d / length[:, None]
    cross = u[:, None, 0] * u[None, :, 1] - u[:, None, 1] * u[None, :, 0]  # sin of the angle i->j
    steep = np.abs(cross) >= math.sin(math.radians(CORNER_ANGLES[0]))
    diff = p[None, :, :] - p[:, None, :]  # p_j - p_i
    with np.errstate(divide="ignore", invalid="ignore"):
        ti = (diff[..., 0] * u[None, :, 1] - diff[..., 1] * u[None, :, 0]) / cross  # along i (px)
        tj = (diff[..., 0] * u[:, None, 1] - diff[..., 1] * u[:, None, 0]) / cross  # along j (px)
    reach = CORNER_REACH * length + CORNER_SLACK
    end_i = _end(ti, length[:, None], reach[:, None])
    end_j = _end(tj, length[None, :], reach[None, :])
    meet = steep & (end_i >= 0) & (end_j >= 0)
    np.fill_diagonal(meet, False)
    links: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, j in zip(*np.nonzero(meet), strict=True):
        links.setdefault((int(i), int(end_i[i, j])), []).append((int(j), int(end_j[i, j])))
    return links


def _end(t: np.ndarray, length: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """0 or 1 when position ``t`` along a segment is within ``reach`` of its start or
    end, else -1."""
    out = np.full(t.shape, -1, np.int8)
    out[np.abs(t) <= reach] = 0
    out[np.abs(t - length) <= reach] = 1
    return out


def chains(links: dict[tuple[int, int], list[tuple[int, int]]]) -> set[tuple[int, int, int, int]]:
    """Four segments in order around a quad, joined by at least three corners."""
    found: set[tuple[int, int, int, int]] = set()
    for (s2, e2), firsts in links.items():
        if e2 != 0:
            continue
        for s3, e3 in links.get((s2, 1), []):
            for s4, _ in links.get((s3, 1 - e3), []):
                for s1, _ in firsts:
                    if len({s1, s2, s3, s4}) == 4:
                        found.add(_canonical((s1, s2, s3, s4)))
                        if len(found) >= MAX_QUADS:
                            return found
    return found


def _canonical(cycle: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """One name for a cycle however it is entered or walked."""
    rots = [cycle[k:] + cycle[:k] for k in range(4)]
    rots += [tuple(reversed(r)) for r in rots]  # type: ignore[misc]
    return min(rots)  # type: ignore[return-value]


def quads_of(segs: np.ndarray, cycles: np.ndarray) -> np.ndarray:
    """The corners where consecutive lines of each cycle (C x 4 segment indices) cross
    (C x 4 x 2; NaN where two lines are parallel)."""
    a = segs[cycles].astype(np.float64).reshape(*cycles.shape, 2, 2)  # C x 4 x end x (x, y)
    return _crossing(a, np.roll(a, -1, axis=1)).astype(np.float32)  # corner k: side k meets side k+1


SAMPLES = 24
"""Points looked at along each side (its middle 90%): enough to tell half from most."""


def side_support(quads: np.ndarray, gradients: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """For each side of each quad (Q x 4 x 2), the fraction of its length where the
    image shows an edge along it (see :func:`_edge_fraction`); a side whose edges mostly
    step the other way than the quad's other sides' (see ONE_WAY) counts as none."""
    p = quads.astype(np.float64)
    support, _, lighter = _edge_fraction(p, p[:, NEXT], gradients)
    clockwise = ((p[..., 0] * p[:, NEXT, 1] - p[:, NEXT, 0] * p[..., 1]).sum(axis=1) > 0)[:, None]
    outward = np.where(clockwise, 1.0 - lighter, lighter)  # edges lighter outside the quad (normals point in)
    way = np.median(outward, axis=1, keepdims=True) >= 0.5
    against = np.where(way, outward, 1.0 - outward) < 1.0 - ONE_WAY
    return np.where(against, 0.0, support)


ONE_WAY = 0.7
"""A card is lighter (or darker) than the table all round; a side along which most edges
step the other way is another card's edge, seen across the gap between them."""


NEXT = [1, 2, 3, 0]
PREVIOUS = [3, 0, 1, 2]
"""Index of each corner's clockwise neighbour and the one before it (np.roll costs ten
times more)."""


def _edge_fraction(
    p: np.ndarray, q: np.ndarray, gradients: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For segments from ``p`` to ``q`` (any shape ... x 2), the fraction of their middle
    90% where the gradient across them, on them or a pixel either way, is at least
    EDGE_STEP and points across them (see ACROSS; outside the frame counts as no edge),
    the fraction of it inside the frame, and the fraction of those edges that grow
    lighter towards the segments' left (image coordinates: the side (-dy, dx) points to)."""
    gx, gy = gradients
    h, w = gx.shape
    along = q - p
    length = np.maximum(np.hypot(along[..., 0], along[..., 1]), 1e-9)
    normal = np.stack([-along[..., 1], along[..., 0]], axis=-1) / length[..., None]
    t = np.linspace(0.05, 0.95, SAMPLES).reshape((1,) * (p.ndim - 1) + (SAMPLES, 1))
    base = p[..., None, :] + t * along[..., None, :]  # ... x S x 2
    nx, ny = normal[..., None, 0], normal[..., None, 1]
    best = np.zeros(base.shape[:-1])
    signed = np.zeros(base.shape[:-1])
    seen = (base[..., 0] >= 0) & (base[..., 0] < w) & (base[..., 1] >= 0) & (base[..., 1] < h)
    for off in (-1.0, 0.0, 1.0):
        xy = np.rint(base + off * normal[..., None, :]).astype(np.int64)
        xs, ys = np.clip(xy[..., 0], 0, w - 1), np.clip(xy[..., 1], 0, h - 1)
        dx, dy = gx[ys, xs], gy[ys, xs]
        step = dx * nx + dy * ny
        across, lengthwise = np.abs(step), np.abs(dx * ny - dy * nx)
        inside = (xy[..., 0] >= 0) & (xy[..., 0] < w) & (xy[..., 1] >= 0) & (xy[..., 1] < h)
        value = np.where(inside & (across >= ACROSS * lengthwise), across, 0.0)
        signed = np.where(value > best, step, signed)
        best = np.maximum(best, value)
    edge = best >= EDGE_STEP
    lighter = (edge & (signed > 0)).sum(axis=-1) / np.maximum(edge.sum(axis=-1), 1)
    return edge.mean(axis=-1), seen.mean(axis=-1), lighter


RUN_ON = (0.03, 0.2)
RUNS_ON = 3
"""A card's sides stop at its corners; the lines of a tiled or checked table run on
through them.  Each side is looked at past each of its ends, from RUN_ON[0] to
RUN_ON[1] of its length further (a card's rounded corner leaves no edge there, and
cards laid out in a grid have a wider gap between them); a quad whose sides show an
edge (SIDE_SUPPORT of what is inside the frame) on RUNS_ON or more of those eight
stretches is the table's pattern, not a card.  A stretch mostly outside the frame
counts half: a quad of the table's lines often has its corners at the frame's edge."""


def runs_on(quads: np.ndarray, gradients: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """How many of each quad's sides' eight continuations past its corners show an edge
    (see RUNS_ON)."""
    p = quads.astype(np.float64)
    along = p[:, NEXT] - p  # side k, corner k to k+1
    near, far = RUN_ON
    runs = np.zeros(len(p))
    for start, end in ((p + (1 + near) * along, p + (1 + far) * along), (p - near * along, p - far * along)):
        edge, inside, _ = _edge_fraction(start, end, gradients)
        shown = inside >= 0.5
        runs += (shown & (edge >= SIDE_SUPPORT * inside)).sum(axis=1) + 0.5 * (~shown).sum(axis=1)
    return runs


def supported(support: np.ndarray) -> np.ndarray:
    """Which quads' side support (Q x 4) says card (see SIDE_SUPPORT)."""
    ranked = np.sort(support, axis=1)
    return (ranked[:, 0] >= WEAKEST_SUPPORT) & (ranked[:, 1] >= SIDE_SUPPORT)


SAME_QUAD = 0.8
"""Quads overlapping this much (intersection over union) are one card found twice."""


def line_quads(
    grey: np.ndarray,
    gradients: tuple[np.ndarray, np.ndarray],
    shortest_side: float,
    card_like: Callable[[np.ndarray], np.ndarray],
    outlined: list[np.ndarray] | None = None,
) -> list[tuple[np.ndarray, float, np.ndarray | None]]:
    """Quads whose four sides are lines of the image and that ``card_like`` (Q x 4 x 2 to
    Q booleans) accepts, each
    with its mean side support; of quads that are one card found twice, the better
    supported."""
    segs = segments(grey, MIN_SEGMENT * shortest_side)
    links = corners(segs)
    cycles = chains(links)
    if not cycles:
        return []
    quads = quads_of(segs, np.array(sorted(cycles), np.int64))
    quads = quads[np.isfinite(quads).all(axis=(1, 2))]
    quads = quads[card_like(quads)]
    quads = quads[[cv2.isContourConvex(quad.reshape(-1, 1, 2)) for quad in quads]]
    if not len(quads):
        return []
    support = side_support(quads, gradients)
    scores = support.mean(axis=1)
    keep = supported(support)
    keep[keep] = runs_on(quads[keep], gradients) < RUNS_ON
    found = _distinct([(quad, float(score)) for quad, score, ok in zip(quads, scores, keep, strict=True) if ok])
    firm = [quad for quad, score in found if score >= FIRM]
    ratio = _typical_aspect(firm)
    if ratio is None:
        return [(quad, score, None) for quad, score in found]
    done, seen = completed(segs, links, ratio)
    if len(done):
        typical = float(np.median([abs(cv2.contourArea(quad)) for quad in firm]))
        area = np.abs(_shoelace(done))
        fits = card_like(done) & (area <= SIZES * typical) & (area * SIZES >= typical)
        done, seen = done[fits], seen[fits]
    if not len(done):
        return [(quad, score, None) for quad, score in found]
    support = side_support(done, gradients)
    ok = (support[:, 1] >= SIDE_SUPPORT) & (support[:, [0, 2]].min(axis=1) >= WEAKEST_SUPPORT)
    ok &= support[:, 3] < SIDE_SUPPORT
    ok[ok] = runs_on(done[ok], gradients) < RUNS_ON
    added: list[tuple[np.ndarray, float]] = []
    shown: list[np.ndarray] = []
    for i in np.nonzero(ok)[0][np.argsort(-support[ok].mean(axis=1), kind="stable")]:
        if any(same_place(done[i], other) for other, _ in added):
            continue
        parts = _seen_parts(done[i], seen[i], found, list(outlined or []), gradients, ratio)
        if parts is not None:
            found = [f for k, f in enumerate(found) if k not in parts]
            added.append((done[i], COMPLETED))
            shown.append(seen[i])
    return [(quad, score, None) for quad, score in found] + [(q, c, v) for (q, c), v in zip(added, shown, strict=True)]


def _area(quad: np.ndarray) -> float:
    return abs(float(cv2.contourArea(quad)))


def _seen_parts(
    quad: np.ndarray,
    seen: np.ndarray,
    found: list[tuple[np.ndarray, float]],
    outlined: list[np.ndarray],
    gradients: tuple[np.ndarray, np.ndarray],
    ratio: float,
) -> set[int] | None:
    """Which of ``found`` are the part of completed ``quad`` left showing (they share
    its two seen corners, and their fourth side is the edge of something lying across
    the card: it runs on past both their corners), or None when ``quad`` is no card:
    another outline (of ``found`` or ``outlined``) lies over the part of it that was
    seen (``seen``: what a card lying over its far end may hide is only the rest), or
    one that shares its seen corners is a whole card (it ends in a side of its own, or
    has the cards' typical aspect: the guess was too long)."""
    a, b = quad[1].astype(np.float64), quad[2].astype(np.float64)
    tol = max(3.0, SHARED_CORNER * float(np.hypot(*(b - a))))
    seen_area = _area(seen)
    parts = set()
    others = [other for other, _ in found] + outlined
    for i, other in enumerate(others):
        o = other.astype(np.float64)
        near_a = np.hypot(*(o - a).T) <= tol
        near_b = np.hypot(*(o - b).T) <= tol
        if near_a.any() and near_b.any():
            ia, ib = int(np.argmax(near_a)), int(np.argmax(near_b))
            rest = [k for k in range(4) if k not in (ia, ib)]
            whole = abs(math.log(_typical_aspect([other]) / ratio)) < math.log(WHOLE_ASPECT)  # type: ignore[operator]
            if whole or len(rest) != 2 or not _runs_past(o[rest[0]], o[rest[1]], gradients):
                return None
            if i < len(found):
                parts.add(i)
        elif shared_area(seen, other) >= OVER_SEEN * min(seen_area, _area(other)):
            return None
    return parts


OVER_SEEN = 0.2
"""Share of the seen part of a completed quad (or of the other outline, when smaller)
that another outline may cover: the edges of neighbours touching it, no more."""
WHOLE_ASPECT = 1.12
"""A quad within this factor of the cards' typical aspect is a whole card, not the part
of one left showing (a card 60-80% visible is a fifth to two fifths shorter)."""
SHARED_CORNER = 0.08
"""How near (times the seen side's length) two quads' corners are to be one corner."""


def _runs_past(p: np.ndarray, q: np.ndarray, gradients: tuple[np.ndarray, np.ndarray]) -> bool:
    """Whether the line from ``p`` to ``q`` shows an edge past both of its ends (see
    RUN_ON): the edge of something lying across the card's far end."""
    along = q - p
    near, far = RUN_ON
    ends = np.stack([np.stack([q + near * along, p - near * along]), np.stack([q + far * along, p - far * along])])
    edge, inside, _ = _edge_fraction(ends[0], ends[1], gradients)
    return bool(((inside >= 0.5) & (edge >= SIDE_SUPPORT * inside)).all())


SIZES = 2.2
"""A completed quad is at most this many times larger or smaller than the firm quads'
median area: cards of one game are one size, and perspective changes it less."""
FIRM = 0.9
"""Side support of the quads whose shape says what shape the cards are (see
:func:`completed`)."""
COMPLETED = 0.9
"""The support a completed quad is given: firm (see :data:`vision.cards.detect.FIRM_LINES`),
so that the visible part of the card gives way to it."""
SEEN_PAST = 0.05
"""How far (times its length) a completed side may fall short of a segment seen along it."""


def _shoelace(quads: np.ndarray) -> np.ndarray:
    """Signed areas of quads (Q x 4 x 2)."""
    p = quads.astype(np.float64)
    return _cross2(p, p[:, NEXT]).sum(axis=1) / 2


def _typical_aspect(quads: list[np.ndarray]) -> float | None:
    """The median aspect of ``quads`` (see ``aspects``), or None."""
    if not quads:
        return None
    p = np.stack(quads).astype(np.float64)
    return float(np.median(aspects(np.hypot(*(p[:, NEXT] - p).transpose(2, 0, 1)))))


def aspects(lengths: np.ndarray) -> np.ndarray:
    """Each quad's mean long side over its mean short side, from its side lengths
    (Q x 4, clockwise): a card's aspect as the camera foreshortens it (inf for a quad
    with two sides of no length).  Lengths, not corners, because the finder's shape
    check has them already."""
    a, b = lengths[:, 0] + lengths[:, 2], lengths[:, 1] + lengths[:, 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.maximum(a, b) / np.minimum(a, b)


def completed(
    segs: np.ndarray, links: dict[tuple[int, int], list[tuple[int, int]]], ratio: float
) -> tuple[np.ndarray, np.ndarray]:
    """Quads (Q x 4 x 2: the far corner on the first side, the two seen corners, the
    far corner on the third) for three sides seen meeting at two corners, the fourth
    hidden: a card with its far end under another.  The two free sides are made
    ``ratio`` (or 1 / ``ratio``) times the side between the corners long, along their
    lines (a parallelogram's guess at the perspective), and never shorter than what of
    them was seen.  With them, the part of each that was seen (Q x 4 x 2: the free
    sides as far as their segments reach)."""
    rows = [
        (s1, e1, s2, s3, e3)
        for (s2, e2), firsts in links.items()
        if e2 == 0
        for s3, e3 in links.get((s2, 1), [])
        for s1, e1 in firsts
        if s1 != s3
    ]
    if not rows:
        return np.zeros((0, 4, 2), np.float32), np.zeros((0, 4, 2), np.float32)
    s1, e1, s2, s3, e3 = np.array(rows).T
    ends = segs.astype(np.float64).reshape(-1, 2, 2)  # segment x end x (x, y)
    a = _crossing(ends[s1], ends[s2])
    b = _crossing(ends[s2], ends[s3])
    width = np.hypot(*(b - a).T)
    u1, seen1 = _away(ends[s1], e1, a)
    u3, seen3 = _away(ends[s3], e3, b)
    base = b - a
    side1 = base[:, 0] * u1[:, 1] - base[:, 1] * u1[:, 0]
    side3 = base[:, 0] * u3[:, 1] - base[:, 1] * u3[:, 0]
    ok = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1) & (width >= 4)
    ok &= (side1 * side3 > 0) & (np.minimum(seen1, seen3) > 0)  # a U, not a Z
    seen = np.stack([a + seen1[:, None] * u1, a, b, b + seen3[:, None] * u3], axis=1)
    quads, parts = [], []
    for length in (width * ratio, width / ratio):
        fits = ok & (np.maximum(seen1, seen3) <= length * (1 + SEEN_PAST))
        far = length[:, None]
        quads.append(np.stack([a + far * u1, a, b, b + far * u3], axis=1)[fits])
        parts.append(seen[fits])
    return np.concatenate(quads).astype(np.float32), np.concatenate(parts).astype(np.float32)


def _crossing(s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Where the lines of segments ``s`` and ``t`` (... x 2 x 2) cross (... x 2; NaN if parallel)."""
    p, d = s[..., 0, :], s[..., 1, :] - s[..., 0, :]
    q, e = t[..., 0, :], t[..., 1, :] - t[..., 0, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        k = _cross2(q - p, e) / _cross2(d, e)
    return p + k[..., None] * d


def _away(seg: np.ndarray, end: np.ndarray, corner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The unit direction from ``corner`` along segments ``seg`` (N x 2 x 2) away from
    their end ``end`` (N: 0 or 1), and how far from the corner their other end lies."""
    rows = np.arange(len(seg))
    near, far = seg[rows, end], seg[rows, 1 - end]
    d = far - near
    u = d / np.maximum(np.hypot(*d.T), 1e-9)[:, None]
    return u, ((far - corner) * u).sum(axis=1)


def _distinct(scored: list[tuple[np.ndarray, float]]) -> list[tuple[np.ndarray, float]]:
    """Best supported first, dropping any quad that is one already kept (see SAME_QUAD)."""
    kept: list[tuple[np.ndarray, float, float, tuple[float, float, float, float]]] = []
    for quad, score in sorted(scored, key=lambda qs: -qs[1]):
        area = float(cv2.contourArea(quad))
        box = (float(quad[:, 0].min()), float(quad[:, 1].min()), float(quad[:, 0].max()), float(quad[:, 1].max()))
        if not any(
            _iou(quad, area, box, other, other_area, other_box) >= SAME_QUAD for other, _, other_area, other_box in kept
        ):
            kept.append((quad, score, area, box))
    return [(quad, score) for quad, score, _, _ in kept]


def _iou(
    a: np.ndarray, area_a: float, box_a: tuple[float, ...], b: np.ndarray, area_b: float, box_b: tuple[float, ...]
) -> float:
    if box_a[0] >= box_b[2] or box_b[0] >= box_a[2] or box_a[1] >= box_b[3] or box_b[1] >= box_a[3]:
        return 0.0
    inter = shared_area(a, b)
    return inter / max(area_a + area_b - inter, 1e-6)
