"""Variations of real tray photos, labels moved along: other cameras, light and dice sizes.

The benchmark reports the reader on each of them and the tests hold it to floors:
rotation, zoom and shrink (dice from ~18 to ~70 px), blur, warm and cold white
balance, heavy JPEG, a shadow across the tray and dim light.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from bench.dice import Label

Variant = Callable[[np.ndarray, list[Label]], tuple[np.ndarray, list[Label]]]


def warp(frame: np.ndarray, labels: list[Label], m: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, list[Label]]:
    """Apply an affine map to a photo and its labels (the border repeats the tray)."""
    out = cv2.warpAffine(frame, m, size, flags=cv2.INTER_AREA if abs(np.linalg.det(m[:, :2])) < 1 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    scale = math.sqrt(abs(np.linalg.det(m[:, :2])))
    moved = []
    for lab in labels:
        x, y = m @ np.array([lab.x, lab.y, 1.0])
        if 0 <= x < size[0] and 0 <= y < size[1]:  # a die cut by the edge is still a die
            moved.append(Label(lab.face, float(x), float(y), lab.size * scale))
    return out, moved


def rotate(frame: np.ndarray, labels: list[Label], angle: float, zoom: float = 1.0) -> tuple[np.ndarray, list[Label]]:
    h, w = frame.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, zoom)
    return warp(frame, labels, m, (w, h))


def shrink(frame: np.ndarray, labels: list[Label], factor: float) -> tuple[np.ndarray, list[Label]]:
    h, w = frame.shape[:2]
    m = np.array([[factor, 0, 0], [0, factor, 0]], np.float64)
    return warp(frame, labels, m, (round(w * factor), round(h * factor)))


def white_balance(frame: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(frame.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)


def jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def shadow(frame: np.ndarray) -> np.ndarray:
    """A soft diagonal shadow darkening half the tray to 45 %."""
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = np.clip((xx + yy - w) / (0.25 * w), 0, 1)
    return (frame.astype(np.float32) * (1 - 0.55 * ramp[..., None])).astype(np.uint8)


VARIANTS: dict[str, Variant] = {
    "rotated 90": lambda f, labels: rotate(f, labels, 90),
    "rotated 33": lambda f, labels: rotate(f, labels, 33),
    "zoomed 1.4 (dice ~55 px)": lambda f, labels: rotate(f, labels, 0, 1.4),
    "zoomed 1.8 (dice ~70 px)": lambda f, labels: rotate(f, labels, 0, 1.8),
    "shrunk 0.45 (dice ~18 px)": lambda f, labels: shrink(f, labels, 0.45),
    "blurred": lambda f, labels: (cv2.GaussianBlur(f, (0, 0), 1.2), labels),
    "warm white balance": lambda f, labels: (white_balance(f, (0.7, 0.95, 1.3)), labels),
    "cold white balance": lambda f, labels: (white_balance(f, (1.3, 1.0, 0.75)), labels),
    "jpeg quality 25": lambda f, labels: (jpeg(f, 25), labels),
    "shadow": lambda f, labels: (shadow(f), labels),
    "dim": lambda f, labels: ((f * 0.45).astype(np.uint8), labels),
}
