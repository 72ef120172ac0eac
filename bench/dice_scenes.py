"""Real tray dice moved onto other tables and into phone-sized photos, labels moved along.

``bench.dice_variations`` changes the camera and the light; these change the table
and the scale, the conditions of issue 25's unseen photos: a speckled dark felt
with crumbs, coins and buttons on it, wood, woven cloth, a printed game board, a 45
degree view, and
phone photos of 2000-4000 px whose dice are 150-400 px across (one of them taken
at 45 degrees, as a player photographs the table from their seat), with sensor noise
and JPEG.  The dice are the test photos' own (real faces, real lighting); what is
drawn is only the table.

Each die is kept where its pixels differ from the tray around it (``die_mask``):
inside its label box, away from the tray colour measured on a ring just outside the
box, and always the box's middle, which every die covers whatever its turn.  The rest
of the photo (tray, tray walls, the desk) becomes the new table.  A die keeps a thin
halo of tray where the mask misses its shadow; the reader sees that too.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from bench.dice import Label
from bench.dice_variations import jpeg, tilt, warp

Scene = Callable[[np.ndarray, list[Label]], tuple[np.ndarray, list[Label]]]
TYPICAL_DIE = 41.0
"""The median label side of the test split's dice (px): scales below are set from it."""


def die_mask(frame: np.ndarray, labels: list[Label]) -> np.ndarray:
    """Float mask, 1 on the labelled dice and 0 elsewhere (see the module's docstring)."""
    h, w = frame.shape[:2]
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB).astype(np.float32)
    mask = np.zeros((h, w), np.float32)
    for d in labels:
        x0, y0, x1, y1 = _box(d, 0.55, w, h)
        ring = np.zeros((h, w), bool)
        rx0, ry0, rx1, ry1 = _box(d, 0.8, w, h)
        ring[ry0:ry1, rx0:rx1] = True
        ring[y0:y1, x0:x1] = False
        if not ring.any() or x1 <= x0 or y1 <= y0:
            continue
        tray = np.median(lab[ring], axis=0)
        distance = np.linalg.norm(lab[y0:y1, x0:x1] - tray, axis=2)
        alpha = np.clip((distance - 10.0) / 15.0, 0.0, 1.0)
        cx0, cy0, cx1, cy1 = _box(d, 0.28, w, h)
        alpha[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] = 1.0
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        alpha = cv2.morphologyEx(cv2.morphologyEx(alpha, cv2.MORPH_CLOSE, k), cv2.MORPH_OPEN, k)
        mask[y0:y1, x0:x1] = np.maximum(mask[y0:y1, x0:x1], alpha)
    return cv2.GaussianBlur(mask, (0, 0), 0.8)


def _box(d: Label, half: float, w: int, h: int) -> tuple[int, int, int, int]:
    """The square of half-side ``half`` times the die's side around its centre, clipped."""
    r = half * d.size
    return max(int(d.x - r), 0), max(int(d.y - r), 0), min(int(d.x + r) + 1, w), min(int(d.y + r) + 1, h)


