"""The Raspberry Pi camera (CSI ribbon) through picamera2.

picamera2 is imported only when this camera is opened: it exists only on a Pi, where it
comes from apt (``python3-picamera2``) and reaches the venv via --system-site-packages.
"""

from __future__ import annotations

import time
from typing import Any

import cv2
import numpy as np

from vision.camera.base import NO_CAMERA_HINT, Camera, CameraError, CameraTuning, as_bgr

INSTALL_HINT = (
    "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
    "and make the venv with --system-site-packages (make venv does), "
    'or use a USB webcam (camera.source = "usb:0" in /etc/familiar/familiar.toml)'
)


NUMPY_FIX = "sudo rm /opt/familiar/src/.commit && sudo make install (it pins numpy to apt's python3-numpy)"
NUMPY_HINT = (
    "picamera2 (from apt) cannot load with this numpy ({numpy}): Raspberry Pi OS builds "
    "picamera2 and simplejpeg against its own numpy (python3-numpy), and any other numpy "
    f"in the venv breaks them. Fix: {NUMPY_FIX}"
)
NUMPY_MISMATCH = (
    "numpy.dtype size changed",
    "_ARRAY_API not found",
    "numpy.core.multiarray failed",
    "compiled using NumPy 1.x",
    "numpy._core",
)
"""How a C extension built against numpy 1.x fails under numpy 2 (picamera2 issues 1088, 1211)."""


def import_picamera2() -> Any:
    """The Picamera2 class, or a CameraError saying what to do.

    Any exception counts, not only ImportError: apt's picamera2 imported against a numpy
    it was not built for raises ValueError ("numpy.dtype size changed") or AttributeError
    from inside simplejpeg, and a half-installed libcamera raises whatever it likes.
    """
    try:
        from picamera2 import Picamera2
    except ImportError as exc:
        if not _numpy_mismatch(exc):
            raise CameraError(INSTALL_HINT) from exc
        raise CameraError(NUMPY_HINT.format(numpy=np.__version__)) from exc
    except Exception as exc:  # noqa: BLE001 - see the docstring
        if _numpy_mismatch(exc):
            raise CameraError(NUMPY_HINT.format(numpy=np.__version__)) from exc
        raise CameraError(
            f"picamera2 cannot be loaded ({type(exc).__name__}: {exc}); "
            "reinstall it with `sudo apt install --reinstall python3-picamera2`, "
            'or use a USB webcam (camera.source = "usb:0")'
        ) from exc
    return Picamera2


def _numpy_mismatch(exc: BaseException) -> bool:
    """True when ``exc`` (or what caused it) is a numpy 1.x/2.x binary mismatch."""
    while exc is not None:
        if any(sign in str(exc) for sign in NUMPY_MISMATCH):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


MOTION_WIDTH = 256
"""The low-resolution stream's width: the settle detector's work width, so its frames
need no shrinking. A multiple of 64, so YUV420 rows carry no padding."""


