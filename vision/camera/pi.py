"""The Raspberry Pi camera (CSI ribbon) through picamera2.

picamera2 is imported only when this camera is opened: it exists only on a Pi, where it
comes from apt (``python3-picamera2``) and reaches the venv via --system-site-packages.
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from vision.camera.base import NO_CAMERA_HINT, Camera, CameraError, as_bgr

INSTALL_HINT = (
    "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
    "and make the venv with --system-site-packages (make venv does), "
    'or use a USB webcam (camera.source = "usb:0" in /etc/familiar/familiar.toml)'
)


def import_picamera2() -> Any:
    """The Picamera2 class, or a CameraError saying how to install it."""
    try:
        from picamera2 import Picamera2
    except ImportError as exc:
        raise CameraError(INSTALL_HINT) from exc
    return Picamera2


def csi_cameras(picamera2_class: Any) -> list[tuple[int, dict[str, Any]]]:
    """Attached ribbon cameras as (Picamera2 camera_num, info).

    libcamera also lists UVC webcams, which OpenCV handles better, so those are left out;
    the number kept is the position in ``global_camera_info()``, which is what
    ``Picamera2(camera_num)`` expects.
    """
    try:
        infos = picamera2_class.global_camera_info()
    except Exception as exc:  # a broken libcamera install raises from deep inside
        raise CameraError(f"libcamera cannot list cameras ({exc}): {NO_CAMERA_HINT}") from exc
    return [(num, info) for num, info in enumerate(infos) if "/usb" not in str(info.get("Id", ""))]


class Picamera2Camera(Camera):
    """A CSI camera delivering BGR frames at the requested size.

    ``lock_exposure`` (default on): after ``warmup_s`` of automatic exposure and white
    balance, both are frozen at the values they reached. Why: with them running, a hand or
    a dark dice pile entering the view changes the metering, and for about a second after
    the hand leaves the whole image drifts in brightness and colour; the settle detector
    would have to wait that drift out, and the dice reader would see the same dice in
    different colours from roll to roll. A table's light rarely changes during a game;
    if it does, re-open the camera to meter again.
    """

    def __init__(
        self,
        width: int = 1280,
        height: int = 720,
        fps: float = 15.0,
        camera_num: int = 0,
        lock_exposure: bool = True,
        warmup_s: float = 1.0,
        timeout_s: float = 2.0,
    ) -> None:
        picamera2_class = import_picamera2()
        cameras = csi_cameras(picamera2_class)
        if camera_num >= len(cameras):
            raise CameraError(f"no camera found on the camera connector: {NO_CAMERA_HINT}")
        self._timeout_s = timeout_s
        self._camera: Any = None
        num, info = cameras[camera_num]
        model = info.get("Model", "camera")
        try:
            self._camera = picamera2_class(num)
            self._start(width, height, fps, warmup_s, lock_exposure)
        except Exception as exc:  # libcamera raises RuntimeError/OSError with its own words
            self.close()
            raise CameraError(f"cannot start the Pi camera ({model}): {exc}; {NO_CAMERA_HINT}") from exc
        self.size = (width, height)
        locked = "exposure locked" if lock_exposure else "auto exposure"
        self.description = f"picamera2 {model} {width}x{height} @ {fps:.0f} fps, {locked}"

    def _start(self, width: int, height: int, fps: float, warmup_s: float, lock_exposure: bool) -> None:
        """Configure an RGB888 video stream (numpy sees it as BGR) and let it meter."""
        frame_us = int(1_000_000 / fps)  # FrameDurationLimits: understood by every picamera2 release
        config = self._camera.create_video_configuration(
            main={"size": (width, height), "format": "RGB888"},
            controls={"FrameDurationLimits": (frame_us, frame_us)},
        )
        self._camera.configure(config)
        self._camera.start()
        self._focus_once()
        time.sleep(warmup_s)
        if lock_exposure:
            self._lock_exposure()

    def _focus_once(self) -> None:
        """Focus once on the tray (cameras with autofocus), then keep the lens still.

        Continuous autofocus would hunt whenever a hand passes and blur the settled frame.
        """
        if "AfMode" not in self._camera.camera_controls or not hasattr(self._camera, "autofocus_cycle"):
            return
        from libcamera import controls  # present wherever picamera2 is

        self._camera.set_controls({"AfMode": controls.AfModeEnum.Auto})
        self._camera.autofocus_cycle()

    def _lock_exposure(self) -> None:
        """Freeze exposure, gain and white balance at the values automatic control reached."""
        metadata = self._camera.capture_metadata()
        fixed: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata:
                fixed[key] = metadata[key]
        self._camera.set_controls(fixed)

    def read(self) -> np.ndarray:
        """Newest frame; CameraError if the camera stops answering (ribbon loose, camera died)."""
        if self._camera is None:
            raise CameraError("picamera2: camera is closed")
        try:
            frame = self._camera.capture_array("main", wait=self._timeout_s)
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped delivering frames ({exc}): check the ribbon cable") from exc
        return as_bgr(frame, "picamera2")

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()
