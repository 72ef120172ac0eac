"""Teaching a deck from a camera frame: preview writes nothing, commit enrols the grid."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from bench.cards import load_labels
from device.teach import teach_cards
from support import DATA as TEST_DATA
from vision.cards import Catalog, read_cards

CARDS = TEST_DATA / "cards"
IMAGES = CARDS / "images"


def enroll_photo() -> tuple[Path, list[str]]:
    image, (_, names) = next((img, lab) for img, lab in sorted(load_labels(CARDS).items()) if lab[0] == "enroll")
    return IMAGES / image, names


def test_preview_then_commit_teaches_the_grid(tmp_path):
    photo, names = enroll_photo()
    frame = cv2.imread(str(photo))
    previews = teach_cards(frame, tmp_path / "deck", 3, 3, names, commit=False)
    assert len(previews) == 9 and all(p.startswith(b"\xff\xd8") for p in previews)
    assert not (tmp_path / "deck" / "catalog.json").exists()
    teach_cards(frame, tmp_path / "deck", 3, 3, names, commit=True)
    catalog = Catalog(tmp_path / "deck")
    assert sorted(catalog.names) == sorted(names)
    assert sorted(c.name for c in read_cards(frame, catalog)) == sorted(names)


@pytest.mark.parametrize("names, message", [(["a"] * 9, "duplicate"), (["a", "b"], "2 names")])
def test_bad_teaching_is_refused_and_writes_nothing(tmp_path, names, message):
    photo, _ = enroll_photo()
    with pytest.raises(ValueError, match=message):
        teach_cards(cv2.imread(str(photo)), tmp_path / "deck", 3, 3, names, commit=True)
    assert not (tmp_path / "deck" / "catalog.json").exists()


def test_no_frame_yet(tmp_path):
    with pytest.raises(ValueError, match="camera"):
        teach_cards(None, tmp_path / "deck", 1, 1, ["a"], commit=False)
