"""Cutting a die out of a frame as a small square patch, the one way both training and
reading do it.

The face classifier and the taught-die matcher see every die at the same scale (the
die box fills a fixed share of the patch) whatever its size in the frame, 12 px or
80 px: that is what makes one small model read dice at any camera distance.  The
training script imports this module so that the patches it learns from are cut
exactly like the ones it will be shown at the table.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

PATCH = 32
"""Side of a face patch in pixels: a 6-pip face still has 3-4 px pips at this size."""

BAND = 256
"""Rows of the image halved at a time by ``halved``: a few hundred kB of copies at a
time, and few enough calls that they cost nothing."""

MARGIN = 1.25
"""The patch spans the die box times this, so a slightly off-centre box still holds
the whole face and the classifier sees the die edge as context."""


def patch_matrix(cx: float, cy: float, size: float, angle_deg: float = 0.0, out: int = PATCH) -> np.ndarray:
    """Affine map from frame to patch: centre on (cx, cy), span size*MARGIN, rotate."""
    span = max(size, 1.0) * MARGIN
    scale = out / span
    a = math.radians(angle_deg)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    half = out / 2.0
    # patch = R*S*(frame - centre) + half
    return np.array([[c, s, half - c * cx - s * cy], [-s, c, half + s * cx - c * cy]], dtype=np.float32)


def cut_patch(
    frame: np.ndarray, cx: float, cy: float, size: float, angle_deg: float = 0.0, out: int = PATCH
) -> np.ndarray:
    """The die at (cx, cy) of box side ``size`` as an out x out BGR patch.

    Large dice are first shrunk with area averaging (``halved``, a pyramid step) so
    that a single bilinear warp does not alias pips away; small dice are enlarged
    bilinearly.
    """
    span = max(size, 1.0) * MARGIN
    shrink = 1
    while span / (shrink * 2) >= out * 1.5:
        shrink *= 2
    if shrink > 1:
        # Cut a local window first so the pyramid step costs O(die), not O(frame).
        r = int(span * 0.75) + 2
        x0, y0 = max(int(cx) - r, 0), max(int(cy) - r, 0)
        x1, y1 = min(int(cx) + r, frame.shape[1]), min(int(cy) + r, frame.shape[0])
        window = frame[y0:y1, x0:x1]
        if min(window.shape[:2]) >= shrink:
            small = halved(window, shrink.bit_length() - 1)
            return cut_patch_direct(small, (cx - x0) / shrink, (cy - y0) / shrink, size / shrink, angle_deg, out)
    return cut_patch_direct(frame, cx, cy, size, angle_deg, out)


def halved(image: np.ndarray, times: int) -> np.ndarray:
    """The image halved ``times`` times by area averaging (2x2 means), an odd last row
    or column dropped first, so each pixel of the result is exactly 2**times frame
    pixels across.  cv2's INTER_AREA has a fast path for exactly half the size only:
    shrinking a 4000x3000 photo to the detector's 320 px in one resize cost more than
    the rest of its reading (``docs/experiments/2026-12-dice-pipeline.md``).  The image
    is halved in bands of BAND rows, each block of 2**times rows on its own, so that
    the first half-size copy of a large photo (9 MB for 4000x3000) is never held
    whole; the result is the same."""
    block = 1 << times
    h, w = image.shape[0] >> times, image.shape[1] >> times
    if times == 0 or not (h and w):
        return image[: h * block, : w * block]
    out = np.empty((h, w, *image.shape[2:]), image.dtype)
    rows = max(1, BAND // block)
    for y in range(0, h, rows):
        band = image[y * block : min(y + rows, h) * block, : w * block]
        for _ in range(times):
            band = cv2.resize(band, (band.shape[1] // 2, band.shape[0] // 2), interpolation=cv2.INTER_AREA)
        out[y : y + band.shape[0]] = band
    return out


def shrunk(image: np.ndarray, width: int, height: int) -> tuple[np.ndarray, float, float]:
    """The image shrunk to width x height by area averaging, and the image pixels per
    pixel of the result along x and y: halved (``halved``) while it stays at least
    twice that size, then resized the rest of the way.  The last resize is then
    between 2x and 4x, so the result stays close to one area resize: halving on to a
    last step under 2x read one more die wrong and five more where none lies on 8
    phone photos of 4000x3000 px (``docs/experiments/2026-12-dice-pipeline.md``)."""
    h, w = image.shape[:2]
    times = 0
    while (w >> (times + 1)) >= 2 * width and (h >> (times + 1)) >= 2 * height:
        times += 1
    used_w, used_h = (w >> times) << times, (h >> times) << times
    small = halved(image, times)
    if small.shape[:2] != (height, width):
        small = cv2.resize(small, (width, height), interpolation=cv2.INTER_AREA)
    return small, used_w / width, used_h / height


def cut_patch_direct(frame: np.ndarray, cx: float, cy: float, size: float, angle_deg: float, out: int) -> np.ndarray:
    """One bilinear warp; the border repeats the edge so a die at the frame edge is not
    framed by an artificial black bar the classifier never saw in training."""
    m = patch_matrix(cx, cy, size, angle_deg, out)
    return cv2.warpAffine(frame, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
