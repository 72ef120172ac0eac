"""The card reader's speed-ups must compute exactly what the plain numpy they replaced
computed: these compare each with that plain form on real and odd-sized inputs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from support import DATA as TEST_DATA
from vision.cards.describe import PART_SLICES, PARTS, _every, part_distances
from vision.cards.detect import order_corners, warp_card

DATA = TEST_DATA / "cards"


@pytest.mark.parametrize(("shape", "step"), [((144, 96, 3), 2), ((144, 96), 4), ((37, 22, 3), 2), ((36, 24), 4)])
def test_every_nth_pixel_is_the_strided_slice(shape: tuple[int, ...], step: int) -> None:
    image = np.random.default_rng(3).random(shape, dtype=np.float32)
    assert np.array_equal(_every(image, step), image[::step, ::step])


@pytest.mark.parametrize("parts", [PARTS, ("silhouette", "hues")])
def test_part_distances_are_per_part_norms(parts: tuple[str, ...]) -> None:
    rng = np.random.default_rng(5)
    deck = rng.random((40, PART_SLICES[PARTS[-1]].stop), dtype=np.float32)
    query = rng.random(deck.shape[1], dtype=np.float32)
    plain = np.stack([np.linalg.norm(deck[:, PART_SLICES[p]] - query[PART_SLICES[p]], axis=1) for p in parts], axis=1)
    assert np.array_equal(part_distances(query, deck, parts), plain)


def _plain_order(quad: np.ndarray) -> np.ndarray:
    """order_corners as it was written in numpy."""
    pts = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]
    pts = np.roll(pts, -int(np.argmin(pts.sum(axis=1))), axis=0)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def test_corner_order_matches_the_numpy_form() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        centre, (w, h), angle = rng.uniform(100, 500, 2), rng.uniform(40, 200, 2), rng.uniform(0, 180)
        quad = cv2.boxPoints(((float(centre[0]), float(centre[1])), (float(w), float(h)), float(angle)))
        quad = quad[rng.permutation(4)] + rng.normal(0, 2, (4, 2)).astype(np.float32)
        assert np.array_equal(order_corners(quad), _plain_order(quad))


def test_four_channel_warp_gives_the_same_card() -> None:
    photo = cv2.imread(str(min((DATA / "images").glob("*.jpg"))))
    padded = cv2.cvtColor(photo, cv2.COLOR_BGR2BGRA)
    for quad in (
        [[300, 200], [520, 230], [500, 560], [280, 530]],
        [[-20, -10], [150, 5], [140, 260], [-30, 240]],
    ):  # inside; over the edge
        card = warp_card(photo, np.float32(quad))
        assert np.array_equal(cv2.cvtColor(warp_card(padded, np.float32(quad)), cv2.COLOR_BGRA2BGR), card)
