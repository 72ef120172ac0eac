"""The area two convex quads share, which OpenCV's own call sometimes gets wrong.

``cv2.intersectConvexConvex`` returns 0 for some float quads one of which lies wholly
inside the other (OpenCV 5.0.0: a card's outer outline and its inner border, found as
lines, 5-15 px apart), as if they were apart.  Outlines from the region maps have whole
pixel corners and happened not to meet it; corners from crossing lines do."""

from __future__ import annotations

import cv2
import numpy as np


def shared_area(a: np.ndarray, b: np.ndarray) -> float:
    """Area of the intersection of convex quads ``a`` and ``b`` (N x 2 float32)."""
    inter, _ = cv2.intersectConvexConvex(a, b)
    if inter > 0:
        return float(inter)
    if _inside(a, b):
        return abs(float(cv2.contourArea(a)))
    if _inside(b, a):
        return abs(float(cv2.contourArea(b)))
    return 0.0


def same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """True when two convex quads (N x 2 float32) share half the smaller one's area:
    one card found twice (two fits, or a quad from lines over one from regions)."""
    smaller = min(abs(float(cv2.contourArea(a))), abs(float(cv2.contourArea(b))))
    return shared_area(a, b) >= 0.5 * smaller


def _inside(inner: np.ndarray, outer: np.ndarray) -> bool:
    contour = outer.reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in inner.tolist())
