"""Where on the table a card lies: whose area, and which zone of it.

The camera looks down on the whole table; ``vision.areas`` in familiar.toml divides
its frame into each seat's area (seats in the table's order), each area one box or
several named zones (Monopoly Deal: a ``bank`` and ``items``), as fractions of the
frame so the division survives a change of resolution.  A card belongs to the zone
its centre lies in; a card outside every zone (the draw and discard piles in the
middle) is in nobody's area.  The reader reports only where each card is (its
corners): what a place means is the game's business, so this lives on the box.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from device.config import AREA, Box

Areas = tuple[Mapping[str, Box], ...]


@dataclass(frozen=True)
class Place:
    """A seat's area, and the zone of it (None: the area is not divided)."""

    seat: int
    zone: str | None

    def to_data(self) -> dict[str, int | str]:
        """What a card's reading says of its place (the keys the games read)."""
        return {"seat": self.seat} if self.zone is None else {"seat": self.seat, "zone": self.zone}


def centre(corners: Sequence[Sequence[float]]) -> tuple[float, float]:
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def place(corners: Sequence[Sequence[float]], width: int, height: int, areas: Areas) -> Place | None:
    """The zone a card with these corners (frame pixels) lies in, or None."""
    x, y = centre(corners)
    x, y = x / width, y / height
    for seat, zones in enumerate(areas):
        for zone, (left, top, right, bottom) in zones.items():
            if left <= x < right and top <= y < bottom:
                return Place(seat, None if zone == AREA else zone)
    return None


ZONE_COLOUR = (0, 215, 255)


def outlined(frame: np.ndarray, areas: Areas) -> np.ndarray:
    """The frame with each zone outlined and named ("1 bank": seats counted from 1), for
    the host page's camera picture: the table's marks are lined up with the boxes."""
    image = frame.copy()
    height, width = image.shape[:2]
    for seat, zones in enumerate(areas):
        for zone, (left, top, right, bottom) in zones.items():
            a, b = (round(left * width), round(top * height)), (round(right * width) - 1, round(bottom * height) - 1)
            cv2.rectangle(image, a, b, ZONE_COLOUR, 2)
            label = f"{seat + 1} {zone}"
            cv2.putText(image, label, (a[0] + 6, a[1] + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ZONE_COLOUR, 2)
    return image
