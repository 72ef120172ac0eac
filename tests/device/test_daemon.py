"""The whole box on simulated hardware: replayed camera, MockFactory pins, real speech.

These tests run the real daemon (``device.daemon.Daemon``) with the demo's
configuration: gpiozero's MockFactory pins, the replay camera over real tray photos,
espeak-ng writing WAV files, waitress serving the pages on a free loopback port.
"""

from __future__ import annotations

import csv
import dataclasses
import os
import shutil
import signal
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import cv2
import pytest
from gpiozero import Device

from device import daemon as daemon_module
from device.cli import DEMO_PHOTOS, demo_config
from device.config import Config
from device.daemon import Daemon
from engine.actions import Action
from engine.dice import in_order
from support.daemon import answers, call, free_port, make_daemon, start_demo
from support.unmask import Play
from support.waiting import wait_for
from vision.camera.base import Camera
from vision.camera.replay import ReplayCamera, ReplayFinished
from vision.dice import TaughtDice
from vision.settle import SettleDetector


@pytest.fixture
def daemon(tmp_path):
    made: list[Daemon] = []

    def build(**camera) -> Daemon:
        d = make_daemon(tmp_path, **camera)
        made.append(d)
        d.start()
        return d

    yield build
    for d in made:
        d.close()
    Device.pin_factory = None


ROLL_PHOTO = "IMG_20191209_095545.jpg"


def photo_faces(image: str) -> list[int]:
    rows = csv.DictReader((DEMO_PHOTOS / "labels.csv").open())
    return sorted(int(r["face"]) for r in rows if r["image"] == image)


def test_reads_the_replayed_roll_says_it_and_writes_speech(daemon):
    box = daemon(fps=30, source=f"replay:{DEMO_PHOTOS / ROLL_PHOTO}")
    box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    wait_for(lambda: box.service.public_view()["view"]["history"] or box.pending(), timeout=40)
    history = box.service.public_view()["view"]["history"]
    assert history, f"the first roll went to the host instead: {box.pending()}"
    assert sorted(history[0]) == photo_faces(ROLL_PHOTO)
    total = sum(history[0])
    assert wait_for(lambda: any(line.endswith(f": {total}") for line in box.narrator.history))
    assert box.narrator.wait_idle(30)
    wavs = list(box.narrator.wav_dir.glob("*.wav"))
    assert wavs and all(p.stat().st_size > 1000 for p in wavs)


def test_a_german_box_reads_the_roll_and_says_it_all_in_the_german_voice(tmp_path):
    """The dice reader's narration on a box set to German: every line in German, every
    one said with the German voice (no German line ever gets the English one)."""
    config = demo_config(Config(), tmp_path / "state", port=0)
    config = dataclasses.replace(
        config,
        box=dataclasses.replace(config.box, language="de"),
        camera=dataclasses.replace(config.camera, fps=30, source=f"replay:{DEMO_PHOTOS / ROLL_PHOTO}"),
    )
    box = Daemon(config)
    box.start()
    try:
        box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
        assert wait_for(lambda: box.service.public_view()["view"]["history"], timeout=40)
        total = sum(box.service.public_view()["view"]["history"][0])
        assert wait_for(lambda: any(line.endswith(f": {total}") for line in box.narrator.history))
        assert box.narrator.wait_idle(30)
        said = box.narrator.history
        assert "Familiar ist bereit." in said and "Neues Spiel: Würfelleser." in said
        assert "Bereit. Würfelt in die Schale." in said
        assert {(line.language, line.voice) for line in box.narrator.record} == {("de", "de")}
    finally:
        box.close()
        Device.pin_factory = None


