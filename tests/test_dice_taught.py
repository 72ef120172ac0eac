"""Teaching a symbol die once and reading it in later rolls, with pipped dice beside it.

No photos of Clue's symbol die exist in the project, so the die is drawn here: a dark
rounded cube face with a light symbol, pasted (rotated, at a new place, softened like
a camera would) onto real tray photos.  The teaching photos and the reading photos
differ in position, rotation and background, as they would at a table.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.test_dice_support import FACES, PHOTOS, empty_tray, paste
from vision.dice import read_dice
from vision.dice_taught import TaughtDice, teach_die
from vision.images import ImageError

@pytest.fixture(scope="module")
def taught(tmp_path_factory: pytest.TempPathFactory) -> TaughtDice:
    root = tmp_path_factory.mktemp("state") / "dice"
    tray = empty_tray()
    for i, face in enumerate(FACES):
        photos = [paste(tray, face, 200 + 90 * k, 260 + 40 * k, 40 + 3 * k, 25 * i + 70 * k) for k in range(3)]
        teach_die(root / "clue", face, photos)
    return TaughtDice.load(root, ["clue"])


def test_model_is_portable_files(taught: TaughtDice, tmp_path_factory: pytest.TempPathFactory) -> None:
    die = taught.dice[0]
    assert die.name == "clue" and die.faces == list(FACES)


def test_taught_faces_read_among_pipped_dice(taught: TaughtDice) -> None:
    """Each face in a new roll: never a wrong face, pips unchanged, half read at least."""
    frame, labels = PHOTOS["IMG_20191208_112246.jpg"]
    x, y = 560.0, 560.0
    assert all(math.hypot(l.x - x, l.y - y) > 60 for l in labels)
    read = []
    for face in FACES:
        roll = paste(frame, face, x, y, 42, 17 + 40 * FACES.index(face))
        reading = read_dice(roll, taught)
        symbol = [d for d in reading.dice if math.hypot(d.x - x, d.y - y) < 15]
        assert len(symbol) == 1 and symbol[0].value in (face, None), (face, symbol)
        read.append(symbol[0].value)
        pipped = [d.value for d in reading.dice if d not in symbol]
        assert not any(isinstance(v, str) for v in pipped)
    assert read.count(None) <= 3, read  # measured: 3 of 6 read, none wrong (a known gap)


def test_pipped_dice_are_not_taken_for_taught_ones(taught: TaughtDice) -> None:
    for name, (frame, labels) in PHOTOS.items():
        values = read_dice(frame, taught).values
        assert not any(isinstance(v, str) for v in values), name


def test_teaching_without_a_die_stores_nothing(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no die found"):
        teach_die(tmp_path / "clue", "star", [paste(empty_tray(), "star", 300, 300, 40, 0), empty_tray()])
    assert not list((tmp_path / "clue").glob("*.png"))


def test_names_cannot_escape_the_state_dir(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        teach_die(tmp_path / "clue", "../evil", [empty_tray()])
    with pytest.raises(ValueError):
        TaughtDice.load(tmp_path, ["../etc"])
