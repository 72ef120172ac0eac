"""Where on the table a card lies: whose area, and which zone of it.

The camera looks down on the whole table; ``vision.areas`` in familiar.toml divides
its frame into each seat's area (seats in the table's order), each area one box or
several named zones (Monopoly Deal: a ``bank`` and ``items``), as fractions of the
frame so the division survives a change of resolution.  A card belongs to the zone
its centre lies in; a card outside every zone (the draw and discard piles in the
middle) is in nobody's area.  The reader reports only where each card is (its
corners, from the card's own top-left): what a place means is the game's business,
so this lives on the box.  Which way up a card lies for its owner (a two-colour wild
counts as the colour on top) is read from those corners and the area's side of the
frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from device.config import AREA, Box

Areas = tuple[Mapping[str, Box], ...]
SIDEWAYS = 0.5
"""A card turned more than 60 degrees from its owner's way (cos 60 = 0.5) lies sideways:
which end is its top says nothing then."""


@dataclass(frozen=True)
class Place:
    """A seat's area, the zone of it (None: the area is not divided), and whether the
    card lies the right way up for that seat's player (None: not known)."""

    seat: int
    zone: str | None
    upright: bool | None = None

    def to_data(self) -> dict[str, int | str | bool]:
        """What a card's reading says of its place (the keys the games read)."""
        data: dict[str, int | str | bool] = {"seat": self.seat}
        if self.zone is not None:
            data["zone"] = self.zone
        if self.upright is not None:
            data["upright"] = self.upright
        return data


def centre(corners: Sequence[Sequence[float]]) -> tuple[float, float]:
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def place(corners: Sequence[Sequence[float]], width: int, height: int, areas: Areas) -> Place | None:
    """The zone a card with these corners (frame pixels, from the card's own top-left)
    lies in, or None."""
    x, y = centre(corners)
    x, y = x / width, y / height
    for seat, zones in enumerate(areas):
        for zone, (left, top, right, bottom) in zones.items():
            if left <= x < right and top <= y < bottom:
                return Place(seat, None if zone == AREA else zone, _upright(corners, width, height, zones))
    return None


def _upright(corners: Sequence[Sequence[float]], width: int, height: int, zones: Mapping[str, Box]) -> bool | None:
    """Whether the card's top points away from its owner, as a card lies when its owner
    reads it: each player sits at the edge of their area farthest from the frame's middle,
    so "away" is from the area's middle towards the frame's.  None when the card lies
    sideways to that, or the area is the middle of the frame."""
    boxes = list(zones.values())
    away_x = 0.5 - sum(b[0] + b[2] for b in boxes) / (2 * len(boxes))
    away_y = 0.5 - sum(b[1] + b[3] for b in boxes) / (2 * len(boxes))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = [(p[0] / width, p[1] / height) for p in corners[:4]]
    up_x, up_y = (x0 + x1 - x2 - x3) / 2, (y0 + y1 - y2 - y3) / 2  # from the bottom edge to the top edge
    dot = up_x * away_x + up_y * away_y
    size = (up_x**2 + up_y**2) ** 0.5 * (away_x**2 + away_y**2) ** 0.5
    if size == 0 or abs(dot) < SIDEWAYS * size:
        return None
    return dot > 0


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
