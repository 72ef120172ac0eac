"""Illustrated card faces drawn with OpenCV from a seed, for the cluttered-scene bench.

Two kinds, because they fail a reader in different ways:
* game cards with art: a framed picture (sky, hills, sun, random shapes), a title and
  a few lines of "rules" text; every card looks unlike the others in texture;
* playing cards: a rank and suit in two corners and a pip layout (or a picture for
  J, Q, K); cards of one suit share every mark and differ only in how many and where,
  so a reader that names by texture alone confuses them.

Everything is drawn here, from the seed, at bench time: no image file is committed or
downloaded, and the faces are this repository's own work under its MIT licence.
"""

from __future__ import annotations

import cv2
import numpy as np

FACE_SIZE = (250, 350)
"""(width, height) of a drawn face, a playing card's 5:7."""

SUITS = {"H": ((40, 40, 200), "heart"), "S": ((30, 30, 30), "spade"), "D": ((40, 40, 200), "diamond")}
RANKS = ("A", "3", "5", "7", "9", "J", "Q", "K")
TAUGHT_PLAYING = [f"{r}{s}" for s in ("H", "S") for r in RANKS]
UNKNOWN_PLAYING = ["4H", "8S", "7D"]
"""Never taught: two are look-alikes of taught cards (one pip more or less, same suit),
one a taught rank in an untaught suit."""
ART_CARDS = 28
UNKNOWN_ART = 5

_SYLLABLES = ("ka", "lo", "mir", "tha", "ven", "os", "dra", "gul", "is", "pen", "ru", "zel", "mon", "ar", "fi")


def _pip(face: np.ndarray, centre: tuple[float, float], size: float, suit: str, upside_down: bool = False) -> None:
    """One suit symbol, ``size`` px tall, centred at ``centre``."""
    colour, shape = SUITS[suit]
    x, y = centre
    s = size / 2
    flip = -1 if upside_down else 1
    if shape == "diamond":
        pts = np.array([[x, y - s], [x + 0.7 * s, y], [x, y + s], [x - 0.7 * s, y]], np.int32)
        cv2.fillConvexPoly(face, pts, colour, cv2.LINE_AA)
        return
    lobe = 0.5 * s
    lobe_y = y - flip * 0.25 * s
    if shape == "heart":
        for dx in (-lobe, lobe):
            cv2.circle(face, (int(x + dx * 0.95), int(lobe_y)), int(lobe), colour, -1, cv2.LINE_AA)
        tip = np.array(
            [[x - 1.9 * lobe, lobe_y + flip * 0.2 * s], [x + 1.9 * lobe, lobe_y + flip * 0.2 * s], [x, y + flip * s]]
        )
        cv2.fillConvexPoly(face, tip.astype(np.int32), colour, cv2.LINE_AA)
        return
    # spade: an upside-down heart with a stem
    lobe_y = y + flip * 0.2 * s
    for dx in (-lobe, lobe):
        cv2.circle(face, (int(x + dx * 0.95), int(lobe_y)), int(lobe), colour, -1, cv2.LINE_AA)
    tip = np.array(
        [[x - 1.9 * lobe, lobe_y - flip * 0.2 * s], [x + 1.9 * lobe, lobe_y - flip * 0.2 * s], [x, y - flip * s]]
    )
    cv2.fillConvexPoly(face, tip.astype(np.int32), colour, cv2.LINE_AA)
    stem = np.array([[x, lobe_y], [x - 0.45 * s, y + flip * s], [x + 0.45 * s, y + flip * s]])
    cv2.fillConvexPoly(face, stem.astype(np.int32), colour, cv2.LINE_AA)


_PIP_LAYOUTS = {
    "A": [(0.5, 0.5)],
    "3": [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    "4": [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
    "5": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)],
    "7": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    "8": [(0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.5, 0.65), (0.3, 0.8), (0.7, 0.8)],
    "9": [(0.3, 0.2), (0.7, 0.2), (0.3, 0.4), (0.7, 0.4), (0.5, 0.5), (0.3, 0.6), (0.7, 0.6), (0.3, 0.8), (0.7, 0.8)],
}


def _paper(rng: np.random.Generator) -> np.ndarray:
    w, h = FACE_SIZE
    tone = rng.integers(225, 250)
    face = np.full((h, w, 3), tone, np.uint8)
    face[..., 0] = max(0, tone - rng.integers(0, 15))  # a little warm
    return face


