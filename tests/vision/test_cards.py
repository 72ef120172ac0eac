"""Card reader on real photos (tests/data/cards: five SET photos from the cards-set, Apache-2.0).

Two decks are taught from the ``enroll`` photos; the other photos of the same cards, taken
on another day with another light, must be read right; cards missing from the deck must
be reported unknown; bad input must be refused without touching the catalog.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from support.cards import ENROLL, LABELS, TEST, photo
from vision.cards import Card, Catalog, CatalogError, find_cards, grid_order, read_cards, warp_card
from vision.cards.detect import CARD_SIZE
from vision.cards.keypoints import Place
from vision.cards.read import _ink_named
from vision.images import ImageError


def names_in_grid(cards: list[Card]) -> list[str | None]:
    """Readings put in row-major grid order (by the card outlines)."""
    quads = [np.float32(c.corners) for c in cards]
    by_outline = {q.tobytes(): c.name for q, c in zip(quads, cards, strict=True)}
    return [by_outline[q.tobytes()] for q in grid_order(quads, 3, 3)]


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


# ----- finding and straightening ---------------------------------------------------------
@pytest.mark.parametrize("img", sorted(LABELS))
def test_finds_the_nine_cards_of_every_photo(img: str) -> None:
    frame = photo(img)
    quads = find_cards(frame)
    assert len(quads) == 9
    h, w = frame.shape[:2]
    for quad in quads:
        assert quad.shape == (4, 2)
        assert cv2.isContourConvex(quad.reshape(-1, 1, 2))
        assert np.all(quad >= -2) and np.all(quad[:, 0] <= w + 2) and np.all(quad[:, 1] <= h + 2)
        # portrait order: the first side is a short side
        assert np.linalg.norm(quad[1] - quad[0]) < np.linalg.norm(quad[2] - quad[1])
        # a card of this set is ~250 x 400 px at this resolution
        assert 60_000 < cv2.contourArea(quad) < 160_000


def test_warp_gives_an_upright_portrait_card() -> None:
    frame = photo(ENROLL[0])
    card = warp_card(frame, find_cards(frame)[0])
    assert card.shape == (CARD_SIZE[1], CARD_SIZE[0], 3)
    # the card's paper fills the warp: no dark table along the edges
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    assert np.median(grey[:, :8]) > 110 and np.median(grey[:, -8:]) > 110


def test_no_cards_on_an_empty_table() -> None:
    frame = photo(ENROLL[0])
    table = np.ascontiguousarray(frame[:200, :])  # the strip above the cards
    assert find_cards(table) == []


# ----- reading ------------------------------------------------------------------------------
@pytest.mark.parametrize("img", [i for i in TEST if not i.startswith("purple")])
def test_reads_every_card_of_another_photo(deck: Catalog, img: str) -> None:
    cards = read_cards(photo(img), deck)
    assert names_in_grid(cards) == LABELS[img][1]
    assert all(0.0 < c.confidence <= 1.0 for c in cards)


def test_cards_missing_from_the_deck_are_unknown(deck: Catalog) -> None:
    """Purple cards were never taught: each must be null, never a green or red look-alike."""
    img = next(i for i in TEST if i.startswith("purple"))
    cards = read_cards(photo(img), deck)
    assert len(cards) == 9
    assert [c.name for c in cards] == [None] * 9


def test_one_attribute_away_is_still_unknown(tmp_path: Path) -> None:
    """Teach green-1 without its striped row: striped cards differ from the taught solid
    and empty ones by fill alone, and must still come back unknown."""
    img = ENROLL[0] if ENROLL[0].startswith("green") else ENROLL[1]
    names = LABELS[img][1]
    frame = photo(img)
    cards = [warp_card(frame, q) for q in grid_order(find_cards(frame), 3, 3)]
    catalog = Catalog(tmp_path / "partial")
    catalog.add([(n, c, None) for n, c in zip(names, cards, strict=True) if "striped" not in n])
    test = next(i for i in TEST if i.startswith("green"))
    expected = [None if "striped" in n else n for n in LABELS[test][1]]
    assert names_in_grid(read_cards(photo(test), catalog)) == expected


@pytest.mark.parametrize("turn", [cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE])
def test_reads_turned_photos_with_corners_in_the_cards_own_order(deck: Catalog, turn: int) -> None:
    """Corners go clockwise from the card's top-left wherever the card points.  SET cards
    look the same upside down, so 'top-left' may be either end: the corner that was the
    top-left or the one that was the bottom-right in the upright photo."""
    img = next(i for i in TEST if i.startswith("green"))
    frame = photo(img)
    h, w = frame.shape[:2]
    move = (lambda x, y: (w - 1 - x, h - 1 - y)) if turn == cv2.ROTATE_180 else (lambda x, y: (h - 1 - y, x))
    upright = {c.name: c for c in read_cards(frame, deck)}
    turned = read_cards(cv2.rotate(frame, turn), deck)
    assert sorted(c.name for c in turned) == sorted(LABELS[img][1])
    for card in turned:
        was = np.float32([move(x, y) for x, y in upright[card.name].corners])
        now = np.float32(card.corners)
        shifts = [float(np.abs(np.roll(was, -k, axis=0) - now).max()) for k in (0, 2)]
        assert min(shifts) < 25, (card.name, shifts)


def test_card_json_shape() -> None:
    card = Card("2-red-striped-squiggle", ((1.0, 2.0), (3.0, 2.0), (3.0, 6.0), (1.0, 6.0)), 0.9712)
    assert card.to_json() == {
        "card": "2-red-striped-squiggle",
        "corners": [[1.0, 2.0], [3.0, 2.0], [3.0, 6.0], [1.0, 6.0]],
        "confidence": 0.971,
    }


# ----- the catalog ---------------------------------------------------------------------------
def one_card_photo() -> tuple[np.ndarray, str]:
    """A crop of a grid photo holding exactly its top-left card, with table around it."""
    img = ENROLL[0]
    frame = photo(img)
    quad = grid_order(find_cards(frame), 3, 3)[0]
    x0, y0 = np.maximum(quad.min(axis=0) - 40, 0).astype(int)
    x1, y1 = (quad.max(axis=0) + 40).astype(int)
    return np.ascontiguousarray(frame[y0:y1, x0:x1]), LABELS[img][1][0]


def test_enroll_one_card_then_replace_and_remove(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "deck")
    crop, name = one_card_photo()
    card = catalog.enroll(crop, name, {"dice": 2, "curse": False})
    assert card.shape == (CARD_SIZE[1], CARD_SIZE[0], 3)
    assert catalog.names == [name]
    assert catalog.card_data(name) == {"dice": 2, "curse": False}
    first_image = catalog.card_image(name)

    catalog.enroll(cv2.rotate(crop, cv2.ROTATE_180), name, {"dice": 3})  # re-teach: replaces
    assert catalog.names == [name]
    assert catalog.card_data(name) == {"dice": 3}
    assert not np.array_equal(catalog.card_image(name), first_image)
    assert len(list((tmp_path / "deck" / "cards").glob("*.png"))) == 1  # old image gone

    catalog.remove(name)
    assert catalog.names == []
    assert list((tmp_path / "deck" / "cards").glob("*.png")) == []
    with pytest.raises(CatalogError, match="no card named"):
        catalog.remove(name)


def test_a_catalog_folder_is_portable(deck: Catalog, tmp_path: Path) -> None:
    copy = tmp_path / "friend"
    shutil.copytree(deck.directory, copy)
    friend = Catalog(copy)
    assert friend.names == deck.names
    img = next(i for i in TEST if i.startswith("red"))
    assert names_in_grid(read_cards(photo(img), friend)) == LABELS[img][1]


def test_reading_with_an_empty_catalog_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="empty"):
        read_cards(photo(TEST[0]), Catalog(tmp_path / "empty"))


@pytest.mark.parametrize(
    ("rows", "cols", "names", "message"),
    [
        (2, 2, ["a", "b", "c", "d"], "found 9 cards .* expected 2x2"),
        (3, 3, ["a", "b", "c", "d", "e", "f", "g", "h", "a"], "duplicate card names: a"),
        (3, 3, ["a", "b", "c"], "3 names given for a 3x3 grid"),
        (3, 3, ["a", "b", "c", "d", "", "f", "g", "h", "i"], "non-empty"),
    ],
)
def test_bad_grid_enrolment_leaves_the_catalog_untouched(
    deck: Catalog, tmp_path: Path, rows: int, cols: int, names: list[str], message: str
) -> None:
    directory = tmp_path / "deck"
    shutil.copytree(deck.directory, directory)
    before = snapshot(directory)
    with pytest.raises(CatalogError, match=message):
        Catalog(directory).enroll_grid(photo(ENROLL[0]), rows, cols, names)
    assert snapshot(directory) == before


def test_one_card_enrolment_refuses_a_grid_photo(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "deck")
    with pytest.raises(CatalogError, match="found 9 cards .* expected exactly 1"):
        catalog.enroll(photo(ENROLL[0]), "x")
    assert catalog.names == [] and not (tmp_path / "deck" / "catalog.json").exists()


def test_corrupt_and_empty_images_are_refused(tmp_path: Path) -> None:
    from vision.images import load_image

    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    with pytest.raises(ImageError):
        load_image(bad)
    catalog = Catalog(tmp_path / "deck")
    with pytest.raises(ImageError):
        catalog.enroll(np.zeros((0, 0, 3), np.uint8), "x")
    with pytest.raises(ImageError):
        read_cards(np.zeros((4, 4, 3), np.uint8), catalog)


def test_an_interrupted_write_keeps_the_old_catalog(
    deck: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "deck"
    shutil.copytree(deck.directory, directory)
    index_before = (directory / "catalog.json").read_bytes()
    catalog = Catalog(directory)
    crop, _ = one_card_photo()

    import vision.cards.catalog as catalog_module

    real_replace = catalog_module.os.replace

    def failing_replace(src: str, dst: str) -> None:
        if str(dst).endswith("catalog.json"):
            raise OSError("disk full")
        real_replace(src, dst)

    monkeypatch.setattr(catalog_module.os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        catalog.enroll(crop, "new card")
    monkeypatch.undo()
    assert (directory / "catalog.json").read_bytes() == index_before
    assert Catalog(directory).names == deck.names
    assert not list(directory.glob(".*.tmp"))


def test_corrupt_index_is_a_clear_error(tmp_path: Path) -> None:
    directory = tmp_path / "deck"
    directory.mkdir()
    (directory / "catalog.json").write_text("{ not json")
    with pytest.raises(CatalogError, match="not a readable catalog index"):
        Catalog(directory)


def test_card_data_must_be_json(tmp_path: Path) -> None:
    crop, name = one_card_photo()
    catalog = Catalog(tmp_path / "deck")
    with pytest.raises(CatalogError, match="JSON object"):
        catalog.enroll(crop, name, ["not", "an", "object"])  # type: ignore[arg-type]
    with pytest.raises(CatalogError, match="JSON-serialisable"):
        catalog.enroll(crop, name, {"when": object()})
    assert catalog.names == []


def test_upside_down_descriptor_is_a_permutation() -> None:
    """Reading trusts describe(card)[ROTATE_180] to stand for the card turned round:
    check it against really describing the turned card, part by part."""
    from vision.cards.describe import ROTATE_180, describe, part_distances, rotated_180

    frame = photo(TEST[0])
    for quad in find_cards(frame)[:3]:
        card = warp_card(frame, quad)
        permuted = describe(card)[ROTATE_180]
        turned = describe(rotated_180(card))
        assert part_distances(permuted, turned[None, :]).max() < 0.5  # well inside one tolerance


def test_enrols_a_card_that_fills_most_of_the_photo(tmp_path: Path) -> None:
    """A close-up single-card photo (card ~75 % of the frame) must still be found."""
    frame = photo(ENROLL[0])
    quad = grid_order(find_cards(frame), 3, 3)[4]
    x0, y0 = (quad.min(axis=0) - 25).astype(int)
    x1, y1 = (quad.max(axis=0) + 25).astype(int)
    crop = np.ascontiguousarray(frame[y0:y1, x0:x1])
    catalog = Catalog(tmp_path / "deck")
    catalog.enroll(crop, LABELS[ENROLL[0]][1][4])
    assert catalog.names == [LABELS[ENROLL[0]][1][4]]


def test_descriptor_cache_is_used_and_a_bad_one_ignored(deck: Catalog, tmp_path: Path) -> None:
    directory = tmp_path / "deck"
    shutil.copytree(deck.directory, directory)
    fresh, _ = Catalog(directory).vectors()
    assert (directory / "descriptors.npz").exists()
    (directory / "descriptors.npz").write_bytes(b"not a cache")
    again, _ = Catalog(directory).vectors()  # garbage cache: described afresh, same result
    assert np.allclose(again, fresh)


def test_a_place_is_not_named_by_ink_that_fits_another_card(deck: Catalog) -> None:
    """Shared keypoints are grey, so a place may be fitted by one deck card only while a
    sibling in another colour or fill, never fitted there, matches the ink as well:
    faint print (stripes, thin outlines) is under the ink check's level.  The striped
    card stays unknown; a solid one, whose ink no other card matches, is named."""
    img = next(i for i in TEST if i.startswith("red"))
    frame = photo(img)
    quads = grid_order(find_cards(frame), 3, 3)
    names = LABELS[img][1]
    for name in ("2-red-striped-squiggle", "2-red-solid-squiggle"):
        place = Place(quads[names.index(name)], (deck.names.index(name),))
        card = _ink_named(frame, place, deck)
        assert (card.name if card else None) == (None if "striped" in name else name)
