"""Drawn die faces for training the face classifier on dice the tray photos lack.

The 170 training photos hold a few dozen physical dice.  A face classifier trained on
them alone learns those dice: their colours, their pip sizes, their marbling.  Drawn
faces add what a table elsewhere will show: any body and pip colour (including pips
barely darker than the body), pips large or small, rounded or sharp corners, marbled
bodies, side faces showing their own pips when the die leans or the camera looks
obliquely, neighbours touching the die, and drop shadows.  Every drawn patch still
goes through the same colour, blur, noise and JPEG damage as the real patches.

Training-only (imported by ``train_dice.py``): the box never draws dice.
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from vision.dice.patch import MARGIN, PATCH

CANVAS = 128
"""Drawing size; the patch is this shrunk with area averaging, which anti-aliases pips."""

BOX = CANVAS / MARGIN
"""The die's axis-aligned box side in the canvas, as ``cut_patch`` frames a real die."""

LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
"""Pip positions in units of the pip spacing, as on a standard die."""


def _colour(rng: random.Random) -> np.ndarray:
    """A die body colour: saturated, pastel, white, black or grey."""
    kind = rng.random()
    if kind < 0.15:
        return np.array([rng.uniform(215, 255)] * 3) * np.array([rng.uniform(0.93, 1.0) for _ in range(3)])
    if kind < 0.3:
        return np.array([rng.uniform(10, 60)] * 3) + np.array([rng.uniform(0, 25) for _ in range(3)])
    hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(60, 255), rng.uniform(50, 255)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)


def _pip_colour(body: np.ndarray, rng: random.Random) -> np.ndarray:
    """Pips contrast with the body, usually strongly, sometimes faintly."""
    luma = float(body.mean())
    if rng.random() < 0.25:
        return _colour(rng)
    target = rng.uniform(0, 60) if luma > 120 else rng.uniform(190, 255)
    pip = np.array([target] * 3, np.float64)
    if rng.random() < 0.2:  # faint pips, as on marbled or translucent dice
        pip = body + (pip - body) * rng.uniform(0.35, 0.6)
    return pip


