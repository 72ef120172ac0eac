"""Camera sources, run for real: replay over real tray photos, OpenCV over a real video file
written from them, and the errors a person sees when a camera is missing."""

from __future__ import annotations

import itertools
import sys
import time
import tracemalloc
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cli import DEMO_PHOTOS
from vision.camera import (
    Camera,
    CameraError,
    OpenCVCamera,
    Picamera2Camera,
    ReplayCamera,
    ReplayFinished,
    check_camera,
    open_camera,
)
from vision.settle import SettleDetector

TRAY = DEMO_PHOTOS
PHOTOS = sorted(TRAY.glob("*.jpg"))
CONFIG_HINT = "/etc/familiar/familiar.toml"


def photo(path: Path) -> np.ndarray:
    return cv2.imread(str(path))


def read_all(camera: Camera, limit: int = 10_000) -> list[np.ndarray]:
    frames = []
    with pytest.raises(ReplayFinished):
        for _ in range(limit):
            frames.append(camera.read())
    return frames


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real MJPG video of the tray photos, three frames each (15 frames)."""
    path = tmp_path_factory.mktemp("video") / "tray.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (640, 640))
    assert writer.isOpened()
    for p in PHOTOS:
        for _ in range(3):
            writer.write(photo(p))
    writer.release()
    return path


def test_replay_of_a_folder_gives_its_photos_in_name_order_then_finishes() -> None:
    with ReplayCamera(TRAY, fps=None, loop=False, simulate_rolls=False) as camera:
        frames = read_all(camera)
    assert len(frames) == len(PHOTOS) == 5
    for frame, path in zip(frames, PHOTOS, strict=True):
        assert frame.dtype == np.uint8 and frame.shape == (640, 640, 3)
        assert np.array_equal(frame, photo(path))


def test_replay_of_a_list_keeps_its_order_and_loops() -> None:
    order = [PHOTOS[3], PHOTOS[0]]
    camera = ReplayCamera([str(p) for p in order], fps=None, loop=True, simulate_rolls=False)
    frames = [camera.read() for _ in range(5)]
    expected = [order[i % 2] for i in range(5)]
    assert all(np.array_equal(f, photo(p)) for f, p in zip(frames, expected, strict=True))


def test_simulated_rolls_give_the_settle_detector_one_frame_per_photo() -> None:
    """The demo path: every photo arrives through tumbling frames and an arm, then holds."""
    camera = ReplayCamera(TRAY, fps=None, loop=False, tumble_s=1.0, hold_s=1.5, seed=2)
    detector = SettleDetector(fps=15)
    settled = []
    moving_frames = 0
    with pytest.raises(ReplayFinished):
        while True:
            result = detector.feed(camera.read())
            moving_frames += detector.state == "moving"
            if result is not None:
                settled.append(result)
    assert len(settled) == len(PHOTOS)
    for frame, path in zip(settled, PHOTOS, strict=True):
        diff = cv2.absdiff(frame, photo(path))
        assert float(diff.mean()) < 3.0  # the photo itself, with sensor noise only
    assert moving_frames >= 4 * 15  # tumbling really looked like motion between the photos


def test_replay_is_paced_at_its_frame_rate() -> None:
    camera = ReplayCamera(PHOTOS[:1], fps=20.0, simulate_rolls=False)
    camera.read()
    start = time.monotonic()
    for _ in range(5):
        camera.read()
    assert time.monotonic() - start >= 5 / 20.0 - 0.01


def test_held_frames_get_new_noise_each_frame_from_about_one_frame_of_memory() -> None:
    """The demo's camera runs for hours: its sensor noise must hold a few frames of memory
    (six separate fields held 12 frames and peaked at 36 while drawn), and still give
    every pixel other noise from one frame to the next, as a sensor does."""
    still = photo(PHOTOS[0])
    camera = ReplayCamera(PHOTOS[:1], fps=None, simulate_rolls=True, hold_s=1.0, seed=3)
    tracemalloc.start()
    try:
        camera.read()  # draws the noise for this frame size
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 4 * still.nbytes and peak < 10 * still.nbytes
    frames = [camera.read().astype(np.int16) - still for _ in range(7)]
    for before, after in itertools.pairwise(frames):
        assert np.count_nonzero(before != after) > 0.3 * still.size
    assert 1.0 < float(np.abs(frames[0]).mean()) < 2.5  # sigma 2, clipped at 0 and 255


def test_replay_of_a_video_file(video: Path) -> None:
    frames = read_all(ReplayCamera(video, fps=None, loop=False))
    assert len(frames) == 15
    assert float(cv2.absdiff(frames[0], photo(PHOTOS[0])).mean()) < 8.0  # MJPG recompression only
    looping = ReplayCamera(video, fps=None, loop=True)
    again = [looping.read() for _ in range(16)]
    assert np.array_equal(again[15], again[0])


@pytest.mark.parametrize(
    "make_source, message",
    [
        (lambda tmp: tmp / "nowhere", "does not exist"),
        (lambda tmp: tmp, "no photos"),
        (lambda tmp: (tmp / "notes.txt").write_text("hello") and tmp / "notes.txt", "neither a photo nor a video"),
    ],
)
def test_replay_refuses_what_it_cannot_replay(tmp_path: Path, make_source, message: str) -> None:
    with pytest.raises(CameraError, match=message):
        ReplayCamera(make_source(tmp_path), fps=None)


def test_replay_names_a_corrupt_photo_when_it_reaches_it(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(PHOTOS[0].read_bytes())
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    camera = ReplayCamera(tmp_path, fps=None, simulate_rolls=False)
    camera.read()
    with pytest.raises(CameraError, match="b.jpg"):
        camera.read()


def test_opencv_camera_reads_a_video_file_then_says_it_stopped(video: Path) -> None:
    with OpenCVCamera(str(video), 640, 640, 10.0) as camera:
        assert camera.size == (640, 640)
        assert "640x640" in camera.description
        frames = [camera.read() for _ in range(14)]  # the first of 15 was read while opening
        assert all(f.shape == (640, 640, 3) and f.dtype == np.uint8 for f in frames)
        assert float(cv2.absdiff(frames[-1], photo(PHOTOS[-1])).mean()) < 8.0
        with pytest.raises(CameraError, match="stopped delivering frames"):
            camera.read()
    with pytest.raises(CameraError, match="closed"):
        camera.read()


def test_a_missing_usb_camera_says_what_to_do() -> None:
    with pytest.raises(CameraError, match=CONFIG_HINT):
        open_camera("usb:/dev/video99", 640, 480, 15)
    ok, line = check_camera("usb:/dev/video99", 640, 480)
    assert not ok and "/dev/video99" in line and CONFIG_HINT in line


def test_picamera2_absent_gives_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 now fails, even on a Pi
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        Picamera2Camera(640, 480, 15)
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        open_camera("picamera2", 640, 480, 15)


def test_picamera2_without_a_ribbon_camera_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """picamera2 installed, but libcamera only sees a USB webcam (which OpenCV handles)."""

    class OnlyUsbCamera:
        @staticmethod
        def global_camera_info() -> list[dict[str, object]]:
            return [{"Model": "uvcvideo", "Id": "/base/axi/pcie@120000/rp1/usb@200000-1:1.0-046d:0825", "Num": 0}]

    monkeypatch.setitem(sys.modules, "picamera2", type(sys)("picamera2"))
    monkeypatch.setattr(sys.modules["picamera2"], "Picamera2", OnlyUsbCamera, raising=False)
    with pytest.raises(CameraError, match="no camera found on the camera connector: connect the camera ribbon"):
        Picamera2Camera(640, 480, 15)


def test_auto_without_any_camera_says_what_to_connect(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr("vision.camera.usb.usb_camera_devices", lambda: [])
    with pytest.raises(CameraError, match="no camera found: connect the camera ribbon / a USB webcam"):
        open_camera("auto", 640, 480, 15)


def test_auto_takes_the_first_usb_device_that_delivers(monkeypatch: pytest.MonkeyPatch, video: Path) -> None:
    """A dead node (like a webcam's metadata node) is skipped for the next one that works."""
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr("vision.camera.usb.usb_camera_devices", lambda: ["/dev/video99", str(video)])
    with open_camera("auto", 640, 640, 10) as camera:
        assert isinstance(camera, OpenCVCamera) and str(video) in camera.description


@pytest.mark.parametrize("source", ["bogus", "usb:", "replay:", "picamera2:7", ""])
def test_unknown_sources_list_the_valid_ones(source: str) -> None:
    with pytest.raises(CameraError, match='"usb:0"'):
        open_camera(source, 640, 480, 15)


def test_open_camera_replays_a_folder_and_doctor_reports_it() -> None:
    with open_camera(f"replay:{TRAY}", 640, 480, 30) as camera:
        assert isinstance(camera, ReplayCamera)
        assert camera.read().shape == (640, 640, 3)
    ok, line = check_camera(f"replay:{TRAY}", 640, 480)
    assert ok and "640x640" in line and "brightness" in line


def test_doctor_fails_a_black_picture(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "dark.png"), np.full((480, 640, 3), 3, np.uint8))
    ok, line = check_camera(f"replay:{tmp_path}", 640, 480)
    assert not ok and "almost black" in line
