"""Card reader on generated variations of real photos (tests/data/cards, Apache-2.0):
a pale table, a soft photo, lamp reflections, a card dropped across others.

The variations are the benchmark's own (bench/cards.py), so a test and the benchmark
cannot drift apart; each test's floor is what the reader reached when the case was
fixed, above what it reached before (noted per test), so a regression fails it.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.cards import (
    TUNE_VARIATIONS,
    VARIATIONS,
    Tally,
    Variation,
    score,
    truth_of,
    vary,
)
from support.cards import LABELS, photo
from vision.cards import Catalog, find_cards, grid_order, read_cards, warp_card
from vision.cards.describe import TOLERANCES, describe_lit, describe_parts
from vision.cards.read import plainly_lit

RED_TEST = "red-2-20170101_124832.jpg"
GREEN_ENROL = "green-1-20161231_114459.jpg"


def varied_photo(img: str, variation: Variation) -> tuple[np.ndarray, list[tuple[np.ndarray, str]]]:
    """One test photo varied, with its labelled cards' outlines moved along."""
    frame = photo(img)
    truth = truth_of(frame, LABELS[img][1])
    assert truth is not None, f"{img}: the untouched photo must show its 9 cards"
    return vary(variation, frame, truth)


def tally(deck: Catalog, img: str, variation: Variation) -> Tally:
    """How the reader does on one varied photo, scored against its labels."""
    varied, truth = varied_photo(img, variation)
    result = Tally()
    score(result, read_cards(varied, deck), truth, set(deck.names))
    return result


def test_pale_cards_on_a_pale_table_are_found_and_read(deck: Catalog) -> None:
    """The edge maps alone lost 6 of these cards (3 found); the faint-edge map finds all."""
    result = tally(deck, RED_TEST, VARIATIONS["light table"])
    assert (result.found, result.right, result.wrong) == (9, 9, 0)
    assert len(find_cards(varied_photo(GREEN_ENROL, VARIATIONS["light table"])[0])) == 9  # was 8


def test_a_soft_photo_of_striped_cards_still_reads_them(deck: Catalog) -> None:
    """Blur made stripes look solid: 6 of 9 right at first, 8 with the fill measured on a
    slightly blurred tint, 9 since each card is taught sharp and soft; never a wrong name."""
    result = tally(deck, RED_TEST, VARIATIONS["blurred"])
    assert result.right == 9 and result.wrong == 0


@pytest.mark.parametrize("img", [GREEN_ENROL, RED_TEST])
@pytest.mark.parametrize("glare", sorted(name for name in TUNE_VARIATIONS if name.startswith("glare")))
def test_glare_never_names_a_card_wrongly(deck: Catalog, img: str, glare: str) -> None:
    """A reflection makes empty shapes look striped; under 'glare 0.4,0.6 +200' the green
    enrol photo had a card named wrongly until unevenly lit cards had to match closer."""
    result = tally(deck, img, TUNE_VARIATIONS[glare])
    assert result.wrong == 0
    assert result.right >= 5  # refusing is allowed, refusing everything is not


def test_glare_is_seen_as_uneven_light() -> None:
    """The measure the stricter rule hangs on: plainly lit cards are even and not washed
    out, a card under a strong reflection is not plainly lit."""
    frame = photo(GREEN_ENROL)
    plain = [describe_lit(warp_card(frame, q))[1] for q in find_cards(frame)]
    glared_frame, _ = varied_photo(GREEN_ENROL, TUNE_VARIATIONS["glare 0.4,0.6 +200"])
    glared = [describe_lit(warp_card(glared_frame, q))[1] for q in find_cards(glared_frame)]
    assert all(plainly_lit(lighting) for lighting in plain)
    assert not all(plainly_lit(lighting) for lighting in glared)


