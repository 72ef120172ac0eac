"""USB webcams (and video files) through OpenCV's ``VideoCapture``."""

from __future__ import annotations

import glob
import os
import re

import cv2
import numpy as np

from vision.camera.base import NO_CAMERA_HINT, Camera, CameraError, CameraTuning, as_bgr
from vision.camera.v4l2 import Controls, DeviceControls, apply_tuning

WARMUP_FRAMES = 5
"""Frames dropped after opening: webcams deliver dark or half-exposed frames while their
auto exposure starts up, and those must not reach the settle detector."""

V4L2_EXPOSURE_MANUAL, V4L2_EXPOSURE_APERTURE_PRIORITY = 1, 3
"""``CAP_PROP_AUTO_EXPOSURE`` takes V4L2's own ``exposure_auto`` menu values (UVC
webcams offer manual and aperture priority, which is their automatic mode)."""

READ_RETRIES = 3
"""A USB camera occasionally drops one frame under bus load; three misses in a row means
it is unplugged or dead."""


class OpenCVCamera(Camera):
    """A V4L2 webcam by index (``0``) or device path (``/dev/video2``), or a video file.

    Asks for MJPG so that 720p runs at full frame rate over USB 2 (raw YUYV at 1280x720
    is limited to ~10 fps by bandwidth on most webcams). The camera may pick the nearest
    size it supports; ``size`` and ``description`` report what it really delivers.

    After the warm-up a webcam's automatic exposure, white balance and focus are switched
    off where V4L2 offers the controls, for the reasons ``Picamera2Camera`` gives: a hand
    over the tray must not shift the next roll's colours or focus. ``remeter()`` lets
    them run again for a moment and locks them anew.

    Before the warm-up, ``tuning`` sets the webcam's mains flicker filter and, for a lens
    with a focus control, the fixed focus (``vision.camera.v4l2``: OpenCV has no property
    for either), so the focus never hunts; the description says what the webcam lacks.
    """

    def __init__(
        self,
        device: int | str,
        width: int = 1280,
        height: int = 720,
        fps: float = 15.0,
        tuning: CameraTuning = CameraTuning(),
        controls: Controls | None = None,
    ) -> None:
        self._device = device
        self._name = f"/dev/video{device}" if isinstance(device, int) else str(device)
        self._capture = _open_capture(device, self._name, width, height, fps)
        tuned = [] if self._is_file() else apply_tuning(controls or DeviceControls(self._name), tuning)
        self._focus_fixed = any(said.startswith("focus fixed") for said in tuned)
        try:
            frame = self._warm_up()
        except CameraError:
            self._capture.release()
            raise
        self.size = (frame.shape[1], frame.shape[0])
        real_fps = self._capture.get(cv2.CAP_PROP_FPS) or fps
        locks = "" if self._is_file() else ", " + (", ".join(tuned + self._lock()) or "no V4L2 locks offered")
        self.description = f"OpenCV {self._name} {self.size[0]}x{self.size[1]} @ {real_fps:.0f} fps{locks}"

    def _is_file(self) -> bool:
        return os.path.isfile(self._name)

    def _lock(self) -> list[str]:
        """Freezes what the webcam lets V4L2 freeze; ``set`` is False for a control the
        driver lacks. The exposure read back before switching to manual is the one the
        automatic mode reached (UVC reports the current value), so it is kept."""
        capture, locked = self._capture, []
        exposure = capture.get(cv2.CAP_PROP_EXPOSURE)
        if capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_EXPOSURE_MANUAL):
            capture.set(cv2.CAP_PROP_EXPOSURE, exposure)
            locked.append("exposure locked")
        if capture.set(cv2.CAP_PROP_AUTO_WB, 0):
            locked.append("white balance locked")
        if not self._focus_fixed and capture.set(cv2.CAP_PROP_AUTOFOCUS, 0):
            locked.append("focus fixed where the autofocus found it")
        return locked

    def remeter(self) -> None:
        """Automatic exposure and white balance for the warm-up frames, then locked again."""
        if self._capture is None or self._is_file():
            return
        self._capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_EXPOSURE_APERTURE_PRIORITY)
        self._capture.set(cv2.CAP_PROP_AUTO_WB, 1)
        for _ in range(WARMUP_FRAMES * 3):
            self.read()
        self._lock()

    def _warm_up(self) -> np.ndarray:
        """Drop the first frames of a webcam; a file's first frame is kept (it is content)."""
        frame = self.read()
        if not self._is_file():
            for _ in range(WARMUP_FRAMES):
                frame = self.read()
        return frame

    def read(self) -> np.ndarray:
        """Next frame; CameraError once the camera stops delivering (unplugged, end of file)."""
        if self._capture is None:
            raise CameraError(f"{self._name}: camera is closed")
        for _ in range(READ_RETRIES):
            ok, frame = self._capture.read()
            if ok and frame is not None:
                return as_bgr(frame, self._name)
        raise CameraError(
            f"{self._name} stopped delivering frames: check the USB cable (unplug and replug it), or {NO_CAMERA_HINT}"
        )

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def _open_capture(device: int | str, name: str, width: int, height: int, fps: float) -> cv2.VideoCapture:
    """Open and configure the capture, or raise a CameraError a person can act on."""
    is_file = isinstance(device, str) and os.path.isfile(device)
    if isinstance(device, str) and not is_file and not os.path.exists(device):
        raise CameraError(f"no camera at {device}: {NO_CAMERA_HINT}")
    backend = cv2.CAP_ANY if is_file else cv2.CAP_V4L2
    capture = cv2.VideoCapture(device, backend)
    if not capture.isOpened():
        capture.release()
        raise CameraError(
            f"cannot open {name}: it is missing or used by another program "
            f"(stop any other camera app), or {NO_CAMERA_HINT}"
        )
    if not is_file:
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        capture.set(cv2.CAP_PROP_FPS, fps)
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # read the newest frame, not one queued seconds ago
    return capture


def usb_camera_devices() -> list[str]:
    """Device paths of USB video nodes, lowest number first.

    Only nodes whose sysfs device sits on a USB bus are listed: on a Pi, /dev/video10..31
    are the SoC's codec and ISP, which are not cameras and must not be probed.
    """
    found = []
    for node in glob.glob("/dev/video*"):
        match = re.fullmatch(r"/dev/video(\d+)", node)
        sys_device = f"/sys/class/video4linux/{os.path.basename(node)}/device"
        if match and "/usb" in os.path.realpath(sys_device):
            found.append((int(match.group(1)), node))
    return [node for _, node in sorted(found)]


def open_first_usb_camera(width: int, height: int, fps: float, tuning: CameraTuning = CameraTuning()) -> OpenCVCamera:
    """The first USB node that delivers frames (each webcam also has a metadata-only node)."""
    errors = []
    for node in usb_camera_devices():
        try:
            return OpenCVCamera(node, width, height, fps, tuning)
        except CameraError as exc:
            errors.append(str(exc))
    detail = f" ({'; '.join(errors)})" if errors else ""
    raise CameraError(f"no camera found: {NO_CAMERA_HINT}{detail}")
