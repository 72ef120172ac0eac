"""Variations of real tray photos, labels moved along: other cameras, light and dice sizes.

The benchmark reports the reader on each of them and the tests hold it to floors:
rotation, zoom and shrink (dice from ~12 to ~70 px), the photo inside the box's
larger camera frame (1280x720), blur, warm and cold white balance, heavy JPEG, a
shadow across the tray, dim light, a camera tilted 40 degrees and a dark table.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from bench.dice import BOX_FRAME, Label

Variant = Callable[[np.ndarray, list[Label]], tuple[np.ndarray, list[Label]]]


def warp(
    frame: np.ndarray, labels: list[Label], m: np.ndarray, size: tuple[int, int]
) -> tuple[np.ndarray, list[Label]]:
    """Apply an affine map to a photo and its labels (the border repeats the tray)."""
    out = cv2.warpAffine(
        frame,
        m,
        size,
        flags=cv2.INTER_AREA if abs(np.linalg.det(m[:, :2])) < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
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


def framed(frame: np.ndarray, labels: list[Label], factor: float) -> tuple[np.ndarray, list[Label]]:
    """The photo scaled by ``factor`` in the middle of the box's larger camera frame
    (BOX_FRAME, 1280x720), the tray's edge repeated around it: dice of a given size in
    pixels in a frame that the detector must shrink further than the 640 px photos."""
    (w, h), (fh, fw) = BOX_FRAME, frame.shape[:2]
    m = np.array([[factor, 0, (w - fw * factor) / 2], [0, factor, (h - fh * factor) / 2]], np.float64)
    return warp(frame, labels, m, BOX_FRAME)


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


def tilt(frame: np.ndarray, labels: list[Label], degrees: float) -> tuple[np.ndarray, list[Label]]:
    """The tray as a camera tilted ``degrees`` from straight down sees it: the far side
    foreshortened and narrowed (the dice keep their tops only; real dice would also
    show a side, which the face net learnt from drawn dice)."""
    h, w = frame.shape[:2]
    squash, narrow = math.cos(math.radians(degrees)), 0.3 * math.sin(math.radians(degrees))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    top = (h - h * squash) / 2
    dst = np.float32([[w * narrow / 2, top], [w - w * narrow / 2, top], [w, h - top], [0, h - top]])
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    moved = []
    for lab in labels:
        r = lab.size / 2
        box = np.float32(
            [[[lab.x - r, lab.y - r], [lab.x + r, lab.y - r], [lab.x + r, lab.y + r], [lab.x - r, lab.y + r]]]
        )
        corners = cv2.perspectiveTransform(box, m)[0]
        x, y = corners.mean(axis=0)
        moved.append(Label(lab.face, float(x), float(y), math.sqrt(abs(cv2.contourArea(corners)))))
    return out, moved


VARIANTS: dict[str, Variant] = {
    "rotated 90": lambda f, labels: rotate(f, labels, 90),
    "rotated 33": lambda f, labels: rotate(f, labels, 33),
    "zoomed 1.4 (dice ~55 px)": lambda f, labels: rotate(f, labels, 0, 1.4),
    "zoomed 1.8 (dice ~70 px)": lambda f, labels: rotate(f, labels, 0, 1.8),
    "shrunk 0.45 (dice ~18 px)": lambda f, labels: shrink(f, labels, 0.45),
    "shrunk 0.32 (dice ~12 px)": lambda f, labels: shrink(f, labels, 0.32),
    "in a 1280x720 frame (dice ~39 px)": lambda f, labels: framed(f, labels, 1.0),
    "blurred": lambda f, labels: (cv2.GaussianBlur(f, (0, 0), 1.2), labels),
    "warm white balance": lambda f, labels: (white_balance(f, (0.7, 0.95, 1.3)), labels),
    "cold white balance": lambda f, labels: (white_balance(f, (1.3, 1.0, 0.75)), labels),
    "jpeg quality 25": lambda f, labels: (jpeg(f, 25), labels),
    "shadow": lambda f, labels: (shadow(f), labels),
    "dim": lambda f, labels: ((f * 0.45).astype(np.uint8), labels),
    "tilted 40 degrees": lambda f, labels: tilt(f, labels, 40),
    # A dark table: the photo's colours inverted, a dark tray with dice of the opposite
    # colours (black dice with white pips for white ones), every face still a real
    # die's face.  Cutting the real dice out onto a dark cloth was tried: no colour or
    # GrabCut rule cut ivory dice cleanly from this grey tray, so it measured the cut.
    "dark table (colours inverted)": lambda f, labels: (255 - f, labels),
}
