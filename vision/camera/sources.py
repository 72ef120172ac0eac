"""Opening the box's camera from one configuration string, and checking it works.

Sources (``camera.source`` in familiar.toml):

- ``"picamera2"``: the Raspberry Pi camera on the ribbon connector;
- ``"usb:0"`` or ``"usb:/dev/video2"``: a USB webcam by index or device path;
- ``"replay:<folder, photo or video>"``: recorded frames, for the demo and tests;
- ``"thrown:<folder>"``: a replayed tray that changes only when dice are thrown (the
  demo: :class:`~vision.camera.replay.ThrownTray`);
- ``"auto"``: the Pi camera if picamera2 is installed and a camera is attached, else the
  first USB webcam that delivers frames.

Every backend is a :class:`Camera`; every failure is a :class:`CameraError` whose message
tells the person at the table what to do.
"""

from __future__ import annotations

import numpy as np

from vision.camera.base import NO_CAMERA_HINT, Camera, CameraError, CameraTuning
from vision.camera.pi import INSTALL_HINT, Picamera2Camera, csi_cameras, import_picamera2
from vision.camera.replay import ReplayCamera, ThrownTray
from vision.camera.usb import OpenCVCamera, open_first_usb_camera

SOURCE_FORMS = '"auto", "picamera2", "usb:0", "usb:/dev/video2", "replay:<folder or video>" or "thrown:<folder>"'


def open_camera(
    source: str, width: int = 1280, height: int = 720, fps: float = 15.0, tuning: CameraTuning = CameraTuning()
) -> Camera:
    """Open the camera named by ``source`` (see the module docstring), or raise CameraError.

    ``width``/``height`` are requests: a webcam picks its nearest mode and a replay keeps
    its photos' own size: the frames themselves say what is delivered. ``tuning`` holds
    a real camera's flicker lock and focus (see :class:`CameraTuning`).
    """
    kind, _, arg = source.strip().partition(":")
    kind = kind.lower()
    if kind == "auto" and not arg:
        return _open_auto(width, height, fps, tuning)
    if kind == "picamera2" and not arg:
        return Picamera2Camera(width, height, fps, tuning=tuning)
    if kind == "usb" and arg:
        return OpenCVCamera(int(arg) if arg.isdigit() else arg, width, height, fps, tuning)
    if kind == "replay" and arg:
        return ReplayCamera(arg, fps=fps)
    if kind == "thrown" and arg:
        return ThrownTray(arg, fps=fps)
    raise CameraError(
        f"unknown camera source {source!r}: use {SOURCE_FORMS} (camera.source in /etc/familiar/familiar.toml)"
    )


def _open_auto(width: int, height: int, fps: float, tuning: CameraTuning) -> Camera:
    """The Pi camera when one is attached, else the first working USB webcam. When neither
    works, a picamera2 that is installed but broken (e.g. the numpy mismatch) is named."""
    pi_problem = ""
    try:
        if csi_cameras(import_picamera2()):
            return Picamera2Camera(width, height, fps, tuning=tuning)
    except CameraError as exc:  # no picamera2 or no ribbon camera: a USB webcam may still be there
        pi_problem = "" if str(exc) == INSTALL_HINT else f" (Pi camera: {exc})"
    try:
        return open_first_usb_camera(width, height, fps, tuning)
    except CameraError as exc:
        raise CameraError(f"no camera found: {NO_CAMERA_HINT}{pi_problem}") from exc


def check_camera(
    source: str, width: int = 1280, height: int = 720, tuning: CameraTuning = CameraTuning()
) -> tuple[bool, str]:
    """For ``familiar doctor``: open the camera, grab one frame, report size and brightness.

    Returns (ok, one line for a person). A frame that is nearly black or white counts as a
    failure: the lens cap is on, the light is off, or the camera points at a lamp.
    """
    try:
        with open_camera(source, width, height, tuning=tuning) as camera:
            frame = camera.read()
            description = camera.description
    except CameraError as exc:
        return False, f"camera {source!r}: {exc}"
    h, w = frame.shape[:2]
    brightness = float(np.mean(frame))
    line = f"{description}: got a {w}x{h} frame, mean brightness {brightness:.0f}/255"
    if brightness < 12:
        return False, f"{line}: almost black, take off the lens cap or turn on the light"
    if brightness > 245:
        return False, f"{line}: almost white, the camera is overexposed or facing a lamp"
    return True, line
