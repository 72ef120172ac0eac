"""Helpers shared by the dice tests: the copied real photos and a drawn symbol die.

Named test_dice_* only because that is the file pattern this part owns; it holds no
tests itself.
"""
from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from bench.dice import Label, load_labels

DATA = Path(__file__).resolve().parent / "data" / "dice"


def load_set() -> dict[str, tuple[np.ndarray, list[Label]]]:
    """The copied test photos with their labels, fixed like the benchmark's."""
    labels = load_labels(DATA, "test")
    return {name: (cv2.imread(str(DATA / name)), labs) for name, labs in sorted(labels.items())}


PHOTOS = load_set()


FACES = ("star", "ring", "triangle", "cross", "crescent", "bolt")


def draw_face(face: str, side: int = 96) -> np.ndarray:
    """A dark die face with a light symbol, drawn large (it is shrunk when pasted)."""
    img = np.zeros((side, side, 3), np.uint8)
    cv2.rectangle(img, (4, 4), (side - 5, side - 5), (38, 34, 30), -1)
    c, white = side // 2, (225, 225, 220)
    if face == "star":
        pts = [(c + (34 if i % 2 == 0 else 14) * math.sin(i * math.pi / 5), c - (34 if i % 2 == 0 else 14) * math.cos(i * math.pi / 5)) for i in range(10)]
        cv2.fillPoly(img, [np.array(pts, np.int32)], white)
    elif face == "ring":
        cv2.circle(img, (c, c), 26, white, 8)
    elif face == "triangle":
        cv2.fillPoly(img, [np.array([(c, c - 30), (c + 28, c + 22), (c - 28, c + 22)], np.int32)], white)
    elif face == "cross":
        cv2.rectangle(img, (c - 30, c - 7), (c + 30, c + 7), white, -1)
        cv2.rectangle(img, (c - 7, c - 30), (c + 7, c - 8), white, -1)
    elif face == "crescent":
        cv2.circle(img, (c, c), 28, white, -1)
        cv2.circle(img, (c + 14, c - 6), 24, (38, 34, 30), -1)
    elif face == "bolt":
        cv2.fillPoly(img, [np.array([(c - 6, c - 32), (c + 16, c - 32), (c + 2, c - 4), (c + 18, c - 4), (c - 14, c + 34), (c - 4, c + 4), (c - 18, c + 4)], np.int32)], white)
    return img


def paste(frame: np.ndarray, face: str, x: float, y: float, size: float, angle: float) -> np.ndarray:
    """Put the die face into the frame at (x, y), rotated, with a soft camera blur."""
    art = draw_face(face)
    side = art.shape[0]
    m = cv2.getRotationMatrix2D((side / 2, side / 2), angle, size / (side - 8))
    m[:, 2] += (x - side / 2, y - side / 2)
    shape = np.zeros((side, side), np.uint8)
    cv2.rectangle(shape, (4, 4), (side - 5, side - 5), 255, -1)
    h, w = frame.shape[:2]
    die = cv2.warpAffine(art, m, (w, h), flags=cv2.INTER_AREA)
    alpha = cv2.GaussianBlur(cv2.warpAffine(shape, m, (w, h)), (3, 3), 0).astype(np.float32)[..., None] / 255.0
    out = frame.astype(np.float32) * (1 - alpha) + cv2.GaussianBlur(die, (3, 3), 0.7).astype(np.float32) * alpha
    return out.astype(np.uint8)


def empty_tray() -> np.ndarray:
    frame, _ = PHOTOS["IMG_20191208_112605.jpg"]
    return cv2.GaussianBlur(np.full_like(frame, np.median(frame.reshape(-1, 3), axis=0).astype(np.uint8)), (0, 0), 1)