def _smooth_noise(rng: random.Random, cells: int) -> np.ndarray:
    """Low-frequency noise in [0, 1] over the canvas (marbling, uneven light)."""
    grid = np.random.default_rng(rng.randrange(1 << 30)).random((cells, cells)).astype(np.float32)
    return cv2.resize(grid, (CANVAS, CANVAS), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _square(cx: float, cy: float, side: float, angle: float, squash: tuple[float, float] = (1.0, 1.0)) -> np.ndarray:
    """Corners of a (squashed) square turned by ``angle`` radians about (cx, cy)."""
    c, s = math.cos(angle), math.sin(angle)
    pts = []
    for ex, ey in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = ex * side / 2 * squash[0], ey * side / 2 * squash[1]
        pts.append((cx + c * x - s * y, cy + s * x + c * y))
    return np.array(pts, np.float32)


def _face_mask(corners: np.ndarray, rounding: float) -> np.ndarray:
    """A filled quadrilateral with rounded corners (eroded then dilated)."""
    mask = np.zeros((CANVAS, CANVAS), np.uint8)
    cv2.fillPoly(mask, [np.round(corners * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    r = int(rounding)
    if r >= 1:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        mask = cv2.dilate(cv2.erode(mask, k), k)
    return mask.astype(np.float32) / 255.0


def _paint(canvas: np.ndarray, mask: np.ndarray, colour: np.ndarray | np.ndarray) -> None:
    """Alpha-blend a colour (or a colour image) into the canvas where mask is 1."""
    canvas *= 1.0 - mask[..., None]
    canvas += mask[..., None] * colour


def _draw_pips(
    canvas: np.ndarray,
    face: int,
    cx: float,
    cy: float,
    side: float,
    angle: float,
    colour: np.ndarray,
    rng: random.Random,
    squash: tuple[float, float] = (1.0, 1.0),
) -> None:
    """The face's pips, laid out on the (possibly foreshortened) square."""
    spacing = side * rng.uniform(0.24, 0.3)
    radius = side * rng.uniform(0.065, 0.11)
    c, s = math.cos(angle), math.sin(angle)
    mask = np.zeros((CANVAS, CANVAS), np.uint8)
    for u, v in LAYOUT[face]:
        x, y = u * spacing * squash[0], v * spacing * squash[1]
        px, py = cx + c * x - s * y, cy + s * x + c * y
        axes = (max(1, int(radius * squash[0] * 4)), max(1, int(radius * squash[1] * 4)))
        cv2.ellipse(mask, (int(px * 4), int(py * 4)), axes, math.degrees(angle), 0, 360, 255, -1, cv2.LINE_AA, shift=2)
    _paint(canvas, mask.astype(np.float32) / 255.0, colour)


def _background(rng: random.Random, real: np.ndarray | None) -> np.ndarray:
    """A table: a real crop when given, else a plain or textured colour with a gradient."""
    if real is not None and rng.random() < 0.6:
        return cv2.resize(real, (CANVAS, CANVAS)).astype(np.float64)
    base = _colour(rng) if rng.random() < 0.5 else np.array([rng.uniform(150, 240)] * 3)
    img = np.ones((CANVAS, CANVAS, 3)) * base
    img *= (0.8 + 0.4 * _smooth_noise(rng, 3))[..., None]
    if rng.random() < 0.4:  # cloth or wood texture
        img += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(3, 18), img.shape)
    return img


def _die(canvas: np.ndarray, face: int, cx: float, cy: float, side: float, angle: float, rng: random.Random) -> None:
    """One die seen from above, perhaps leaning: side faces first, then the top face."""
    body = _colour(rng)
    pip = _pip_colour(body, rng)
    rounding = side * rng.uniform(0.03, 0.18)
    if rng.random() < 0.5:  # drop shadow
        off = rng.uniform(0.05, 0.2) * side
        shadow = _face_mask(_square(cx + off, cy + off * rng.uniform(-1, 1), side * 1.05, angle), rounding)
        shadow = cv2.GaussianBlur(shadow, (0, 0), side * 0.08)
        canvas *= 1.0 - shadow[..., None] * rng.uniform(0.2, 0.5)
    if rng.random() < 0.4:  # leaning: one or two side faces show, foreshortened
        for k in rng.sample(range(4), rng.choice((1, 1, 2))):
            depth = rng.uniform(0.08, 0.4)
            a = angle + k * math.pi / 2
            nx, ny = math.cos(a), math.sin(a)
            scx, scy = cx + nx * side * (0.5 + depth / 2), cy + ny * side * (0.5 + depth / 2)
            corners = _square(scx, scy, side, a, (depth, 1.0))
            _paint(canvas, _face_mask(corners, rounding * depth), body * rng.uniform(0.45, 0.85))
            _draw_pips(canvas, rng.randint(1, 6), scx, scy, side, a, pip * rng.uniform(0.6, 1.0), rng, (depth, 1.0))
    top = _face_mask(_square(cx, cy, side, angle), rounding)
    colour = np.ones((CANVAS, CANVAS, 3)) * body
    if rng.random() < 0.3:  # marbled or swirled body
        colour = colour * (1 - (m := _smooth_noise(rng, rng.randint(3, 8))[..., None])) + m * _colour(rng)
    colour *= (0.85 + 0.3 * _smooth_noise(rng, 2))[..., None]  # uneven light on the face
    _paint(canvas, top, colour)
    if rng.random() < 0.5:  # the edge bevel catches light or shade
        edge = top - _face_mask(_square(cx, cy, side * 0.9, angle), rounding)
        canvas *= 1.0 - edge.clip(0, 1)[..., None] * rng.uniform(-0.3, 0.3)
    _draw_pips(canvas, face, cx, cy, side, angle, pip, rng)


def draw_face(
    face: int, rng: random.Random, real_background: np.ndarray | None = None, other_tables: float = 0.0
) -> np.ndarray:
    """A PATCH x PATCH BGR patch of a drawn die showing ``face`` (1-6), framed as
    ``cut_patch`` frames a die the detector found (box side = PATCH / MARGIN); on the
    tables ``draw_clutter`` uses (a dark felt, wood grain) with probability
    ``other_tables``: a dark die on a dark felt is a die by its body's edge, where a
    speck of fluff has none."""
    canvas = (
        _clutter_background(rng, real_background) if rng.random() < other_tables else _background(rng, real_background)
    )
    angle = rng.uniform(0, math.pi / 2)
    box = BOX * rng.uniform(0.85, 1.15)
    side = box / (abs(math.cos(angle)) + abs(math.sin(angle)))
    cx, cy = CANVAS / 2 + rng.uniform(-0.1, 0.1) * box, CANVAS / 2 + rng.uniform(-0.1, 0.1) * box
    if rng.random() < 0.3:  # a neighbour touching the die
        a = rng.uniform(0, 2 * math.pi)
        d = side * rng.uniform(1.0, 1.3)
        _die(
            canvas,
            rng.randint(1, 6),
            cx + d * math.cos(a),
            cy + d * math.sin(a),
            side * rng.uniform(0.85, 1.15),
            rng.uniform(0, math.pi / 2),
            rng,
        )
    _die(canvas, face, cx, cy, side, angle, rng)
    canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.5))
    return cv2.resize(np.clip(canvas, 0, 255).astype(np.uint8), (PATCH, PATCH), interpolation=cv2.INTER_AREA)


def _clutter_background(rng: random.Random, real: np.ndarray | None) -> np.ndarray:
    """A table for a not-a-die patch: a real crop, a dark felt with fibres, or a plain,
    textured or wood-grained colour (``_background``)."""
    if rng.random() < 0.35:  # a dark felt or cloth, where light specks stand out as pips
        base = np.array([rng.uniform(10, 70) for _ in range(3)])
        img = np.ones((CANVAS, CANVAS, 3)) * base * (0.85 + 0.3 * _smooth_noise(rng, 4))[..., None]
        fibres = np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(3, 10), (CANVAS, CANVAS))
        return img + cv2.GaussianBlur(fibres, (0, 0), rng.uniform(0.6, 1.5))[..., None]
    if rng.random() < 0.25:  # wood grain
        yy = np.mgrid[0:CANVAS, 0:CANVAS][0].astype(np.float64)
        a, period = rng.uniform(0, math.pi), rng.uniform(6, 30)
        xx = np.mgrid[0:CANVAS, 0:CANVAS][1].astype(np.float64)
        bend = 20 * _smooth_noise(rng, 3)
        rings = 0.5 + 0.5 * np.sin((math.cos(a) * yy + math.sin(a) * xx + bend) * 2 * math.pi / period)
        return _colour(rng) * (0.55 + 0.45 * rings)[..., None]
    return _background(rng, real)


