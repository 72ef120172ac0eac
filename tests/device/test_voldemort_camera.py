"""Secret Voldemort's physical policy deck kept by the camera: the two policy cards taught
once as the host page fills them in (in English or German), then the Headmaster's policy
read from a photo in the reveal zone, while the policies already on the board are not.

There are no photos of this edition's cards, so the two policies are stand-ins, as in
``test_deal_camera``: real photos of two SET cards (tests/data/cards, Apache-2.0).  The
teaching photo is what the host page asks for (the two cards in one row on the table),
made of the set's ``enroll`` photos; the cards laid in play are cut from photos of the
same cards taken on another day under another light.  Each frame is replayed through
the replay camera, the settle detector, the daemon's card reading and the reading desk.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from gpiozero import Device

from device.daemon import Daemon
from device.teach import teach_cards
from engine.actions import Action
from engine.games.voldemort import Voldemort
from engine.games.voldemort_state import VoldemortState
from support.card_table import Laid, box_with_areas, empty_table, lay
from vision.camera.base import ReplayFinished
from vision.camera.replay import ReplayCamera
from vision.settle import SettleDetector
from web.language import Language

ORDER_CARD, DARK_CARD = "1-green-solid-oval", "2-red-solid-oval"
"""The SET cards standing in for the Order policy and the Dark Arts policy."""
TAUGHT = {ORDER_CARD: "green-1-20161231_114459.jpg", DARK_CARD: "red-2-20161231_114330.jpg"}
PLAYED = {ORDER_CARD: "green-1-20170101_124953.jpg", DARK_CARD: "red-2-20170101_124832.jpg"}
AREAS = "[[vision.areas]]\nreveal = [0.25, 0.42, 0.75, 0.66]\n"
"""The reveal zone in the middle of the board; the tracks lie above and below it.  (The
painted-out table photo holds one card-like shape at (0.46, 0.38), read as an unknown
card: a zone over it would park it for the host, as a real smudge there would.)"""


@pytest.fixture
def box(tmp_path: Path):
    daemon = box_with_areas(tmp_path / "state", AREAS)
    yield daemon
    daemon.close()
    Device.pin_factory = None


def teach_policies(box: Daemon, language: str) -> list[str]:
    """The host page's step: the deck it fills in, taught from one row of the two cards."""
    (deck,) = Voldemort.teach
    names = [Language(language).text(name) for name in deck["names"]]
    row = lay(
        empty_table(), [Laid(ORDER_CARD, TAUGHT[ORDER_CARD], 0.3, 0.5), Laid(DARK_CARD, TAUGHT[DARK_CARD], 0.7, 0.5)]
    )
    folder = box.config.state_path(box.config.vision.card_catalog) / str(deck["deck"])
    teach_cards(row, folder, int(deck["rows"]), int(deck["cols"]), names, commit=True)
    return names


class Camera:
    """The table photographed after each change, replayed through the daemon's camera loop."""

    def __init__(self, box: Daemon, folder: Path) -> None:
        self.box, self.folder = box, folder
        self.settle = SettleDetector(fps=15)
        self.table = empty_table()
        folder.mkdir()
        self.shots = [folder / "00.jpg"]
        cv2.imwrite(str(self.shots[0]), self.table)

    def sees(self, cards: list[Laid]) -> None:
        path = self.folder / f"{len(self.shots):02}.jpg"
        cv2.imwrite(str(path), lay(self.table, cards), [cv2.IMWRITE_JPEG_QUALITY, 92])
        before, self.shots = self.shots[-1], [*self.shots, path]
        with pytest.raises(ReplayFinished), ReplayCamera([before, path], fps=None, loop=False) as camera:
            self.box._watch(camera, self.settle)


def state(box: Daemon) -> VoldemortState:
    return box.service.table.current.state


def act(box: Daemon, kind: str, **data: object) -> None:
    box.service.submit(Action(kind, data))


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_headmasters_policy_is_read_in_the_reveal_zone_only(box: Daemon, tmp_path: Path, language: str) -> None:
    names = teach_policies(box, language)
    assert names == (["Order Policy", "Dark Arts Policy"] if language == "en" else ["Orden", "Dunkle Künste"])
    act(box, "table.new", game="voldemort", seats=["Ann", "Bob", "Cat", "Dan", "Eve"], options={"deck": "physical"})
    act(box, "nominate", choice=state(box).eligible()[0])
    act(box, "hands", choice="5")
    assert state(box).step == "policy"
    camera = Camera(box, tmp_path / "frames")

    # A Dark Arts policy already lies on its track, outside the reveal zone: not a reveal.
    on_track = Laid(DARK_CARD, PLAYED[DARK_CARD], 0.5, 0.2, 90.0)
    camera.sees([on_track])
    assert (state(box).step, state(box).order, state(box).dark_arts) == ("policy", 0, 0)
    assert box.pending() == [], [(p["values"], p["why"]) for p in box.pending()]

    # The Headmaster lays the Order policy in the reveal zone: it is enacted.
    camera.sees([on_track, Laid(ORDER_CARD, PLAYED[ORDER_CARD], 0.5, 0.55, 3.0)])
    assert (state(box).order, state(box).dark_arts, state(box).enacted) == (1, 0, ["order"])
    assert box.pending() == [] and state(box).step == "nominate"
