"""Real card photos laid on a real table photo, where a player would lay them.

The table is a photo of the cards-set (tests/data/cards, Apache-2.0) with its nine
cards painted out: the black table they lay on, its grain and light as photographed.
Each card laid is cut from another photo of that set (a photo taken on another day,
under another light, than the one the deck is taught from) along its own outline and
pasted at a place and turn of the test's choosing, a slight perspective included, so
the reader sees real printed cards and a real table; only their arrangement is made.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from device.cli import demo_config
from device.config import Config, config_from_dict
from device.daemon import Daemon
from support.cards import LABELS, photo
from vision.camera.base import ReplayFinished
from vision.camera.replay import ReplayCamera
from vision.cards.catalog import grid_order
from vision.cards.detect import find_cards
from vision.settle import SettleDetector

TABLE_PHOTO = "purple-3-20170101_124713.jpg"
"""Its cards are never taught: painted out, the table is what remains."""
CARD_LONG = 0.12
"""A laid card's long side as a fraction of the frame's height (a 1024 x 1820 frame:
about 220 px, a little smaller than the set's own cards)."""


def box_with_areas(state: Path, areas: str) -> Daemon:
    """The demo's box (simulated hardware) with the card areas of the TOML ``areas``."""
    config = demo_config(Config(), state, port=0)
    zones = config_from_dict(tomllib.loads(areas)).vision.areas
    return Daemon(dataclasses.replace(config, vision=dataclasses.replace(config.vision, areas=zones)))


def cards_of(image: str) -> dict[str, np.ndarray]:
    """Each card of a labelled photo (its set name) -> its outline in that photo."""
    _, names = LABELS[image]
    quads = grid_order(find_cards(photo(image)), 3, 3)
    return dict(zip(names, quads, strict=True))


def empty_table() -> np.ndarray:
    """The table photo with its cards painted out: inpainted at a small scale (the black
    cloth is smooth), then the cloth's own fine grain put back from the bare border."""
    frame = photo(TABLE_PHOTO)
    mask = np.zeros(frame.shape[:2], np.uint8)
    for quad in cards_of(TABLE_PHOTO).values():
        grown = (quad - quad.mean(axis=0)) * 1.12 + quad.mean(axis=0)
        cv2.fillConvexPoly(mask, grown.astype(np.int32), 255)
    small = cv2.resize(frame, None, fx=0.125, fy=0.125, interpolation=cv2.INTER_AREA)
    small_mask = cv2.resize(mask, small.shape[1::-1], interpolation=cv2.INTER_NEAREST)
    filled = cv2.resize(cv2.inpaint(small, small_mask, 5, cv2.INPAINT_TELEA), frame.shape[1::-1])
    bare = frame[mask == 0].astype(np.float32)
    grain = np.random.default_rng(0).normal(0, float(bare.std(axis=0).mean()) * 0.5, frame.shape)
    painted = (filled.astype(np.float32) + grain).clip(0, 255).astype(np.uint8)
    return np.where(mask[..., None] > 0, painted, frame)


@dataclass(frozen=True)
class Laid:
    """A card on the table: which card of which photo, its centre as fractions of the
    frame, and its turn in degrees."""

    card: str
    image: str
    x: float
    y: float
    turn: float = 0.0


def lay(table: np.ndarray, cards: list[Laid]) -> np.ndarray:
    """The table with ``cards`` laid on it in order (later ones on top)."""
    frame = table.copy()
    h, w = frame.shape[:2]
    outlines = {image: cards_of(image) for image in {c.image for c in cards}}
    for card in cards:
        source = outlines[card.image][card.card].astype(np.float32)
        long = CARD_LONG * h
        half = np.float32([[-0.69, -1], [0.69, -1], [0.69, 1], [-0.69, 1]]) * (long / 2)
        turn = cv2.getRotationMatrix2D((0, 0), card.turn, 1.0)[:, :2]
        skew = np.float32([[0.0, 0.0], [0.0, 0.0], [0.02, 0.0], [-0.02, 0.0]]) * long  # a slight perspective
        target = (half + skew) @ turn.T + np.float32([card.x * w, card.y * h])
        m = cv2.getPerspectiveTransform(source, target.astype(np.float32))
        warped = cv2.warpPerspective(photo(card.image), m, (w, h), flags=cv2.INTER_AREA)
        inside = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(inside, target.astype(np.int32), 255)
        frame[inside > 0] = warped[inside > 0]
    return frame


class Camera:
    """The table photographed after each play, replayed through a daemon's camera loop."""

    def __init__(self, box: Any, folder: Path) -> None:
        self.box, self.folder, self.shots = box, folder, [folder / "00.jpg"]
        self.table = empty_table()
        self.settle = SettleDetector(fps=15)  # one detector, as one camera watches the whole game
        folder.mkdir()
        cv2.imwrite(str(self.shots[0]), self.table)

    def sees(self, cards: list[Laid]) -> None:
        """The table as it was, a hand laying the card (the replay's tumble and arm), then
        the table held still with sensor noise until the settle detector hands it on."""
        path = self.folder / f"{len(self.shots):02}.jpg"
        cv2.imwrite(str(path), lay(self.table, cards), [cv2.IMWRITE_JPEG_QUALITY, 92])
        before, self.shots = self.shots[-1], [*self.shots, path]
        with pytest.raises(ReplayFinished), ReplayCamera([before, path], fps=None, loop=False) as camera:
            self.box._watch(camera, self.settle)