def test_a_reading_parked_for_the_host_wakes_the_pages(daemon):
    """An open host page learns of a reading to confirm at once, not at the next move."""
    box = daemon(source="usb:/dev/familiar-no-such-camera")
    box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    box.desk.confirm_below = 1.0  # every die to the host
    before = box.service.version
    box._on_settled(cv2.imread(str(DEMO_PHOTOS / ROLL_PHOTO)))
    assert box.pending() and box.service.version > before
    before = box.service.version
    box.resolve(box.pending()[0]["id"], None)  # dropped: the page must forget it too
    assert not box.pending() and box.service.version > before


def test_a_die_shown_to_be_taught_is_not_read_as_a_roll(daemon):
    box = daemon(source="usb:/dev/familiar-no-such-camera")
    box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    frame = cv2.imread(str(DEMO_PHOTOS / ROLL_PHOTO))
    box._latest_frame = frame
    with pytest.raises(ValueError):  # six dice in view: nothing is taught...
        box.teach_die("clue", "star")
    box._on_settled(frame)  # ...and the tray is not read while the host teaches
    assert not box.pending() and not box.service.public_view()["view"]["history"]


def test_taught_dice_are_looked_for_only_where_the_roll_may_hold_them(daemon, monkeypatch):
    """The dice reader takes any dice; Unmask's rolls are pipped only, so they are read
    without the taught dice (faster)."""
    box = daemon(source="usb:/dev/familiar-no-such-camera")
    read_with = []
    real = daemon_module.read_dice
    monkeypatch.setattr(
        daemon_module, "read_dice", lambda frame, taught=None: read_with.append(taught) or real(frame, taught)
    )
    box.taught = taught = TaughtDice(())  # stands for the dice taught on this box
    frame = cv2.imread(str(DEMO_PHOTOS / ROLL_PHOTO))
    box.service.submit(Action("table.new", {"game": "unmask", "seats": ["Ann", "Bob", "Cat", "Dan", "Eve"]}))
    box.service.submit(Action("role", {"choice": "hogwarts"}, 0))  # Ann's Role first, then her roll
    assert [e.symbols for e in box.service.table.expects() if e.kind == "dice"] == [False]
    box._on_settled(frame)
    box.service.submit(Action("table.new", {"game": "dice", "seats": []}))
    assert [e.symbols for e in box.service.table.expects()] == [True]
    box._on_settled(frame)
    assert read_with[0] is None and read_with[1] is taught and len(read_with) == 2


def test_threat_track_and_status_light_follow_the_game(daemon):
    box = daemon(source="usb:/dev/familiar-no-such-camera")
    play = Play(5)
    play.table = box.service.table
    play.submit = box.service.submit  # the scripted game goes through the durable service
    box.service.submit(Action("table.new", {"game": "unmask", "seats": ["Ann", "Bob", "Cat", "Dan", "Eve"]}))
    play.first_leader(0)
    for _ in range(4):
        play.encounter(success=False)
    snap = box.board()["tracks"]["threat"]
    assert snap["lit"] == [True] * 4 + [False] * 4 and snap["attention"]
    assert box.board()["status"] == "attention"  # the missing camera is a problem to show
    box.undo()
    assert box.board()["tracks"]["threat"]["lit"] == [True] * 3 + [False] * 5


def test_a_missing_camera_is_said_and_shown_and_play_goes_on_by_hand(daemon):
    box = daemon(source="usb:/dev/familiar-no-such-camera")
    wait_for(lambda: box.parts["camera"] == "missing")
    assert any("Camera problem" in n for n in box.service.public_view()["notices"])
    assert wait_for(lambda: any("Camera problem" in line for line in box.narrator.history))
    box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    box.service.submit(Action("roll", {"dice": [2, 5]}))
    assert box.service.public_view()["view"]["total"] == 7