def _blob(canvas: np.ndarray, cx: float, cy: float, r: float, colour: np.ndarray, rng: random.Random) -> None:
    """An irregular blob (a crumb, a chip of stone) of radius about r."""
    n = rng.randint(5, 9)
    pts = [
        (cx + r * rng.uniform(0.5, 1.0) * math.cos(a), cy + r * rng.uniform(0.5, 1.0) * math.sin(a))
        for a in np.linspace(0, 2 * math.pi, n + 1)[:-1] + rng.uniform(0, 1)
    ]
    cv2.fillPoly(canvas, [np.int32(np.round(np.array(pts) * 4))], colour.tolist(), cv2.LINE_AA, shift=2)


def _disc(canvas: np.ndarray, cx: float, cy: float, r: float, colour: np.ndarray, thickness: int = -1) -> None:
    cv2.circle(canvas, (int(cx * 4), int(cy * 4)), max(1, int(r * 4)), colour.tolist(), thickness, cv2.LINE_AA, shift=2)


def _light(rng: random.Random, table: np.ndarray) -> np.ndarray:
    """A colour that stands out from the table: light on a dark one, dark on a light one."""
    if rng.random() < 0.3:
        return _colour(rng)
    level = rng.uniform(150, 255) if float(table.mean()) < 120 else rng.uniform(0, 90)
    return np.array([level * rng.uniform(0.85, 1.0) for _ in range(3)])