def test_cards_with_a_corner_covered_are_found(deck: Catalog) -> None:
    """A card dropped across the middle card covers corners of four: 6 of 9 were found
    before covered cards were taken from the rectangle of their visible corners, 8 after,
    and a card whose print is partly hidden is never named as another card."""
    result = tally(deck, RED_TEST, VARIATIONS["corner covered"])
    assert result.found >= 8 and result.wrong == 0


def test_a_covered_card_outline_spans_the_whole_card() -> None:
    """The outline of a card with a corner covered is the whole card, not the visible
    part: its corners are where the uncovered card's are (within 8 px at 1024 px).
    Known gap: a small bite can still pass as a whole card with one corner pulled in
    (one card here, 37 px off); it is then reported unknown, not named wrongly."""
    frame = photo(RED_TEST)
    varied, _ = varied_photo(RED_TEST, VARIATIONS["corner covered"])
    found = find_cards(varied)
    close = 0
    for quad in find_cards(frame):
        near = [q for q in found if np.linalg.norm(q.mean(axis=0) - quad.mean(axis=0)) < 40]
        if near:
            gaps = np.linalg.norm(near[0][:, None, :] - quad[None, :, :], axis=2).min(axis=1)
            close += int(gaps.max() < 8)
    assert close >= 7


def test_light_table_keeps_exactly_the_outlines_it_is_given() -> None:
    """The variation paints around the labelled outlines it is handed, never around what
    the reader under test finds: a card left out of the list is painted over."""
    frame = photo(RED_TEST)
    truth = truth_of(frame, LABELS[RED_TEST][1])
    assert truth is not None
    quads = [q for q, _ in truth]
    painted, _ = VARIATIONS["light table"](frame, quads[:1])
    for quad, kept in ((quads[0], True), (quads[1], False)):
        x, y = quad.mean(axis=0).astype(int)
        assert np.array_equal(painted[y, x], frame[y, x]) == kept


def _shadowed(card: np.ndarray) -> np.ndarray:
    """The card with a hard shadow (light down to 55 %, 1 px penumbra) over its left 40 %."""
    xx = np.arange(card.shape[1], dtype=np.float32)
    light = 0.55 + 0.45 / (1.0 + np.exp(-np.clip((xx - 0.4 * card.shape[1]) / 1.0, -30, 30)))
    return np.clip(card.astype(np.float32) * light[None, :, None], 0, 255).astype(np.uint8)


def test_a_hard_shadow_across_an_empty_card_is_not_read_as_ink() -> None:
    """The paper level follows a shadow's edge (a closing, not a smoothed maximum), so the
    inside of an empty shape stays empty; the old estimate read a band of 'ink' along the
    edge, which is how three empty diamonds of the cards-set went unread."""
    frame = photo(GREEN_ENROL)
    names = LABELS[GREEN_ENROL][1]
    for quad, name in zip(grid_order(find_cards(frame), 3, 3), names, strict=True):
        if "empty" not in name:
            continue
        card = warp_card(frame, quad)
        plain = describe_parts(card)["fill"][0]
        shadowed = describe_parts(_shadowed(card))["fill"][0]
        assert abs(shadowed - plain) < TOLERANCES["fill"], (name, plain, shadowed)


def test_a_card_washed_out_to_white_is_never_named_as_an_emptier_card(deck: Catalog) -> None:
    """A reflection that clips a striped card's paper to white erases its stripes: it then
    looks like the empty card of the same colour, count and shape, and must not be named so."""
    frame = photo(RED_TEST)
    truth = truth_of(frame, LABELS[RED_TEST][1])
    assert truth is not None
    washed = frame.copy()
    for quad, name in truth:
        if "striped" in name:
            mask = np.zeros(frame.shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, quad.astype(np.int32), 255)
            washed[mask > 0] = np.clip(washed[mask > 0].astype(np.int32) + 170, 0, 255).astype(np.uint8)
    result = Tally()
    score(result, read_cards(washed, deck), truth, set(deck.names))
    assert result.wrong == 0
    assert result.right >= 6  # the solid and empty rows are untouched
