"""Loading still images safely: a clear error for anything that is not a usable photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

MAX_PIXELS = 40_000_000
"""Larger photos are refused: decoding a 50-megapixel frame costs ~150 MB and seconds
on a Pi, and no camera the box supports produces one."""

MIN_SIDE = 16


class ImageError(ValueError):
    """An image that cannot be read; the message says why, for the user."""


def _header_size(path: Path) -> tuple[int, int] | None:
    """Width and height from the file header without decoding the pixels (PNG/JPEG)."""
    try:
        import struct

        with path.open("rb") as fh:
            head = fh.read(26)
            if head[:8] == b"\x89PNG\r\n\x1a\n":
                w, h = struct.unpack(">II", head[16:24])
                return int(w), int(h)
            if head[:2] != b"\xff\xd8":
                return None
            fh.seek(2)
            while True:
                marker = fh.read(2)
                if len(marker) < 2 or marker[0] != 0xFF:
                    return None
                if marker[1] in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                    data = fh.read(7)
                    h, w = struct.unpack(">HH", data[3:7])
                    return int(w), int(h)
                (length,) = struct.unpack(">H", fh.read(2))
                fh.seek(length - 2, 1)
    except (OSError, struct.error):
        return None


def check_frame(frame: np.ndarray | None, name: str = "image") -> np.ndarray:
    """Refuse frames no reader can use: empty, tiny, huge or not 3-channel 8-bit."""
    if frame is None or frame.size == 0:
        raise ImageError(f"{name}: empty image")
    h, w = frame.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageError(f"{name}: image is {w}x{h} pixels, too small to read (at least {MIN_SIDE}x{MIN_SIDE})")
    if h * w > MAX_PIXELS:
        raise ImageError(f"{name}: image is {w}x{h} pixels, over the {MAX_PIXELS // 1_000_000} megapixel limit")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.dtype != np.uint8:
        raise ImageError(f"{name}: unsupported pixel type {frame.dtype}")
    return frame


def load_image(path: Path) -> np.ndarray:
    """Decode a photo as a BGR uint8 array, or raise ImageError saying what is wrong."""
    if not path.exists():
        raise ImageError(f"{path}: no such file")
    if not path.is_file():
        raise ImageError(f"{path}: not a file")
    size = _header_size(path)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageError(
            f"{path}: image is {size[0]}x{size[1]} pixels, over the {MAX_PIXELS // 1_000_000} megapixel limit"
        )
    data = np.fromfile(str(path), dtype=np.uint8)
    if data.size == 0:
        raise ImageError(f"{path}: empty file")
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if frame is None:
        raise ImageError(f"{path}: not an image OpenCV can decode")
    return check_frame(frame, str(path))