def _clutter(canvas: np.ndarray, cx: float, cy: float, side: float, rng: random.Random) -> None:
    """One thing that is not a die, about where a die would lie: specks of fluff or dust
    (one to six, pip-sized or smaller, some in a die's pip layout), a crumb, a coin, a
    button with two or four holes, a printed dot or ring, or a pip-like mark seen through
    a gap (a ring of shadow around a light dot)."""
    x, y = int(np.clip(cx, 4, CANVAS - 4)), int(np.clip(cy, 4, CANVAS - 4))
    table = canvas[y - 4 : y + 4, x - 4 : x + 4].mean(axis=(0, 1))
    colour = _light(rng, table)
    kind = rng.random()
    if kind < 0.35:  # specks: the felt's light dots that read as a 1 or a 4
        dark = float(table.mean()) < 120
        count = rng.choice((1, 1, 1, 2, 3, 4, 5, 6)) if dark else rng.choice((1, 1, 2, 3))
        if dark and rng.random() < 0.4:  # in a face's layout, but with no die body around it
            spacing, a = side * rng.uniform(0.2, 0.35), rng.uniform(0, math.pi)
            spots = [
                (cx + spacing * (u * math.cos(a) - v * math.sin(a)), cy + spacing * (u * math.sin(a) + v * math.cos(a)))
                for u, v in LAYOUT[count]
            ]
        else:  # scattered wider than a face: on a light table a die face would show its edge
            spread = 0.5 if dark else 0.7
            spots = [
                (cx + rng.uniform(-spread, spread) * side, cy + rng.uniform(-spread, spread) * side)
                for _ in range(count)
            ]
        for x, y in spots:
            _disc(canvas, x, y, side * rng.uniform(0.03, 0.13), colour * rng.uniform(0.8, 1.0))
    elif kind < 0.55:  # a crumb or a chip, up to half a die
        _blob(canvas, cx, cy, side * rng.uniform(0.1, 0.5), colour * rng.uniform(0.6, 1.0), rng)
    elif kind < 0.85:  # a coin or a button about a die across
        r = side * rng.uniform(0.3, 0.6)
        metal = (
            _colour(rng)
            if rng.random() < 0.5
            else np.array([rng.uniform(60, 120), rng.uniform(120, 170), rng.uniform(150, 210)])
        )
        _disc(canvas, cx, cy, r, metal)
        _disc(canvas, cx, cy, r * rng.uniform(0.75, 0.9), metal * rng.uniform(0.6, 0.9), max(1, int(r / 10)))
        if rng.random() < 0.6:
            holes = rng.choice((2, 4))
            a0 = rng.uniform(0, math.pi)
            for k in range(holes):
                a = a0 + k * 2 * math.pi / holes
                _disc(canvas, cx + 0.3 * r * math.cos(a), cy + 0.3 * r * math.sin(a), r / 7, table)
    else:  # printed on the table: a dot or a ring the size of a pip or a die
        if rng.random() < 0.5:
            _disc(canvas, cx, cy, side * rng.uniform(0.06, 0.2), colour)
        else:
            _disc(canvas, cx, cy, side * rng.uniform(0.3, 0.5), colour, max(1, int(side * rng.uniform(0.04, 0.1))))


def draw_clutter(rng: random.Random, real_background: np.ndarray | None = None) -> np.ndarray:
    """A PATCH x PATCH BGR patch framed as ``cut_patch`` frames a detector candidate, of
    something that is not a die (see ``_clutter``), sometimes beside a die or more
    clutter: the detector fires on such things off the tray, and a face net that only
    ever saw a light dot as a pip on a die reads a speck of fluff as a 1."""
    canvas = _clutter_background(rng, real_background)
    side = BOX * rng.uniform(0.7, 1.3)
    cx, cy = CANVAS / 2 + rng.uniform(-0.15, 0.15) * side, CANVAS / 2 + rng.uniform(-0.15, 0.15) * side
    for _ in range(rng.choice((0, 0, 1, 2))):  # more clutter around
        a, d = rng.uniform(0, 2 * math.pi), side * rng.uniform(0.6, 1.2)
        _clutter(canvas, cx + d * math.cos(a), cy + d * math.sin(a), side * rng.uniform(0.6, 1.2), rng)
    if rng.random() < 0.15:  # a die beside it, not under the patch's middle
        a, d = rng.uniform(0, 2 * math.pi), side * rng.uniform(1.05, 1.3)
        _die(
            canvas,
            rng.randint(1, 6),
            cx + d * math.cos(a),
            cy + d * math.sin(a),
            side,
            rng.uniform(0, math.pi / 2),
            rng,
        )
    _clutter(canvas, cx, cy, side, rng)
    canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.5))
    return cv2.resize(np.clip(canvas, 0, 255).astype(np.uint8), (PATCH, PATCH), interpolation=cv2.INTER_AREA)
