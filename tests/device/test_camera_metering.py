"""The camera meters the light afresh when a new game starts and when the host asks,
on the real daemon with the replay camera over the tray photos (which counts the
requests: a replay has no exposure to re-measure)."""

from __future__ import annotations

from pathlib import Path

from gpiozero import Device

from device import daemon as daemon_module
from device.cli import DEMO_PHOTOS
from engine.actions import Action
from support.daemon import make_daemon
from support.waiting import wait_for
from vision.camera import ReplayCamera
from web import create_app
from web.box import NoHardware

TRAY = DEMO_PHOTOS


class MeteredReplay(ReplayCamera):
    """The real replay camera, remembering each ``remeter()`` the daemon asked for."""

    remeters = 0

    def remeter(self) -> None:
        type(self).remeters += 1


def test_a_new_game_and_the_host_s_request_meter_again(tmp_path: Path, monkeypatch) -> None:
    MeteredReplay.remeters = 0
    monkeypatch.setattr(daemon_module, "open_camera", lambda *args: MeteredReplay(TRAY, fps=20))
    box = make_daemon(tmp_path)
    box.start()
    try:
        wait_for(lambda: box._latest_frame is not None)
        assert MeteredReplay.remeters == 0
        box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
        wait_for(lambda: MeteredReplay.remeters == 1)
        box.service.submit(Action("roll", {"dice": [2, 5]}))  # not a new game
        app = create_app(box.service, box, simulated=True)
        host = app.test_client()
        host.get("/host")  # the first browser to open the host page is the host
        assert host.post("/api/host/camera/meter", json={}).status_code == 200
        wait_for(lambda: MeteredReplay.remeters == 2)
        far = {"REMOTE_ADDR": "192.168.1.50"}
        assert app.test_client().post("/api/host/camera/meter", json={}, environ_base=far).status_code == 403
    finally:
        box.close()
        Device.pin_factory = None
    assert MeteredReplay.remeters == 2


def test_without_a_camera_the_request_is_refused_with_a_reason(tmp_path: Path) -> None:
    box = make_daemon(tmp_path)
    try:
        app = create_app(box.service, NoHardware(), simulated=True)
        host = app.test_client()
        host.get("/host")
        reply = host.post("/api/host/camera/meter", json={})
        assert reply.status_code == 400 and "no camera" in reply.json["error"]
    finally:
        box.close()
        Device.pin_factory = None
