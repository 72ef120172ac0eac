"""The classic OpenCV pip counter the dice benchmark times familiar against.

This is the reader most published dice counters are (blob detection, then the blobs
clustered into dice): ``cv2.SimpleBlobDetector`` finds round pips, dark or light, in
the grey frame; pips nearer each other than CLUSTER pip diameters are chained into one
die (single linkage, which is DBSCAN with ``min_samples=1``), and a die's value is its
number of pips.  It has no notion of a die's body, so a speck of the table is a 1 and
two touching dice are one die of many pips (reported unsure when over six).

It is a yardstick for speed and accuracy, not a reader the box uses: it runs on the
same frames in the same benchmark run, so "familiar takes 0.8x the baseline's time"
holds whatever else loads the machine.  The detector runs with OpenCV's default
thresholds (50 to 220 in steps of 10) on the frame at its own resolution, as the
published counters do; only the pip-size bounds follow the frame's size, so that the
same counter can be run on 640 px and 4000 px photos.
"""

from __future__ import annotations

import cv2
import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage

CLUSTER = 4.5
"""Pips of one die lie at most ~4.5 pip diameters apart (the two pips of a 2 across
the diagonal); two touching dice's nearest pips lie about as far apart, so this also
merges touching dice: the classic counter's known weakness."""
PIP_AREA = (0.00001, 0.004)
"""Pip area bounds as shares of the frame's area: from a 12 px die's pip in a 640 px
photo to a 400 px die's pip in a 4000 px photo."""


def _detector(shape: tuple[int, ...]) -> cv2.SimpleBlobDetector:
    """A blob detector for round pips of either colour in a frame of this shape."""
    p = cv2.SimpleBlobDetector_Params()
    area = float(shape[0] * shape[1])
    p.filterByArea, p.minArea, p.maxArea = True, max(3.0, PIP_AREA[0] * area), PIP_AREA[1] * area
    p.filterByCircularity, p.minCircularity = True, 0.7
    p.filterByInertia, p.minInertiaRatio = True, 0.5
    p.filterByConvexity, p.minConvexity = True, 0.85
    p.filterByColor = False
    return cv2.SimpleBlobDetector_create(p)


def count_pips(frame: np.ndarray) -> list[tuple[int | None, float, float]]:
    """Every die the pip counter finds in a BGR frame, as (value or None, x, y)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    blobs = _detector(grey.shape).detect(grey)
    if not blobs:
        return []
    points = np.array([b.pt for b in blobs], np.float64)
    if len(blobs) == 1:
        return [(1, float(points[0, 0]), float(points[0, 1]))]
    eps = CLUSTER * float(np.median([b.size for b in blobs]))
    groups = fcluster(linkage(points, method="single"), eps, criterion="distance")
    dice = []
    for g in np.unique(groups):
        members = points[groups == g]
        x, y = members.mean(axis=0)
        dice.append((len(members) if len(members) <= 6 else None, float(x), float(y)))
    return dice
