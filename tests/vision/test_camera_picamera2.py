"""The Pi camera's choices that can be checked off a Pi: the sensor mode for the full
field of view (over the mode lists picamera2 reports for each camera module), the
flicker controls, and a picamera2 that fails to import for any reason."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from vision.camera import CameraError, open_camera
from vision.camera.pi import flicker_controls, full_view_mode, import_picamera2


def mode(size: tuple[int, int], fps: float, crop: tuple[int, int, int, int], bit_depth: int = 10) -> dict:
    """One entry of ``Picamera2.sensor_modes`` (the keys this code reads)."""
    return {"size": size, "fps": fps, "crop_limits": crop, "bit_depth": bit_depth}


# As `rpicam-hello --list-cameras` and `Picamera2().sensor_modes` list them.
IMX708 = [
    mode((1536, 864), 120.13, (768, 432, 3072, 1728)),  # Camera Module 3 (and Wide)
    mode((2304, 1296), 56.03, (0, 0, 4608, 2592)),
    mode((4608, 2592), 14.35, (0, 0, 4608, 2592)),
]
IMX219 = [
    mode((640, 480), 103.33, (1000, 752, 1280, 960)),  # Camera Module 2
    mode((1640, 1232), 41.85, (0, 0, 3280, 2464)),
    mode((1920, 1080), 47.57, (680, 692, 1920, 1080)),
    mode((3280, 2464), 21.19, (0, 0, 3280, 2464)),
    mode((640, 480), 103.33, (1000, 752, 1280, 960), 8),
    mode((1640, 1232), 83.70, (0, 0, 3280, 2464), 8),
]
IMX477 = [
    mode((2028, 1080), 50.03, (0, 440, 4056, 2160), 12),  # HQ camera
    mode((2028, 1520), 40.01, (0, 0, 4056, 3040), 12),
    mode((1332, 990), 120.05, (696, 528, 2664, 1980)),
    mode((4056, 3040), 10.00, (0, 0, 4056, 3040), 12),
]


@pytest.mark.parametrize("modes, expected", [(IMX708, (2304, 1296)), (IMX219, (1640, 1232)), (IMX477, (2028, 1520))])
def test_the_full_view_mode_of_each_camera_module_for_the_default_frame(modes, expected) -> None:
    chosen = full_view_mode(modes, (1280, 720), 10)
    assert chosen["size"] == expected
    assert chosen["crop_limits"][:2] == (0, 0)  # no centre crop
    assert chosen["bit_depth"] == max(m["bit_depth"] for m in modes if m["size"] == expected)


def test_a_bigger_frame_or_speed_picks_the_mode_that_delivers_it() -> None:
    assert full_view_mode(IMX708, (3840, 2160), 10)["size"] == (4608, 2592)
    assert full_view_mode(IMX708, (3840, 2160), 30)["size"] == (2304, 1296)  # 4608 wide gives 14 fps
    assert full_view_mode(IMX219, (640, 480), 60)["size"] == (1640, 1232)  # not the cropped 640x480
    assert full_view_mode([], (1280, 720), 10) is None


def test_flicker_period_follows_the_mains() -> None:
    available = {"AeFlickerMode": (0, 2, 0), "AeFlickerPeriod": (100, 1000000, None)}
    assert flicker_controls(50, available) == {"AeFlickerMode": 1, "AeFlickerPeriod": 10000}
    assert flicker_controls(60, available) == {"AeFlickerMode": 1, "AeFlickerPeriod": 8333}
    assert flicker_controls(0, available) == {}
    assert flicker_controls(50, {}) == {}  # a libcamera without flicker control


def broken_picamera2(tmp_path: Path, monkeypatch, raises: str) -> None:
    """A real ``picamera2`` package on sys.path whose import fails as ``raises`` does."""
    package = tmp_path / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text(raises + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)


def test_picamera2_built_for_numpy_1_says_the_numpy_fix(tmp_path: Path, monkeypatch) -> None:
    """What apt's simplejpeg raises under numpy 2 (raspberrypi/picamera2 issue 1088)."""
    broken_picamera2(
        tmp_path,
        monkeypatch,
        'raise ValueError("numpy.dtype size changed, may indicate '
        'binary incompatibility. Expected 96 from C header, got 88 from PyObject")',
    )
    with pytest.raises(CameraError) as caught:
        import_picamera2()
    assert f"this numpy ({np.__version__})" in str(caught.value)
    assert "sudo make install (it pins numpy to apt's python3-numpy)" in str(caught.value)


def test_picamera2_failing_any_other_way_is_a_camera_error(tmp_path: Path, monkeypatch) -> None:
    broken_picamera2(tmp_path, monkeypatch, 'raise RuntimeError("libcamera.so.0.2: cannot open")')
    with pytest.raises(CameraError, match="RuntimeError: libcamera.so.0.2: cannot open.*reinstall"):
        open_camera("picamera2", 640, 480, 15)


class FakePicamera2:
    """picamera2's camera as ``Picamera2Camera`` drives it: the configuration asked for,
    and frames of both streams (main RGB888, lores YUV420 of one colour)."""

    sensor_modes = IMX708
    camera_controls: dict = {}

    def __init__(self, num: int) -> None:
        self.config: dict = {}
        self.captured: list[str] = []

    def create_video_configuration(self, **config) -> dict:
        return config

    def configure(self, config: dict) -> None:
        self.config = config

    def start(self) -> None:
        pass

    def capture_metadata(self) -> dict:
        return {}

    def set_controls(self, controls: dict) -> None:
        pass

    def capture_array(self, stream: str, wait: float) -> np.ndarray:
        self.captured.append(stream)
        width, height = self.config[stream]["size"]
        if stream == "main":
            return np.full((height, width, 3), (40, 90, 200), np.uint8)
        bgr = np.full((height, width, 3), (40, 90, 200), np.uint8)
        import cv2

        return cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420)  # (height * 3 / 2, width), as the ISP writes it

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_motion_is_watched_on_the_low_resolution_stream_and_read_on_the_main(monkeypatch) -> None:
    """The settle detector gets the lores stream at its own work width (no 1280x720 frame
    copied and shrunk for every frame); the readers get a main frame once still."""
    from vision.camera import pi

    monkeypatch.setattr(pi, "import_picamera2", lambda: FakePicamera2)
    monkeypatch.setattr(pi, "csi_cameras", lambda cls: [(0, {"Model": "imx708"})])
    with pi.Picamera2Camera(1280, 720, 30, warmup_s=0) as camera:
        fake = camera._camera
        assert fake.config["lores"] == {"size": (256, 144), "format": "YUV420"}
        assert "motion on a 256x144 stream" in camera.description
        seen = camera.read_motion()
        assert seen.shape == (144, 256, 3) and fake.captured == ["lores"]
        assert np.abs(seen.astype(int) - (40, 90, 200)).max() <= 3  # the colour survives YUV420
        full = camera.still(seen)
        assert full.shape == (720, 1280, 3) and fake.captured == ["lores", "main"]


@pytest.mark.parametrize(
    ("main", "lores"),
    [((1280, 720), (256, 144)), ((640, 480), (256, 192)), ((2304, 1296), (256, 144)), ((160, 120), (128, 96))],
)
def test_the_motion_stream_keeps_the_view_s_aspect(main, lores) -> None:
    from vision.camera.pi import motion_size

    assert motion_size(*main) == lores
