"""Teaching a symbol die from the box's camera: the device function, the daemon that
reloads its taught dice at once, and the host-only API around them.

The frames are real tray photos: emptied of their dice for the die shown alone (with
the rendered Clue-like die of ``bench/taught_dice.py``), or as they are for
"too many dice".
"""

from __future__ import annotations

import base64
import dataclasses
import math

import cv2
import numpy as np
import pytest
from gpiozero import Device

from bench.taught_dice import FACES
from device.cli import demo_config
from device.config import Config
from device.daemon import Daemon
from device.teach import PREVIEW_SIDE, teach_die_face
from engine.actions import Action
from support.teach import EMPTY, FULL_TRAY, roll_with, shot
from support.web import make_app
from vision.dice import read_dice
from web import create_app


def test_a_capture_adds_one_photo_of_the_face_and_shows_its_patch(tmp_path):
    first = teach_die_face(shot("star", 1), tmp_path, "clue", "star")
    assert first["die"] == "clue" and first["face"] == "star" and first["faces"] == {"star": 1}
    preview = cv2.imdecode(np.frombuffer(first["preview"], np.uint8), cv2.IMREAD_COLOR)
    assert preview.shape == (PREVIEW_SIDE, PREVIEW_SIDE, 3)
    assert teach_die_face(shot("star", 2), tmp_path, "clue", "star")["faces"] == {"star": 2}
    assert teach_die_face(shot("bolt", 3), tmp_path, "clue", "bolt")["faces"] == {"star": 2, "bolt": 1}


@pytest.mark.parametrize(
    "frame, die, face, message",
    [
        (None, "clue", "star", "camera has not delivered"),
        (EMPTY, "clue", "star", "I see no die"),
        (FULL_TRAY, "clue", "star", r"I see \d+ dice: leave only the die you are teaching"),
        ("die", "../clue", "star", "die name"),
        ("die", "clue", "dark mark", "face name"),
        ("die", "clue", "", "face name"),
    ],
)
def test_refused_captures_say_why_and_write_nothing(tmp_path, frame, die, face, message):
    frame = shot("star", 4) if isinstance(frame, str) else frame
    with pytest.raises(ValueError, match=message):
        teach_die_face(frame, tmp_path, die, face)
    assert list(tmp_path.iterdir()) == []


# The daemon and the API


@pytest.fixture
def box(tmp_path):
    config = demo_config(Config(), tmp_path / "state", port=0)
    config = dataclasses.replace(
        config, camera=dataclasses.replace(config.camera, source="usb:/dev/familiar-no-such-camera")
    )
    daemon = Daemon(config)  # not started: the test hands it camera frames itself
    yield daemon
    daemon.close()
    Device.pin_factory = None


@pytest.fixture
def clients(box):
    app = create_app(box.service, box, public_url="http://familiar.test:8080", simulated=True)
    host = app.test_client()
    assert host.get("/host").status_code == 200
    box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    player = app.test_client()
    player.get(f"/j/{box.service.join_code()}")
    assert player.post("/api/join", json={"seat": 0}).status_code == 200
    return host, player, app.test_client()


def capture(host, box, frame, die="clue", face="star"):
    box._latest_frame = frame
    return host.post("/api/host/dice/teach", json={"die": die, "face": face})


def test_the_host_teaches_a_die_and_the_next_roll_reads_it(box, clients):
    host, _, _ = clients
    assert host.get("/api/host/dice").json == {"dice": {}}
    roll, x, y = roll_with("bolt", 20)
    for seed, face in enumerate(FACES + ("bolt",)):
        if face == FACES[-1]:  # five of six faces: a die that matches is only ever unsure
            assert [d.value for d in read_dice(roll, box.taught).dice if math.hypot(d.x - x, d.y - y) < 15] == [None]
        reply = capture(host, box, shot(face, 10 + seed), face=face)
        assert reply.status_code == 200, reply.json
        assert reply.json["preview"].startswith("data:image/jpeg;base64,")
        assert base64.b64decode(reply.json["preview"].split(",", 1)[1])[:2] == b"\xff\xd8"
    taught = {face: 1 for face in FACES} | {"bolt": 2}
    assert reply.json["faces"] == taught and host.get("/api/host/dice").json == {"dice": {"clue": taught}}
    reading = read_dice(roll, box.taught)  # what the camera thread reads with, swapped in at once
    die = [d for d in reading.dice if math.hypot(d.x - x, d.y - y) < 15]
    assert [d.value for d in die] == ["bolt"]
    assert all(isinstance(d.value, int) or d.value is None for d in reading.dice if d not in die)


def test_captures_that_show_no_die_or_several_change_nothing(box, clients):
    host, _, _ = clients
    for frame, message in (
        (FULL_TRAY, "dice: leave only the die you are teaching"),
        (EMPTY, "I see no die"),
        (None, "camera"),
    ):
        reply = capture(host, box, frame)
        assert reply.status_code == 400 and message in reply.json["error"]
    reply = capture(host, box, shot("star", 5), die="../../etc")
    assert reply.status_code == 400 and "die name" in reply.json["error"]
    assert host.post("/api/host/dice/teach", json={"die": "clue"}).status_code == 400
    assert host.get("/api/host/dice").json == {"dice": {}} and box.taught is None


def test_forget_a_die(box, clients):
    host, _, _ = clients
    assert capture(host, box, shot("star", 6)).status_code == 200
    assert box.taught is not None
    assert host.post("/api/host/dice/forget", json={"die": "other"}).status_code == 404
    assert host.post("/api/host/dice/forget", json={"die": "../state"}).status_code == 400
    forgot = host.post("/api/host/dice/forget", json={"die": "clue"})
    assert forgot.status_code == 200 and forgot.json["dice"] == {}
    assert box.taught is None and not (box._dice_root() / "clue").exists()


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("get", "/api/host/dice", None),
        ("post", "/api/host/dice/teach", {"die": "clue", "face": "star"}),
        ("post", "/api/host/dice/forget", {"die": "clue"}),
    ],
)
def test_only_the_host_may_teach_or_forget(box, clients, method, path, body):
    _, player, stranger = clients
    box._latest_frame = shot("star", 7)
    for client in (player, stranger):
        reply = getattr(client, method)(path, json=body) if body else getattr(client, method)(path)
        assert reply.status_code == 403 and "host" in reply.json["error"]
    assert not box._dice_root().exists() or box.taught_dice() == {}


def test_without_a_camera_teaching_says_so(tmp_path):
    app, _ = make_app(tmp_path)
    host = app.test_client()
    host.get("/host")
    reply = host.post("/api/host/dice/teach", json={"die": "clue", "face": "star"})
    assert reply.status_code == 400 and "no camera" in reply.json["error"]
    assert host.get("/api/host/dice").json == {"dice": {}}
    assert host.post("/api/host/dice/forget", json={"die": "clue"}).status_code == 404
