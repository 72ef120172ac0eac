"""Cluttered card scenes generated from a seed: taught cards pasted onto textured tables
with other objects, overlaps, shadows, sleeves, glare and a camera tilted up to 45 degrees.

This is how card detectors are usually trained and tuned (paste known cards on varied
backgrounds); here it is a benchmark.  Each deck card is taught from one generated
photo of it alone on a plain table (:func:`teaching_photo`), then the scenes are read.

A scene is drawn on the table plane (a top-down canvas), then the whole plane is seen
through a pinhole camera tilted by 0-45 degrees, so cards, table and objects
foreshorten together.  What the truth knows of each card: its name (None for a card
never taught), its four corners in the photo and how much of it is visible (the rest
covered by later cards and objects or outside the photo).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from bench.card_faces import FACE_SIZE, deck_faces

FRAME = (1280, 960)
"""(width, height) of a scene photo."""
PLANE = (1700, 1300)
"""(width, height) of the table canvas the scene is drawn on, before the camera sees it."""
MAX_TILT = 45.0


@dataclass(frozen=True)
class Settings:
    """How a scene is drawn.  The reported scenes use DEFAULT; HELD_OUT draws from other
    ranges (cards smaller and larger, more overlap, more clutter, sleeves and glare more
    often), so a reader tuned to DEFAULT's quirks shows it there."""

    card_side: tuple[float, float] = (260.0, 380.0)
    """Range of a card's long side on the table plane (pixels)."""
    overlap: float = 0.4
    """Chance that a card is dropped onto one already there."""
    spread: float = 0.45
    """How far (times the long side) a dropped card lands from the card under it."""
    untaught: float = 0.12
    objects: tuple[int, int] = (1, 4)
    sleeves: float = 0.3
    glare: float = 0.35
    max_tilt: float = MAX_TILT


DEFAULT = Settings()
HELD_OUT = Settings(
    card_side=(200.0, 440.0), overlap=0.55, spread=0.6, untaught=0.2, objects=(2, 5), sleeves=0.5, glare=0.5
)


@dataclass(frozen=True)
class SceneCard:
    """One card pasted into a scene: name (None = never taught), corners in the photo
    (clockwise from the face's top-left) and the fraction of it left visible."""

    name: str | None
    corners: np.ndarray
    visible: float


@dataclass(frozen=True)
class Scene:
    image: np.ndarray
    cards: list[SceneCard]
    tilt: float
    table: str