def _noise(shape: tuple[int, int], rng: np.random.Generator, cell: float) -> np.ndarray:
    """Smooth noise in [0, 1] with features about ``cell`` pixels across."""
    h, w = shape
    grid = rng.random((max(2, int(h / cell) + 2), max(2, int(w / cell) + 2))).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def felt(shape: tuple[int, int], labels: list[Label], rng: np.random.Generator) -> np.ndarray:
    """A dark felt with fibres and light specks, crumbs, coins and buttons on it,
    none of them over a die (at least a die's side from every labelled centre)."""
    h, w = shape
    base = np.array([rng.uniform(25, 45), rng.uniform(25, 40), rng.uniform(25, 40)], np.float32)
    img = np.ones((h, w, 3), np.float32) * base * (0.85 + 0.3 * _noise(shape, rng, 60))[..., None]
    img += cv2.GaussianBlur(rng.normal(0, 7, (h, w)).astype(np.float32), (0, 0), 0.7)[..., None]
    size = float(np.median([d.size for d in labels])) if labels else TYPICAL_DIE
    for _ in range(int(rng.integers(25, 60))):
        x, y = _free_spot(rng, w, h, labels, size)
        if x is None:
            continue
        colour = rng.uniform(150, 250) * np.array([1.0, rng.uniform(0.9, 1.0), rng.uniform(0.85, 1.0)])
        kind = rng.random()
        if kind < 0.65:  # a speck of fluff or dust, pip-sized or smaller
            cv2.circle(img, (x, y), max(1, int(size * rng.uniform(0.03, 0.12))), colour.tolist(), -1, cv2.LINE_AA)
        elif kind < 0.85:  # a crumb: an irregular light blob up to a third of a die
            r = size * rng.uniform(0.08, 0.3)
            pts = [
                (x + r * rng.uniform(0.5, 1) * math.cos(a), y + r * rng.uniform(0.5, 1) * math.sin(a))
                for a in np.linspace(0, 2 * math.pi, 7)[:-1]
            ]
            cv2.fillPoly(img, [np.int32(pts)], (colour * rng.uniform(0.6, 0.9)).tolist(), cv2.LINE_AA)
        else:  # a coin or a button (two or four holes), about a die across
            r = int(size * rng.uniform(0.35, 0.55))
            metal = np.array([rng.uniform(60, 120), rng.uniform(120, 170), rng.uniform(150, 210)])
            cv2.circle(img, (x, y), r, metal.tolist(), -1, cv2.LINE_AA)
            cv2.circle(img, (x, y), max(1, int(r * 0.85)), (metal * 0.8).tolist(), max(1, r // 10), cv2.LINE_AA)
            if rng.random() < 0.5:
                holes = 2 if rng.random() < 0.5 else 4
                for k in range(holes):
                    a = k * 2 * math.pi / holes + math.pi / 4
                    centre = (int(x + 0.3 * r * math.cos(a)), int(y + 0.3 * r * math.sin(a)))
                    cv2.circle(img, centre, max(1, r // 7), base.tolist(), -1, cv2.LINE_AA)
    return img


def _free_spot(
    rng: np.random.Generator, w: int, h: int, labels: list[Label], size: float
) -> tuple[int, int] | tuple[None, None]:
    """A random point at least 1.2 die sides from every labelled die, or (None, None)."""
    for _ in range(20):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        if all(math.hypot(x - d.x, y - d.y) > 1.2 * max(d.size, size) for d in labels):
            return x, y
    return None, None


def wood(shape: tuple[int, int], labels: list[Label], rng: np.random.Generator) -> np.ndarray:
    """Planks of wood: growth rings bent by smooth noise, in a brown from pale to dark."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    bend = 40.0 * _noise(shape, rng, 120)
    rings = 0.5 + 0.5 * np.sin((yy + bend) * 2 * math.pi / rng.uniform(8, 20))
    grain = rings * 0.6 + 0.4 * _noise(shape, rng, 4)
    pale = np.array([rng.uniform(90, 150), rng.uniform(140, 190), rng.uniform(180, 230)], np.float32)
    img = pale * (0.55 + 0.45 * grain)[..., None]
    plank = int(rng.uniform(90, 180))
    img[(xx.astype(np.int32) % plank) < 2] *= 0.45  # the gaps between planks
    return img


def cloth(shape: tuple[int, int], labels: list[Label], rng: np.random.Generator) -> np.ndarray:
    """A woven cloth in a saturated colour: a fine weave and soft folds."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2.5, 5.0)
    weave = 0.5 + 0.25 * (np.sin(xx * 2 * math.pi / period) + np.sin(yy * 2 * math.pi / period))
    hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(120, 230), rng.uniform(110, 200)]]])
    colour = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    folds = 0.75 + 0.35 * _noise(shape, rng, 150)
    return colour * (folds * (0.85 + 0.3 * weave))[..., None]


