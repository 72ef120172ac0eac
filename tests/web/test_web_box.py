"""The host's hardware tools through the web: readings to confirm, teaching a deck,
the camera picture, the board and its simulated buttons."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from engine.actions import Action
from support.web import make_app

JPEG = b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9"


class RecordingBox:
    """A box whose readings go to the real table service, and which remembers calls."""

    def __init__(self) -> None:
        self.service: Any = None
        self.readings = {
            "r1": {"id": "r1", "kind": "dice", "action": "roll", "values": [3, 5], "unsure": [1], "confidence": 0.6}
        }
        self.pressed: list[str] = []
        self.taught: list[tuple] = []

    def board(self) -> dict[str, Any]:
        return {
            "tracks": {"threat": {"lit": [True, True, False], "attention": False}},
            "status": "ready",
            "simulated": True,
            "parts": {"camera": "ok", "speaker": "missing: no sound card"},
            "problems": ["no speaker: lines are written to WAV files"],
            "spoken": ["Ready. Roll the dice in the tray."],
        }

    def press(self, button: str) -> None:
        self.pressed.append(button)

    def camera_jpeg(self) -> bytes | None:
        return JPEG

    def pending(self) -> list[dict[str, Any]]:
        return list(self.readings.values())

    def pending_jpeg(self, reading_id: str) -> bytes | None:
        return JPEG if reading_id in self.readings else None

    def resolve(self, reading_id: str, values: list[Any] | None) -> None:
        reading = self.readings.pop(reading_id)
        if values is not None:
            self.service.submit(Action(reading["action"], {"dice": values}))

    def teach_cards(self, catalog: str, rows: int, cols: int, names: list[str], commit: bool) -> list[bytes]:
        if rows * cols == 4:
            raise ValueError("found 3 cards, expected 4: lay the cards flat and apart")
        self.taught.append((catalog, rows, cols, names, commit))
        return [JPEG] * (rows * cols)


@pytest.fixture
def dice_table(tmp_path):
    box = RecordingBox()
    app, service = make_app(tmp_path, box, simulated=True)
    box.service = service
    host = app.test_client()
    host.get("/host")
    host.post("/api/host/act", json={"kind": "table.new", "data": {"game": "dice", "seats": []}})
    return app, service, host, box


def test_confirm_a_pending_reading_with_its_photo(dice_table):
    app, service, host, box = dice_table
    assert host.get("/api/host/pending").json["pending"][0]["values"] == [3, 5]
    photo = host.get("/api/host/pending/r1/photo")
    assert photo.mimetype == "image/jpeg" and photo.data == JPEG and photo.headers["Cache-Control"] == "no-store"
    assert host.post("/api/host/pending/r1", json={"values": [3, 5]}).status_code == 200
    assert service.public_view()["view"]["last"] == [3, 5]
    assert host.post("/api/host/pending/r1", json={"values": [3, 5]}).status_code == 404
    assert host.get("/api/host/pending/r1/photo").status_code == 404


def test_correct_or_discard_a_reading(dice_table):
    app, service, host, box = dice_table
    assert host.post("/api/host/pending/r1", json={"values": [3, 9]}).status_code == 409  # the rules refuse a 9
    box.readings["r1"] = {
        "id": "r1",
        "kind": "dice",
        "action": "roll",
        "values": [3, 5],
        "unsure": [1],
        "confidence": 0.6,
    }
    assert host.post("/api/host/pending/r1", json={"values": [3, 6]}).status_code == 200
    assert service.public_view()["view"]["last"] == [3, 6]
    box.readings["r2"] = {"id": "r2", "kind": "dice", "action": "roll", "values": [1], "unsure": [0], "confidence": 0.5}
    before = service.version
    assert host.post("/api/host/pending/r2", json={"values": None}).status_code == 200
    assert service.version == before and box.pending() == []


def test_teach_a_deck_preview_then_commit(dice_table):
    app, service, host, box = dice_table
    names = ["a", "b", "c", "d", "e", "f"]
    preview = host.post("/api/host/teach", json={"catalog": "set-deck", "rows": 2, "cols": 3, "names": names})
    assert preview.status_code == 200 and preview.json["committed"] is False
    assert [base64.b64decode(u.split(",", 1)[1]) for u in preview.json["previews"]] == [JPEG] * 6
    saved = host.post(
        "/api/host/teach", json={"catalog": "set-deck", "rows": 2, "cols": 3, "names": names, "commit": True}
    )
    assert saved.json["committed"] is True
    assert [t[4] for t in box.taught] == [False, True]
    refused = host.post("/api/host/teach", json={"catalog": "set-deck", "rows": 2, "cols": 2, "names": names[:4]})
    assert refused.status_code == 400 and "expected 4" in refused.json["error"]


def test_camera_picture_for_the_host_only(dice_table):
    app, service, host, box = dice_table
    assert host.get("/api/host/camera").data == JPEG
    assert app.test_client().get("/api/host/camera").status_code == 403


def test_board_is_public_and_buttons_need_host_or_the_box_itself(dice_table):
    app, service, host, box = dice_table
    board = app.test_client().get("/api/board").json
    assert board["tracks"]["threat"]["lit"] == [True, True, False] and board["spoken"]
    stranger = app.test_client()
    far = {"REMOTE_ADDR": "192.168.1.50"}
    assert stranger.post("/api/board/press", json={"button": "confirm"}, environ_base=far).status_code == 403
    assert stranger.post("/api/board/press", json={"button": "confirm"}).status_code == 200  # from 127.0.0.1
    assert host.post("/api/board/press", json={"button": "undo"}, environ_base=far).status_code == 200
    assert host.post("/api/board/press", json={"button": "explode"}).status_code == 400
    assert box.pressed == ["confirm", "undo"]
    page = host.get("/board").get_data(as_text=True)
    assert 'data-button="confirm"' in page


def test_real_boxes_have_no_simulated_buttons(tmp_path):
    app, service = make_app(tmp_path, RecordingBox(), simulated=False)
    host = app.test_client()
    host.get("/host")
    assert host.post("/api/board/press", json={"button": "confirm"}).status_code == 403
    assert "data-button" not in host.get("/board").get_data(as_text=True)


def test_without_hardware_every_tool_answers_plainly(tmp_path):
    app, service = make_app(tmp_path)
    host = app.test_client()
    host.get("/host")
    assert host.get("/api/host/pending").json == {"pending": []}
    assert host.get("/api/host/camera").status_code == 404
    assert host.post("/api/host/pending/x", json={"values": [1]}).status_code == 404
    taught = host.post("/api/host/teach", json={"catalog": "d", "rows": 1, "cols": 1, "names": ["a"]})
    assert taught.status_code == 400 and "camera" in taught.json["error"]
    assert host.get("/api/board").json["status"] == "off"