def _scenery(face: np.ndarray, box: tuple[int, int, int, int], rng: np.random.Generator) -> None:
    """A picture inside ``box`` (x0, y0, x1, y1): sky gradient, hills, a sun, random shapes."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    top, bottom = rng.integers(30, 256, 3), rng.integers(30, 256, 3)
    t = np.linspace(0, 1, h)[:, None, None]
    face[y0:y1, x0:x1] = (top * (1 - t) + bottom * t).astype(np.uint8)
    panel = face[y0:y1, x0:x1]
    cv2.circle(
        panel,
        (int(rng.integers(0, w)), int(rng.integers(0, h // 2))),
        int(rng.integers(8, 25)),
        rng.integers(0, 256, 3).tolist(),
        -1,
        cv2.LINE_AA,
    )
    for _ in range(int(rng.integers(2, 4))):  # hills
        xs = np.linspace(-10, w + 10, 8)
        ys = h * rng.uniform(0.35, 0.85) + rng.normal(0, h * 0.08, len(xs))
        pts = np.concatenate([np.stack([xs, ys], 1), [[w + 10, h + 10], [-10, h + 10]]]).astype(np.int32)
        cv2.fillPoly(panel, [pts], rng.integers(0, 256, 3).tolist(), cv2.LINE_AA)
    for _ in range(int(rng.integers(4, 10))):  # figures and things
        colour = rng.integers(0, 256, 3).tolist()
        kind = rng.integers(0, 4)
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        if kind == 0:
            cv2.ellipse(
                panel,
                (cx, cy),
                (int(rng.integers(5, 30)), int(rng.integers(5, 30))),
                float(rng.uniform(0, 180)),
                0,
                360,
                colour,
                -1,
                cv2.LINE_AA,
            )
        elif kind == 1:
            pts = (np.array([cx, cy]) + rng.normal(0, 18, (int(rng.integers(3, 7)), 2))).astype(np.int32)
            cv2.fillPoly(panel, [pts], colour, cv2.LINE_AA)
        elif kind == 2:
            pts = (np.array([cx, cy]) + np.cumsum(rng.normal(0, 12, (6, 2)), axis=0)).astype(np.int32)
            cv2.polylines(panel, [pts], False, colour, int(rng.integers(1, 4)), cv2.LINE_AA)
        else:
            cv2.rectangle(panel, (cx, cy), (cx + int(rng.integers(6, 30)), cy + int(rng.integers(6, 40))), colour, -1)
    cv2.rectangle(face, (x0, y0), (x1 - 1, y1 - 1), (20, 20, 20), 2)


def _words(rng: np.random.Generator, n: int) -> str:
    return " ".join("".join(rng.choice(_SYLLABLES, int(rng.integers(1, 4)))) for _ in range(n))


def art_card(seed: int) -> np.ndarray:
    """A game card with art: border, title, picture, rules text; all from ``seed``."""
    rng = np.random.default_rng(seed)
    face = _paper(rng)
    w, h = FACE_SIZE
    cv2.rectangle(face, (6, 6), (w - 7, h - 7), rng.integers(0, 200, 3).tolist(), int(rng.integers(4, 10)))
    cv2.putText(
        face, _words(rng, 2)[:14].title(), (20, 42), cv2.FONT_HERSHEY_DUPLEX, 0.75, (20, 20, 20), 1, cv2.LINE_AA
    )
    cv2.circle(face, (w - 32, 34), 14, rng.integers(0, 256, 3).tolist(), -1, cv2.LINE_AA)
    cv2.putText(
        face,
        str(int(rng.integers(1, 10))),
        (w - 39, 41),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.6,
        (255, 255, 255),
        2,
        cv2.LINE_AA,
    )
    _scenery(face, (20, 56, w - 20, 215), rng)
    for line in range(int(rng.integers(3, 6))):
        cv2.putText(
            face,
            _words(rng, 3)[:22],
            (22, 245 + 20 * line),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            (40, 40, 40),
            1,
            cv2.LINE_AA,
        )
    return face


def playing_card(name: str) -> np.ndarray:
    """A playing card such as ``"7H"``: rank and suit in two corners, pips or a picture."""
    rank, suit = name[:-1], name[-1]
    rng = np.random.default_rng(sum(map(ord, name)))
    face = np.full((FACE_SIZE[1], FACE_SIZE[0], 3), 242, np.uint8)
    w, h = FACE_SIZE
    colour = SUITS[suit][0]
    for corner in (False, True):
        card = cv2.rotate(face, cv2.ROTATE_180) if corner else face
        cv2.putText(card, rank, (12, 38), cv2.FONT_HERSHEY_DUPLEX, 1.0, colour, 2, cv2.LINE_AA)
        _pip(card, (26, 58), 20, suit)
        face[:] = cv2.rotate(card, cv2.ROTATE_180) if corner else card
    box = (52, 45, w - 52, h - 45)
    if rank in _PIP_LAYOUTS:
        bw, bh = box[2] - box[0], box[3] - box[1]
        for fx, fy in _PIP_LAYOUTS[rank]:
            size = 80 if rank == "A" else 38
            _pip(face, (box[0] + fx * bw, box[1] + fy * bh), size, suit, upside_down=fy > 0.55)
    else:  # a court card: a picture in a frame, its rank's letter large
        _scenery(face, box, rng)
        cv2.putText(face, rank, (w // 2 - 22, h // 2 + 20), cv2.FONT_HERSHEY_TRIPLEX, 2.0, colour, 3, cv2.LINE_AA)
    cv2.rectangle(face, (2, 2), (w - 3, h - 3), (180, 180, 180), 1)
    return face


def deck_faces() -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(taught cards, never-taught cards): name -> face."""
    taught = {name: playing_card(name) for name in TAUGHT_PLAYING}
    taught |= {f"art{i:02d}": art_card(1000 + i) for i in range(ART_CARDS)}
    unknown = {name: playing_card(name) for name in UNKNOWN_PLAYING}
    unknown |= {f"new{i:02d}": art_card(5000 + i) for i in range(UNKNOWN_ART)}
    return taught, unknown