def board(shape: tuple[int, int], labels: list[Label], rng: np.random.Generator) -> np.ndarray:
    """A printed game board: coloured squares, some with printed dots and rings the
    size of pips and dice, and a printed line across."""
    h, w = shape
    size = float(np.median([d.size for d in labels])) if labels else TYPICAL_DIE
    cell = int(size * rng.uniform(1.5, 3.0))
    palette = [
        cv2.cvtColor(
            np.uint8([[[rng.uniform(0, 180), rng.uniform(40, 200), rng.uniform(120, 240)]]]), cv2.COLOR_HSV2BGR
        )[0, 0]
        for _ in range(4)
    ]
    img = np.zeros((h, w, 3), np.float32)
    for y in range(0, h, cell):
        for x in range(0, w, cell):
            img[y : y + cell, x : x + cell] = palette[int(rng.integers(0, len(palette)))]
            mark = rng.random()
            centre = (x + cell // 2, y + cell // 2)
            ink = palette[int(rng.integers(0, len(palette)))].astype(float) * 0.5
            if mark < 0.25:  # a printed dot, pip-sized
                cv2.circle(img, centre, max(1, int(size * 0.1)), ink.tolist(), -1, cv2.LINE_AA)
            elif mark < 0.4:  # a printed ring, die-sized
                cv2.circle(img, centre, int(size * 0.4), ink.tolist(), max(1, int(size * 0.06)), cv2.LINE_AA)
    cv2.line(img, (0, h // 3), (w, h // 3), (40, 40, 40), max(1, int(size * 0.08)), cv2.LINE_AA)
    return img


Table = Callable[[tuple[int, int], list[Label], np.random.Generator], np.ndarray]


def on_table(frame: np.ndarray, labels: list[Label], table: Table, seed: int) -> tuple[np.ndarray, list[Label]]:
    """The photo's dice on a new table (the rest of the photo replaced by it)."""
    rng = np.random.default_rng(seed)
    alpha = die_mask(frame, labels)[..., None]
    ground = table(frame.shape[:2], labels, rng)
    out = frame.astype(np.float32) * alpha + ground * (1.0 - alpha)
    return np.clip(out, 0, 255).astype(np.uint8), labels


def phone(
    frame: np.ndarray, labels: list[Label], die: float, size: tuple[int, int], seed: int
) -> tuple[np.ndarray, list[Label]]:
    """The photo scaled so that its dice are ``die`` px across, its middle cut to
    ``size`` (w, h), with a phone's sensor noise and JPEG at quality 85."""
    s = die / TYPICAL_DIE
    fh, fw = frame.shape[:2]
    m = np.array([[s, 0, (size[0] - fw * s) / 2], [0, s, (size[1] - fh * s) / 2]], np.float64)
    out, moved = warp(frame, labels, m, size)
    return jpeg(noisy(out, seed, 4.0), 85), moved


def from_afar(
    frame: np.ndarray, labels: list[Label], table: Table, die: float, size: tuple[int, int], seed: int
) -> tuple[np.ndarray, list[Label]]:
    """A phone photo of the whole table from standing height: the dice ``die`` px
    across in a ``size`` (w, h) frame, the table drawn over all of it, sensor noise and
    JPEG at quality 85.  Such dice are 1-2% of the frame, far below what the detector
    sees at its first look."""
    s = die / TYPICAL_DIE
    fh, fw = frame.shape[:2]
    m = np.array([[s, 0, (size[0] - fw * s) / 2], [0, s, (size[1] - fh * s) / 2]], np.float64)
    out, moved = on_table(*warp(frame, labels, m, size), table, seed)
    return jpeg(noisy(out, seed, 4.0), 85), moved


def noisy(frame: np.ndarray, seed: int, sigma: float) -> np.ndarray:
    """Sensor noise: independent Gaussian noise of ``sigma`` grey levels per channel."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(0, sigma, frame.shape).astype(np.float32)
    return np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def _seed(labels: list[Label]) -> int:
    """A seed fixed per photo (from its labels), so every run draws the same tables."""
    return int(sum(d.x * 7 + d.y * 13 for d in labels)) % (1 << 31)


SCENES: dict[str, Scene] = {
    "speckled dark felt": lambda f, labels: on_table(f, labels, felt, _seed(labels)),
    "wood table": lambda f, labels: on_table(f, labels, wood, _seed(labels)),
    "cloth table": lambda f, labels: on_table(f, labels, cloth, _seed(labels)),
    "printed game board": lambda f, labels: on_table(f, labels, board, _seed(labels)),
    "speckled felt, 45 degree view": lambda f, labels: tilt(*on_table(f, labels, felt, _seed(labels)), 45),
    "wood, 45 degree view": lambda f, labels: tilt(*on_table(f, labels, wood, _seed(labels)), 45),
    "noise and jpeg 60": lambda f, labels: (jpeg(noisy(f, _seed(labels), 8.0), 60), labels),
    "cloth, 2400x1800 phone (dice ~150 px)": lambda f, labels: phone(
        *on_table(f, labels, cloth, _seed(labels)), 150, (2400, 1800), _seed(labels)
    ),
    "wood, 4000x3000 phone (dice ~250 px)": lambda f, labels: phone(
        *on_table(f, labels, wood, _seed(labels)), 250, (4000, 3000), _seed(labels)
    ),
    "felt, 4000x3000 phone (dice ~400 px)": lambda f, labels: phone(
        *on_table(f, labels, felt, _seed(labels)), 400, (4000, 3000), _seed(labels)
    ),
    "wood, 3000x2250 phone, 45 degree view (dice ~300 px)": lambda f, labels: phone(
        *tilt(*on_table(f, labels, wood, _seed(labels)), 45), 300, (3000, 2250), _seed(labels)
    ),
    "cloth, 2400x1800 phone from afar (dice ~30 px)": lambda f, labels: from_afar(
        f, labels, cloth, 30, (2400, 1800), _seed(labels)
    ),
    "wood, 4000x3000 phone from afar (dice ~50 px)": lambda f, labels: from_afar(
        f, labels, wood, 50, (4000, 3000), _seed(labels)
    ),
}
