"""The card finder's straight-line source (vision/cards/edges.py) and how its quads are
merged with the regions' (vision/cards/detect.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.card_faces import deck_faces
from bench.card_scenes import scene
from bench.cluttered_cards import MIN_VISIBLE, _iou
from vision.cards import Card, find_cards
from vision.cards.detect import _gradients
from vision.cards.edges import RUNS_ON, runs_on, side_support
from vision.cards.overlap import same_place, shared_area
from vision.cards.read import _shared

NESTED = (
    np.float32([[651.43396, 134.23747], [311.5397, 88.41682], [247.39476, 564.224], [587.2888, 610.03326]]),
    np.float32([[309.5173, 103.41835], [646.1482, 148.79933], [586.0919, 594.60297], [249.41801, 549.2162]]),
)
"""A card's outline and its printed border, found from lines: OpenCV 5.0.0 and 5.1.0's
``intersectConvexConvex`` give 0 for this pair, the inner one lying wholly inside."""


@pytest.mark.parametrize("seed", [25029, 25057])
def test_cards_on_a_tiled_table_are_found_in_place(seed: int) -> None:
    """Two tiled-table scenes of the tuning seed: the region maps found none of their 6
    cards in place (IoU >= 0.8) and took 70 tile squares for cards; from lines all 6
    are found, and at most one quad lies on no card."""
    taught, unknown = deck_faces()
    drawn = scene(seed, taught, unknown)
    quads = find_cards(drawn.image)
    shown = [c for c in drawn.cards if c.visible >= MIN_VISIBLE]
    assert all(any(_iou(q, c.corners) >= 0.8 for q in quads) for c in shown)
    assert sum(max(_iou(q, c.corners) for c in drawn.cards) < 0.5 for q in quads) <= 1


def _grid_and_card() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A grey board ruled into 60 px squares with a pale card lying on it, the quad of
    one square, and the card's quad."""
    board = np.full((480, 640), 120, np.uint8)
    for v in range(0, 640, 60):
        cv2.line(board, (v, 0), (v, 479), 20, 3)
        cv2.line(board, (0, v), (639, v), 20, 3)
    card = np.float32([[400, 200], [520, 210], [510, 380], [390, 370]])
    cv2.fillConvexPoly(board, card.astype(np.int32), 230)
    square = np.float32([[60, 60], [120, 60], [120, 120], [60, 120]])
    return cv2.GaussianBlur(board, (5, 5), 0), square, card


def test_a_square_of_a_ruled_board_runs_on_and_a_card_does_not() -> None:
    """A board's lines go on past a square's corners; a card's sides stop at its own."""
    grey, square, card = _grid_and_card()
    gradients = _gradients(grey)
    assert side_support(square[None], gradients).min() > 0.9  # its sides are edges...
    assert runs_on(square[None], gradients)[0] >= RUNS_ON  # ...that run on: the board
    assert side_support(card[None], gradients).min() > 0.9
    assert runs_on(card[None], gradients)[0] < RUNS_ON


def test_a_side_that_steps_the_other_way_is_not_the_cards() -> None:
    """A quad reaching across the gap to a neighbour card's edge: that side's edge is
    lighter on the quad's inside, the others' on its outside, so it counts as none."""
    grey = np.full((400, 400), 60, np.uint8)
    cv2.rectangle(grey, (100, 40), (300, 120), 220, -1)  # the neighbour above
    cv2.rectangle(grey, (100, 140), (300, 360), 220, -1)  # the card
    grey = cv2.GaussianBlur(grey, (5, 5), 0)
    reaching = np.float32([[100, 120], [300, 120], [300, 360], [100, 360]])
    support = side_support(reaching[None], _gradients(grey))[0]
    assert support[0] == 0.0  # the top: the neighbour's bottom edge
    assert support[1:].min() > 0.8


def test_shared_area_of_a_quad_inside_another() -> None:
    """The nested pair shares the inner quad's whole area; moved apart, none."""
    outer, inner = NESTED
    assert shared_area(outer, inner) == pytest.approx(cv2.contourArea(inner), rel=1e-6)
    apart = inner + np.float32([1000, 0])
    assert shared_area(outer, apart) == 0.0


def test_every_overlap_of_readings_sees_a_nested_pair() -> None:
    """The reader's merge, the finder's and the keypoints' one-card-twice check and
    the bench's scoring all judge the nested pair as one place, not as two cards apart."""
    outer, inner = NESTED
    assert _shared(Card("a", tuple(map(tuple, outer)), 1.0), Card("b", tuple(map(tuple, inner)), 1.0)) > 0.99
    assert same_place(outer, inner)
    assert _iou(outer, inner) > 0.8


def test_a_card_with_its_far_end_under_another_is_completed() -> None:
    """Three sides of a card meet at two corners; its far end lies under another card,
    whose edge runs on past both its sides.  The card is found whole (its shape from a
    card seen whole beside it), not as the square part of it left showing; the two
    others are found as they are."""
    rng = np.random.default_rng(1)
    frame = (np.full((480, 640, 3), 70.0) + rng.normal(0, 3, (480, 640, 3))).clip(0, 255).astype(np.uint8)
    whole = np.float32([[60, 60], [160, 60], [160, 200], [60, 200]])
    under = np.float32([[300, 100], [400, 100], [400, 240], [300, 240]])
    over = np.float32([[250, 200], [446, 200], [446, 340], [250, 340]])
    for quad, grey in ((whole, 225), (under, 225), (over, 160)):
        cv2.fillConvexPoly(frame, quad.astype(np.int32), (grey, grey, grey))
    quads = find_cards(cv2.GaussianBlur(frame, (3, 3), 0))
    assert len(quads) == 3
    for card in (whole, under, over):
        assert max(_iou(q, card) for q in quads) >= 0.9