# ----- tables ------------------------------------------------------------------------
def _noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> np.ndarray:
    """Smooth noise in 0..1 with features ~``scale`` px."""
    h, w = shape
    small = rng.random((max(2, int(h / scale)), max(2, int(w / scale)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _wood(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
    warp = 40 * _noise(rng, shape, 200)
    grain = 0.5 + 0.5 * np.sin((yy + warp) / rng.uniform(4, 9) + 6 * _noise(rng, shape, 60))
    base = np.float32(rng.choice([[40, 80, 140], [60, 110, 170], [30, 50, 90]]))
    img = base * (0.7 + 0.5 * grain[..., None]) + rng.normal(0, 4, (h, w, 1))
    return img.clip(0, 255).astype(np.uint8)


def _tiles(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A patterned board: coloured squares and hexagon-ish dots, thin dark lines."""
    h, w = shape
    step = int(rng.integers(60, 160))
    colours = rng.integers(20, 235, (4, 3))
    img = np.zeros((h, w, 3), np.uint8)
    for y in range(0, h, step):
        for x in range(0, w, step):
            img[y : y + step, x : x + step] = colours[rng.integers(0, 4)]
            if rng.random() < 0.5:
                cv2.circle(
                    img,
                    (x + step // 2, y + step // 2),
                    step // 3,
                    colours[rng.integers(0, 4)].tolist(),
                    -1,
                    cv2.LINE_AA,
                )
    for y in range(0, h, step):
        cv2.line(img, (0, y), (w, y), (20, 20, 20), 3)
    for x in range(0, w, step):
        cv2.line(img, (x, 0), (x, h), (20, 20, 20), 3)
    return img


def _cloth(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A woven or printed cloth: plaid stripes, or flowers on a plain ground."""
    h, w = shape
    base = rng.integers(30, 220, 3).astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    if rng.random() < 0.5:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(30, 90)
        plaid = (np.sin(xx / period * 2 * np.pi) > 0.6) | (np.sin(yy / period * 2 * np.pi) > 0.6)
        img[plaid] = img[plaid] * 0.6 + rng.integers(0, 256, 3) * 0.4
    else:
        for _ in range(int(h * w / 9000)):
            c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            colour = rng.integers(0, 256, 3).tolist()
            for k in range(5):
                a = 2 * math.pi * k / 5
                cv2.circle(img, (int(c[0] + 9 * math.cos(a)), int(c[1] + 9 * math.sin(a))), 6, colour, -1, cv2.LINE_AA)
    img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)  # the weave
    return img.clip(0, 255).astype(np.uint8)


def _felt(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    base = np.float32(rng.choice([[40, 110, 30], [120, 40, 30], [35, 35, 35], [200, 200, 200]]))
    speck = rng.normal(0, 10, (h, w, 1)) + 20 * (_noise(rng, shape, 300)[..., None] - 0.5)
    return (base + speck).clip(0, 255).astype(np.uint8)


TABLES = {"wood": _wood, "tiles": _tiles, "cloth": _cloth, "felt": _felt}


# ----- things on the table -----------------------------------------------------------
def _card_quad(rng: np.random.Generator, centre: np.ndarray, long_side: float) -> np.ndarray:
    """A card's corners on the plane (clockwise from its face's top-left), any rotation."""
    w, h = FACE_SIZE
    half = np.float32([[-w, -h], [w, -h], [w, h], [-w, h]]) * (long_side / h / 2)
    a = rng.uniform(0, 2 * math.pi)
    rot = np.float32([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return (half @ rot.T + centre).astype(np.float32)


def _shadow(canvas: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> None:
    """Darken the canvas under a blurred, shifted copy of ``mask`` (light from one side)."""
    shift = np.float32([[1, 0, rng.uniform(4, 14)], [0, 1, rng.uniform(4, 14)]])
    soft = cv2.GaussianBlur(cv2.warpAffine(mask, shift, mask.shape[::-1]), (0, 0), rng.uniform(3, 9))
    canvas[:] = (canvas * (1.0 - rng.uniform(0.3, 0.55) * soft[..., None] / 255.0)).astype(np.uint8)


def _paste(canvas: np.ndarray, labels: np.ndarray, image: np.ndarray, quad: np.ndarray, label: int) -> None:
    """Warp ``image`` onto ``quad`` of the canvas, over whatever is there."""
    h, w = image.shape[:2]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
    size = canvas.shape[1::-1]
    warped = cv2.warpPerspective(image, m, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size)
    alpha = mask[..., None] / 255.0
    canvas[:] = (warped * alpha + canvas * (1.0 - alpha)).astype(np.uint8)
    labels[mask > 127] = label


def _sleeved(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The card in a clear sleeve: a glossy plastic margin and a sheen across the face."""
    h, w = face.shape[:2]
    pad = int(0.05 * w)
    out = np.empty((h + 2 * pad, w + 2 * pad, 3), np.float32)
    out[:] = rng.integers(150, 230, 3)  # the table seen through plastic: a pale film
    out[pad : pad + h, pad : pad + w] = face
    yy, xx = np.mgrid[0 : out.shape[0], 0 : out.shape[1]].astype(np.float32)
    band = np.exp(-(((xx * 0.7 + yy * 0.7 - rng.uniform(0.3, 0.9) * (w + h)) / rng.uniform(15, 40)) ** 2))
    out = out * 0.93 + 18 + rng.uniform(40, 110) * band[..., None]
    return out.clip(0, 255).astype(np.uint8)


def _object(canvas: np.ndarray, labels: np.ndarray, rng: np.random.Generator) -> None:
    """Something else on the table: a phone, a glass, coins, a pen or a die."""
    h, w = canvas.shape[:2]
    c = np.array([rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h])
    mask = np.zeros((h, w), np.uint8)
    kind = rng.integers(0, 5)
    a = rng.uniform(0, 180)
    if kind == 0:  # phone: a dark rounded slab with a reflective screen
        box = cv2.boxPoints(((float(c[0]), float(c[1])), (160, 320), a)).astype(np.int32)
        cv2.fillConvexPoly(mask, box, 255, cv2.LINE_AA)
        _shadow(canvas, mask, rng)
        colour = rng.integers(10, 60, 3)
        canvas[mask > 0] = colour
        screen = cv2.boxPoints(((float(c[0]), float(c[1])), (140, 290), a)).astype(np.int32)
        cv2.fillConvexPoly(canvas, screen, (colour + rng.integers(20, 120)).clip(0, 255).tolist(), cv2.LINE_AA)
    elif kind == 1:  # a glass seen from above: a tinted ellipse, a bright rim
        axes = (int(rng.uniform(60, 100)),) * 2
        cv2.ellipse(mask, (int(c[0]), int(c[1])), axes, 0, 0, 360, 255, -1)
        tint = rng.uniform(0.5, 0.9, 3)
        region = mask > 0
        canvas[region] = (canvas[region] * tint + 40).clip(0, 255).astype(np.uint8)
        cv2.ellipse(canvas, (int(c[0]), int(c[1])), axes, 0, 0, 360, (235, 235, 235), 4, cv2.LINE_AA)
    elif kind == 2:  # coins
        for _ in range(int(rng.integers(2, 5))):
            p = c + rng.normal(0, 40, 2)
            r = int(rng.uniform(18, 30))
            cv2.circle(mask, (int(p[0]), int(p[1])), r, 255, -1)
            cv2.circle(canvas, (int(p[0]), int(p[1])), r, rng.integers(60, 200, 3).tolist(), -1, cv2.LINE_AA)
            cv2.circle(canvas, (int(p[0]), int(p[1])), r - 4, (230, 230, 210), 1, cv2.LINE_AA)
    elif kind == 3:  # a pen
        d = np.array([math.cos(math.radians(a)), math.sin(math.radians(a))]) * rng.uniform(120, 220)
        p0, p1 = (c - d).astype(int), (c + d).astype(int)
        cv2.line(mask, tuple(p0.tolist()), tuple(p1.tolist()), 255, 16)
        _shadow(canvas, mask, rng)
        cv2.line(canvas, tuple(p0.tolist()), tuple(p1.tolist()), rng.integers(0, 256, 3).tolist(), 16, cv2.LINE_AA)
    else:  # a die
        box = cv2.boxPoints(((float(c[0]), float(c[1])), (60, 60), a)).astype(np.int32)
        cv2.fillConvexPoly(mask, box, 255)
        _shadow(canvas, mask, rng)
        canvas[mask > 0] = rng.integers(150, 255, 3)
        for _ in range(int(rng.integers(1, 7))):
            q = c + rng.uniform(-18, 18, 2)
            cv2.circle(canvas, (int(q[0]), int(q[1])), 5, (20, 20, 20), -1, cv2.LINE_AA)
    labels[mask > 127] = -1


# ----- the camera --------------------------------------------------------------------
def camera(tilt: float, turn: float) -> np.ndarray:
    """Homography from the table plane (PLANE pixels) to the photo (FRAME pixels) of a
    pinhole camera tilted ``tilt`` degrees from looking straight down, turned ``turn``
    degrees about its axis, framed so the middle of the table fills the photo."""
    w, h = PLANE
    t, r = math.radians(tilt), math.radians(turn)
    rot_x = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    rot_z = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    rot = rot_x @ rot_z
    f = 1.2 * w
    plane_to_camera = np.column_stack([rot[:, 0], rot[:, 1], [0, 0, f]]) @ np.array(
        [[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]]
    )
    k = np.array([[f, 0, 0], [0, f, 0], [0, 0, 1]])
    project = k @ plane_to_camera
    middle = np.float32([[0.2 * w, 0.2 * h], [0.8 * w, 0.2 * h], [0.8 * w, 0.8 * h], [0.2 * w, 0.8 * h]])
    seen = cv2.perspectiveTransform(middle[None], project)[0]
    x0, y0 = seen.min(axis=0)
    x1, y1 = seen.max(axis=0)
    scale = min(FRAME[0] / (x1 - x0), FRAME[1] / (y1 - y0))
    fit = np.array(
        [[scale, 0, FRAME[0] / 2 - scale * (x0 + x1) / 2], [0, scale, FRAME[1] / 2 - scale * (y0 + y1) / 2], [0, 0, 1]]
    )
    return fit @ project


def _glare(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    blob = np.exp(-(((xx - cx) / (rng.uniform(0.08, 0.2) * w)) ** 2 + ((yy - cy) / (rng.uniform(0.06, 0.15) * h)) ** 2))
    return (image + rng.uniform(80, 160) * blob[..., None]).clip(0, 255).astype(np.uint8)


def _light(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven, tinted room light, sensor noise and a phone's JPEG."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.3, 0.3, 2)
    level = rng.uniform(0.75, 1.1) * (1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5))
    tint = np.float32(rng.uniform(0.85, 1.1, 3))
    out = image * level[..., None] * tint + rng.normal(0, rng.uniform(1, 5), image.shape)
    ok, jpeg = cv2.imencode(
        ".jpg", out.clip(0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 92))]
    )
    assert ok
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


# ----- a scene -----------------------------------------------------------------------
def scene(
    seed: int, taught: dict[str, np.ndarray], unknown: dict[str, np.ndarray], settings: Settings = DEFAULT
) -> Scene:
    """One cluttered photo: 3-6 cards (some overlapping, a few never taught), 1-3
    other objects, a patterned table, shadows, maybe sleeves and glare, tilt 0-45."""
    rng = np.random.default_rng(seed)
    table = list(TABLES)[seed % len(TABLES)]
    canvas = TABLES[table](rng, PLANE[::-1])
    labels = np.full(PLANE[::-1], -2, np.int32)
    tilt = float(rng.uniform(0, settings.max_tilt))
    homography = camera(tilt, float(rng.uniform(-30, 30)))
    names: list[str | None] = []
    quads: list[np.ndarray] = []
    sleeves = rng.random() < settings.sleeves
    pool = list(taught)
    for i in range(int(rng.integers(3, 7))):
        new = rng.random() < settings.untaught
        name = str(rng.choice(list(unknown))) if new else str(pool.pop(int(rng.integers(0, len(pool)))))
        face = (unknown if new else taught)[name]
        long_side = rng.uniform(*settings.card_side)
        if quads and rng.random() < settings.overlap:  # dropped onto another card, overlapping it
            near = quads[int(rng.integers(0, len(quads)))].mean(axis=0)
            centre = near + rng.normal(0, settings.spread * long_side, 2)
        else:
            centre = np.array([rng.uniform(0.25, 0.75) * PLANE[0], rng.uniform(0.25, 0.75) * PLANE[1]])
        quad = _card_quad(rng, centre, long_side)
        image = _sleeved(face, rng) if sleeves else face
        outline = _inflate_quad(quad, image.shape[1] / face.shape[1]) if sleeves else quad
        mask = np.zeros(labels.shape, np.uint8)
        cv2.fillConvexPoly(mask, outline.astype(np.int32), 255)
        _shadow(canvas, mask, rng)
        _paste(canvas, labels, image, outline, i)
        names.append(None if new else name)
        quads.append(quad)
    for _ in range(int(rng.integers(*settings.objects))):
        _object(canvas, labels, rng)
    photo = cv2.warpPerspective(canvas, homography, FRAME, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    seen = cv2.warpPerspective(labels, homography, FRAME, flags=cv2.INTER_NEAREST, borderValue=-3)
    if rng.random() < settings.glare:
        photo = _glare(photo, rng)
    photo = _light(photo, rng)
    cards = []
    for i, (name, quad) in enumerate(zip(names, quads, strict=True)):
        corners = cv2.perspectiveTransform(quad[None], homography)[0]
        area = abs(cv2.contourArea(corners))
        cards.append(SceneCard(name, corners, float(np.count_nonzero(seen == i)) / max(area, 1.0)))
    return Scene(photo, cards, tilt, table)


def _inflate_quad(quad: np.ndarray, factor: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return ((quad - centre) * factor + centre).astype(np.float32)


def teaching_photo(face: np.ndarray, seed: int) -> np.ndarray:
    """The one photo a card is taught from: alone on a plain table, slightly turned,
    from a camera nearly straight above, with a little noise."""
    rng = np.random.default_rng(seed)
    w, h = 900, 700
    photo = np.empty((h, w, 3), np.uint8)
    photo[:] = rng.integers(60, 120, 3)
    fw, fh = FACE_SIZE
    half = np.float32([[-fw, -fh], [fw, -fh], [fw, fh], [-fw, fh]]) * (480 / fh / 2)
    turn = cv2.getRotationMatrix2D((0, 0), rng.uniform(-8, 8), 1.0)[:, :2]
    quad = (half @ turn.T + np.float32([w / 2, h / 2])).astype(np.float32)
    labels = np.zeros((h, w), np.int32)
    _paste(photo, labels, face, quad, 0)
    return (photo + rng.normal(0, 2, photo.shape)).clip(0, 255).astype(np.uint8)


def scenes(count: int, seed: int = 25, settings: Settings = DEFAULT) -> tuple[dict[str, np.ndarray], list[Scene]]:
    """The taught faces and ``count`` scenes drawn from ``seed`` with ``settings``."""
    taught, unknown = deck_faces()
    return taught, [scene(seed * 1000 + i, taught, unknown, settings) for i in range(count)]