def motion_size(width: int, height: int) -> tuple[int, int]:
    """The low-resolution stream for a main stream of ``width`` x ``height``: the
    detector's width (never wider than the main stream), the same aspect, even height."""
    lores_width = min(MOTION_WIDTH, width // 64 * 64 or width)
    return lores_width, max(2, round(lores_width * height / width / 2) * 2)


def full_view_mode(modes: list[dict[str, Any]], size: tuple[int, int], fps: float) -> dict[str, Any] | None:
    """The sensor mode that sees the sensor's whole width at the frame's aspect ratio.

    Asked only for an output size, picamera2 picks the sensor mode nearest to it, and the
    small modes are centre crops: Camera Module 3's 1536x864 mode reads the middle
    3072x1728 of its 4608x2592 pixels, about 47 x 28 degrees of its 66 x 41, so at the
    mount height of hardware.md the card strip falls out of view. The crop-free modes are
    those whose ``crop_limits`` span the widest crop any mode has (the full array) and
    tall enough for the frame's aspect; of those, the smallest that is at least the frame's
    size and fast enough (the ISP scales it down), else the largest. For 1280x720 at
    10 fps: Camera Module 3 and its Wide version (imx708) 2304x1296, Camera Module 2
    (imx219) 1640x1232, the HQ camera (imx477) 2028x1520. None when no mode is listed.
    """
    if not modes:
        return None
    full_width = max(m["crop_limits"][2] for m in modes)
    tall_enough = full_width * size[1] / size[0] * 0.99
    full = [m for m in modes if m["crop_limits"][2] == full_width and m["crop_limits"][3] >= tall_enough]

    def preference(mode: dict[str, Any]) -> tuple[bool, bool, int, int]:
        width, height = mode["size"]
        big = width >= size[0] and height >= size[1]
        fast = mode.get("fps", fps) >= fps
        return (not fast, not big, width * height if big else -width * height, -mode.get("bit_depth", 0))

    return min(full, key=preference) if full else None


def flicker_controls(mains_hz: int, available: dict[str, Any]) -> dict[str, Any]:
    """libcamera's flicker avoidance for lamps on ``mains_hz`` mains (they flicker at twice
    it): exposure in multiples of 10000 us (50 Hz) or 8333 us (60 Hz). ``AeFlickerMode``
    1 is ``FlickerManual`` (libcamera control_ids); cameras or libcamera releases
    without the control get none."""
    if not mains_hz or "AeFlickerMode" not in available:
        return {}
    return {"AeFlickerMode": 1, "AeFlickerPeriod": round(1_000_000 / (2 * mains_hz))}


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
    if it does, ``remeter()`` (a new game, or the host's "meter the camera again").

    The sensor runs in its full-view mode (see ``full_view_mode``) and exposure steps in
    whole flicker periods of the mains (``tuning.mains_hz``); the lens of a module with
    autofocus is set once to ``tuning.lens_position`` dioptres and left there.
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
        tuning: CameraTuning = CameraTuning(),
    ) -> None:
        picamera2_class = import_picamera2()
        cameras = csi_cameras(picamera2_class)
        if camera_num >= len(cameras):
            raise CameraError(f"no camera found on the camera connector: {NO_CAMERA_HINT}")
        self._timeout_s = timeout_s
        self._warmup_s = warmup_s
        self._lock = lock_exposure
        self._camera: Any = None
        num, info = cameras[camera_num]
        model = info.get("Model", "camera")
        try:
            self._camera = picamera2_class(num)
            settings = self._start(width, height, fps, tuning)
        except Exception as exc:  # libcamera raises RuntimeError/OSError with its own words
            self.close()
            raise CameraError(f"cannot start the Pi camera ({model}): {exc}; {NO_CAMERA_HINT}") from exc
        self.size = (width, height)
        locked = "exposure locked" if lock_exposure else "auto exposure"
        self.description = f"picamera2 {model} {width}x{height} @ {fps:.0f} fps, {', '.join([locked, *settings])}"

    def _start(self, width: int, height: int, fps: float, tuning: CameraTuning) -> list[str]:
        """Configure an RGB888 video stream (numpy sees it as BGR) from the full-view sensor
        mode, focus, and let it meter; returns what was set, for the description."""
        frame_us = int(1_000_000 / fps)  # FrameDurationLimits: understood by every picamera2 release
        available = self._camera.camera_controls
        controls = {"FrameDurationLimits": (frame_us, frame_us), **flicker_controls(tuning.mains_hz, available)}
        mode = full_view_mode(self._camera.sensor_modes, (width, height), fps)
        # ``sensor=`` (picamera2 0.3.13+, every Bookworm release) fixes the sensor mode.
        sensor = {"output_size": mode["size"], "bit_depth": mode["bit_depth"]} if mode else {}
        self._lores = motion_size(width, height)
        config = self._camera.create_video_configuration(
            main={"size": (width, height), "format": "RGB888"},
            lores={"size": self._lores, "format": "YUV420"},
            sensor=sensor,
            controls=controls,
        )
        self._camera.configure(config)
        self._camera.start()
        settings = [f"sensor {mode['size'][0]}x{mode['size'][1]} full view" if mode else "sensor mode by picamera2"]
        settings.append(f"motion on a {self._lores[0]}x{self._lores[1]} stream")
        if "AeFlickerPeriod" in controls:
            settings.append(f"flicker period {controls['AeFlickerPeriod']} us")
        settings.append(self._focus(tuning.lens_position))
        self._meter()
        return settings

    def remeter(self) -> None:
        """Automatic exposure and white balance run again for the warm-up, then lock."""
        if self._camera is None or not self._lock:
            return
        self._camera.set_controls({"AeEnable": True, "AwbEnable": True})
        self._meter()

    def _meter(self) -> None:
        time.sleep(self._warmup_s)
        if self._lock:
            self._lock_exposure()

    def _focus(self, lens_position: float | None) -> str:
        """A fixed lens position when one is configured, else one autofocus cycle."""
        available = self._camera.camera_controls
        if "AfMode" not in available or "LensPosition" not in available:
            return "fixed-focus lens"
        if lens_position is None:
            self._focus_once()
            return "focused once"
        from libcamera import controls  # present wherever picamera2 is

        self._camera.set_controls({"AfMode": controls.AfModeEnum.Manual, "LensPosition": lens_position})
        return f"lens at {lens_position:g} dioptres"

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

    motion_is_full = False

    def read_motion(self) -> np.ndarray:
        """The newest frame of the low-resolution stream, as BGR: the settle detector's
        whole work at the size it works at, with no full frame copied or shrunk."""
        if self._camera is None:
            raise CameraError("picamera2: camera is closed")
        try:
            planes = self._camera.capture_array("lores", wait=self._timeout_s)
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped delivering frames ({exc}): check the ribbon cable") from exc
        width, height = self._lores
        return cv2.cvtColor(np.ascontiguousarray(planes[: height * 3 // 2, :width]), cv2.COLOR_YUV2BGR_I420)

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()
