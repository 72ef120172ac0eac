"""A simple published-style card reader, the benchmark's baseline: the textbook contour
finder (Canny, the outer contours approximated to four corners) and a perceptual hash
(DCT of the card's 32x32 grey image, its 8x8 lowest frequencies against their median)
named by the nearest taught hash in Hamming distance, both ways up.

It is what the cards reader is compared with, in accuracy and in time per photo, in
the same run on the same photos; it has no game or deck knowledge either.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards import Card
from vision.cards.detect import order_corners, warp_card

MAX_HAMMING = 12
"""Hash bits (of 64) a photo of a taught card may differ by; further is unknown."""
MIN_AREA = 0.004


def phash(card: np.ndarray) -> np.ndarray:
    """The 64-bit perceptual hash of a straightened card, as 64 booleans."""
    grey = cv2.resize(cv2.cvtColor(card, cv2.COLOR_BGR2GRAY), (32, 32), interpolation=cv2.INTER_AREA)
    low = cv2.dct(grey.astype(np.float32))[:8, :8].ravel()
    return low > np.median(low[1:])


class HashReader:
    """Cards taught as hashes (name -> straightened image), read by nearest hash."""

    def __init__(self, cards: dict[str, np.ndarray]) -> None:
        self.names = list(cards)
        upright = [phash(c) for c in cards.values()]
        turned = [phash(cv2.rotate(c, cv2.ROTATE_180)) for c in cards.values()]
        self.hashes = np.stack(upright + turned)

    def read(self, frame: np.ndarray) -> list[Card]:
        grey = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)
        edges = cv2.dilate(cv2.Canny(grey, 50, 150), np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = []
        for contour in contours:
            if cv2.contourArea(contour) < MIN_AREA * grey.size:
                continue
            approx = cv2.approxPolyDP(contour, 0.02 * cv2.arcLength(contour, True), True)
            if len(approx) != 4 or not cv2.isContourConvex(approx):
                continue
            quad = order_corners(approx.reshape(4, 2).astype(np.float32))
            bits = phash(warp_card(frame, quad))
            distances = (self.hashes != bits).sum(axis=1)
            best = int(distances.argmin())
            name = self.names[best % len(self.names)] if distances[best] <= MAX_HAMMING else None
            corners = np.roll(quad, -2, axis=0) if best >= len(self.names) else quad
            out.append(Card(name, tuple((float(x), float(y)) for x, y in corners), 1.0 - distances[best] / 64.0))
        return out