@pytest.mark.slow
def test_kill_9_of_the_demo_daemon_then_restart_loses_nothing(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    proc = start_demo(tmp_path, port)
    try:
        wait_for(lambda: answers(opener, base + "/host"), timeout=60)
        rolls = [[1, 2], [6, 6, 3], [4]]
        for dice in rolls:
            call(opener, base + "/api/host/act", {"kind": "roll", "data": {"dice": dice}})
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc = start_demo(tmp_path, port)
        wait_for(lambda: answers(opener, base + "/host"), timeout=60)
        history = call(opener, base + "/api/table")["view"]["history"]
        assert history[: len(rolls)] == [in_order(roll) for roll in rolls]
        assert answers(opener, base + "/api/host/pending")  # still the host after the restart
        for private in tmp_path.glob("familiar.db*"):  # the log's seeds decide every secret
            assert private.stat().st_mode & 0o077 == 0, private
    finally:
        proc.kill()
        proc.wait(10)


def test_outputs_are_redrawn_by_one_thread_at_a_time(tmp_path):
    """The camera thread redraws the status light while a submit's listener does: gpiozero
    raised "cannot join thread before it is started" from one of them, after the
    action was logged, and the phone was told to undo and retry."""
    import threading

    box = make_daemon(tmp_path, source="usb:/dev/familiar-no-such-camera")
    failures: list[BaseException] = []

    def redraw(flip: bool) -> None:
        for i in range(300):
            try:
                if (i % 2 == 0) == flip:
                    box.problems["test"] = "a problem"
                else:
                    box.problems.pop("test", None)
                box._show_board()
            except Exception as exc:  # noqa: BLE001 - collected for the assertion
                failures.append(exc)

    try:
        box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
        threads = [threading.Thread(target=redraw, args=(flip,)) for flip in (True, False)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not failures, failures[:3]
    finally:
        box.close()
        Device.pin_factory = None


def test_a_speaker_problem_clears_itself_when_a_line_plays_again(tmp_path):
    """ALSA's null device plays on any machine: it stands for the speaker coming back."""
    config = demo_config(Config(), tmp_path / "state", port=0)
    config = dataclasses.replace(
        config,
        audio=dataclasses.replace(config.audio, device="hw:familiar_no_such_card"),
        camera=dataclasses.replace(config.camera, source="usb:/dev/familiar-no-such-camera"),
    )
    box = Daemon(config)
    try:
        box.narrator.say("Is anyone there?")
        wait_for(lambda: box.parts["speaker"] == "failing")
        assert "speaker" in box.problems
        box.narrator.audio = dataclasses.replace(config.audio, device="null")
        box.narrator.say("Now you hear me.")
        wait_for(lambda: box.parts["speaker"] == "ok")
        assert "speaker" not in box.problems
        assert any("Speaker: working again" in n for n in box.service.public_view()["notices"])
    finally:
        box.close()
        Device.pin_factory = None


def test_a_seat_reset_is_announced_before_waiting_lines(tmp_path):
    box = make_daemon(tmp_path, source="usb:/dev/familiar-no-such-camera")
    said: list[tuple[str, bool]] = []
    box.narrator.say = lambda text, first=False, then_wait=0.0: said.append((text, first))  # what the daemon asks of it
    try:
        box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann", "Bob"]}))
        box.service.claim_seat(1, box.service.join_code())
        box.service.reset_seat(1)
        assert said[-1] == ("Bob's seat was reset. Bob, join again from your phone.", True)
        assert said[:-1] and all(not first for _, first in said[:-1])  # game lines wait their turn
    finally:
        box.close()
        Device.pin_factory = None


def corrupt_folder(tmp_path: Path) -> Path:
    """Photos for a replay camera: a real roll, then a file that is not a photo."""
    photos = tmp_path / "photos"
    photos.mkdir()
    shutil.copy(DEMO_PHOTOS / ROLL_PHOTO, photos / "a.jpg")
    (photos / "b.jpg").write_bytes(b"\xff\xd8 not really a photo")
    return photos


@pytest.mark.slow
def test_a_corrupt_photo_is_warned_about_once_not_at_every_reopen(tmp_path):
    """The replay camera fails at a corrupt photo, is reopened, works, fails again: the
    warning was said 5 times in 25 s. It is said once, and "working again" waits until
    the camera has delivered frames for a while without failing."""
    box = make_daemon(tmp_path, source=f"replay:{corrupt_folder(tmp_path)}")
    box.start()
    try:
        failures = lambda: [n for n in box.service.notices if n.startswith("Camera problem")]  # noqa: E731
        wait_for(lambda: box.parts["camera"] == "failing", timeout=30)
        first = time.monotonic()
        wait_for(lambda: time.monotonic() - first > 12, timeout=30)  # two more trips round the folder
        assert len(failures()) == 1, list(box.service.notices)
        assert not any("Camera: working again" in n for n in box.service.notices)
        assert box.parts["camera"] == "failing"
    finally:
        box.close()
        Device.pin_factory = None


@pytest.mark.slow
def test_the_camera_warning_clears_once_the_camera_has_worked_steadily(tmp_path, monkeypatch):
    monkeypatch.setattr(daemon_module, "CAMERA_STEADY_S", 2.0)
    photos = corrupt_folder(tmp_path)
    box = make_daemon(tmp_path, source=f"replay:{photos}")
    box.start()
    try:
        wait_for(lambda: box.parts["camera"] == "failing", timeout=30)
        shutil.copy(DEMO_PHOTOS / ROLL_PHOTO, photos / "b.jpg")  # the photo is good again
        wait_for(lambda: box.parts["camera"] == "ok", timeout=30)
        assert "camera" not in box.problems
        assert any("Camera: working again" in n for n in box.service.notices)
    finally:
        box.close()
        Device.pin_factory = None


def test_a_log_entry_set_aside_at_start_is_said_aloud(tmp_path):
    from device.store import Store

    config = demo_config(Config(), tmp_path / "state", port=0)
    store = Store(config.box.state_dir / "familiar.db")
    store.append(Action("table.new", {"game": "dice", "seats": ["Ann"]}), 0)
    with store.db:
        store.db.execute("INSERT INTO log (action, seed, at) VALUES ('{\"kind\": 1}', 0, 0)")
    store.close()
    box = make_daemon(tmp_path, source="usb:/dev/familiar-no-such-camera")
    try:
        assert box.service.table.current.seats == ("Ann",)
        assert box.narrator.wait_idle(60)
        assert any(line.startswith("Log entry #2 could not be replayed") for line in box.narrator.history)
    finally:
        box.close()
        Device.pin_factory = None


class TwoStreamCamera(Camera):
    """A camera with a low-resolution motion stream, as the Pi camera has: a shrunk copy
    of each replayed frame for motion, the full frame only when asked for one."""

    motion_is_full = False

    def __init__(self, replay: ReplayCamera) -> None:
        self.replay, self.full, self.full_reads = replay, None, 0

    def read_motion(self):
        self.full = self.replay.read()
        return cv2.resize(self.full, (256, 256), interpolation=cv2.INTER_AREA)

    def read(self):
        self.full_reads += 1
        return self.full

    def close(self) -> None:
        self.replay.close()


def test_motion_is_watched_on_the_small_stream_and_the_full_frame_is_read(tmp_path, monkeypatch):
    box = make_daemon(tmp_path)
    try:
        settled: list = []
        monkeypatch.setattr(box, "_on_settled", settled.append)
        replay = ReplayCamera([DEMO_PHOTOS / ROLL_PHOTO], fps=None, loop=False, hold_s=2.0)
        camera = TwoStreamCamera(replay)
        with pytest.raises(ReplayFinished):
            box._watch(camera, SettleDetector(fps=15))
        assert len(settled) == 1 and settled[0].shape == (640, 640, 3)  # the reader's frame is the full one
        assert box._latest_frame.shape == (640, 640, 3)  # so are the host page's and teaching's
        assert camera.full_reads <= 3  # not one per frame: at start, at the settle, and about once a second
    finally:
        box.close()
        Device.pin_factory = None
