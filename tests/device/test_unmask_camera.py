"""A Dark Creature battle read by the camera: a roll, a partial re-roll, the result spoken.

The daemon runs on simulated hardware with the replay camera over two real tray
photos: the first roll (4 4 4 5 5 5: no four of a kind against a Dementor, set to four of a kind here), then the
Leader keeps the three 4s and re-rolls the 5s, one of which lands on a 4.  That
second photo is the first one with one die changed: a real 4 from the same photo
pasted over a 5, the way the tray looks when only some dice move.
"""

from __future__ import annotations

import csv
import dataclasses
import time
from pathlib import Path

import cv2
import pytest
from gpiozero import Device

from device.cli import DEMO_PHOTOS, demo_config
from device.config import Config
from device.daemon import Daemon
from engine.actions import Action
from support.table import NAMES
from support.unmask import Play

TRAY = DEMO_PHOTOS
PHOTO = "IMG_20191209_095545.jpg"


def boxes(image: str) -> list[tuple[int, tuple[int, int, int, int]]]:
    rows = csv.DictReader((TRAY / "labels.csv").open())
    return [
        (int(r["face"]), tuple(int(float(r[k])) for k in ("x1", "y1", "x2", "y2"))) for r in rows if r["image"] == image
    ]


def reroll_photos(folder: Path) -> None:
    """1.jpg: the real roll; 2.jpg: the same tray with one 5 turned into a real 4."""
    first = cv2.imread(str(TRAY / PHOTO))
    dice = boxes(PHOTO)
    assert sorted(face for face, _ in dice) == [4, 4, 4, 5, 5, 5]
    (x1, y1, x2, y2) = next(box for face, box in dice if face == 4)
    four = first[y1:y2, x1:x2]
    second = first.copy()
    (a1, b1, a2, b2) = next(box for face, box in dice if face == 5)
    cx, cy = (a1 + a2) // 2, (b1 + b2) // 2
    h, w = four.shape[:2]
    second[cy - h // 2 : cy - h // 2 + h, cx - w // 2 : cx - w // 2 + w] = four
    folder.mkdir()
    cv2.imwrite(str(folder / "1.jpg"), first, [cv2.IMWRITE_JPEG_QUALITY, 95])
    cv2.imwrite(str(folder / "2.jpg"), second, [cv2.IMWRITE_JPEG_QUALITY, 95])


@pytest.fixture
def box(tmp_path):
    reroll_photos(tmp_path / "rolls")
    config = demo_config(Config(), tmp_path / "state", port=0)
    config = dataclasses.replace(
        config, camera=dataclasses.replace(config.camera, source=f"replay:{tmp_path / 'rolls'}", fps=30)
    )
    daemon = Daemon(config)
    yield daemon
    daemon.close()
    Device.pin_factory = None


@pytest.mark.slow
def test_a_dementor_battle_read_from_a_roll_and_a_partial_reroll(box):
    play = Play(5)
    play.table = box.service.table
    play.submit = box.service.submit
    box.service.submit(
        Action(
            "table.new",
            {"game": "unmask", "seats": NAMES[:5], "options": {"creatures": "dementor:4, inferius:3, giant:4"}},
        )
    )
    play.first_leader(0)
    play.token("dementor")
    play.act("reveal", cards=[{"dice": 4}, {"dice": 5}])
    assert [e.count for e in box.service.table.expects() if e.kind == "dice"] == [6]
    box.start()  # the camera now replays the two photos
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any("defeated" in line for line in box.narrator.history):
        time.sleep(0.1)
    said = box.narrator.history
    rolls = [line for line in said if line.startswith(f"{NAMES[0]}: ") or "4, 4, 4" in line]
    assert any("Not yet" in line for line in said), said
    assert any(line.startswith("The Dementor is defeated") or "Dementor is defeated" in line for line in said), said
    logged = [
        e.action.data["dice"]
        for e in box.store.entries()
        if e.action.kind == "roll" and len(e.action.data.get("dice", [])) == 6
    ]
    assert [sorted(d) for d in logged] == [[4, 4, 4, 5, 5, 5], [4, 4, 4, 4, 5, 5]], (logged, rolls, box.pending())
    assert box.board()["tracks"]["threat"]["lit"] == [False] * 8
