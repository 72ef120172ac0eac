"""Card reader on generated variations of real photos (tests/data/cards, Apache-2.0):
a pale table, a soft photo, lamp reflections, a card dropped across others.

The variations are the benchmark's own (bench/cards.py), so a test and the benchmark
cannot drift apart; each test's floor is what the reader reached when the case was
fixed, above what it reached before (noted per test), so a regression fails it.
"""
from __future__ import annotations


import numpy as np
import pytest

from bench.cards import TUNE_VARIATIONS, VARIATIONS, Tally, Variation, score, truth_of, vary
from vision.cards import Catalog, find_cards, plainly_lit, read_cards, warp_card
from vision.cards_describe import describe_lit
from tests.test_cards import LABELS, deck, photo  # noqa: F401 - deck is a shared fixture

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
