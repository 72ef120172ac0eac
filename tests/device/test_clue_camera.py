"""Harry Potter Clue from the camera: a real tray photo left with one of its pipped dice,
the rendered black die of ``bench/taught_dice.py`` pasted in beside it (its six symbols
taught under the Clue faces' names, as the host does with "Teach a die"), read by the
box's dice reader and answered to the game's own roll prompt, the consequences said."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.taught_dice import FACES, camera_finish, empty_tray, paste_die, random_look
from device.teach import teach_die_face
from engine.actions import Action
from support.clue import Play
from support.photos import local_photos
from support.teach import shot
from vision.dice import read_dice
from vision.dice.taught import TaughtDice

AS_CLUE = dict(
    zip(FACES, ("star", "dark-mark", "hogwarts-castle", "gringotts", "ministry-of-magic", "hogs-head"), strict=True)
)
"""The rendered die's symbols, taught under the names the game reads the black die by."""
PHOTO = "IMG_20191208_111328.jpg"


@pytest.fixture(scope="module")
def taught(tmp_path_factory: pytest.TempPathFactory) -> TaughtDice:
    root: Path = tmp_path_factory.mktemp("dice")
    for seed, (face, name) in enumerate(AS_CLUE.items()):
        teach_die_face(shot(face, 100 + seed), root, "black", name)
    return TaughtDice.load(root, ["black"])


def tray_with(face: str, seed: int) -> tuple[np.ndarray, int]:
    """The real photo with all its dice painted out but one, the black die beside it."""
    frame, labels = local_photos("dice")[PHOTO]
    kept, rest = labels[0], labels[1:]
    rng = np.random.default_rng(seed)
    tray = empty_tray(frame, rest)
    look = random_look(rng, [kept], tray.shape[0])
    return camera_finish(paste_die(tray, face, look), rng), kept.face


@pytest.mark.parametrize(("face", "seed"), [("key", 1), ("dark-mark", 2), ("star", 3)])
def test_a_roll_read_from_the_tray_is_taken_and_its_consequences_said(taught: TaughtDice, face: str, seed: int) -> None:
    frame, pips = tray_with(face, seed)
    values = [d.value for d in read_dice(frame, taught).dice]
    assert sorted(values, key=str) == sorted([pips, AS_CLUE[face]], key=str)
    play = Play(3)
    play.choose_all(first=0)
    (prompt,) = [e for e in play.table.expects() if e.action == "roll"]
    assert prompt.symbols and prompt.count == 2
    play.submit(Action("roll", {"dice": values}))  # the box answers the prompt with the camera's reading
    expected = {
        "gringotts": "Turn the Gringotts wheel one notch clockwise.",
        "dark-mark": "The Dark Mark appears on the black die! Ann, take one Dark card and read it out loud.",
        "star": "A star: Ann, take a Help card and place it in front of you.",
    }[AS_CLUE[face]]
    assert expected in play.said
    assert play.s.roll == {"green": pips, "black": AS_CLUE[face]}
