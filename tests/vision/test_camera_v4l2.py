"""A USB webcam's mains flicker filter and fixed focus through V4L2 controls, where it has them."""

from __future__ import annotations

import numpy as np
import pytest

from vision.camera import usb
from vision.camera.base import CameraTuning
from vision.camera.usb import OpenCVCamera
from vision.camera.v4l2 import (
    CID_FOCUS_ABSOLUTE,
    CID_FOCUS_AUTO,
    CID_POWER_LINE_FREQUENCY,
    VIDIOC_QUERYCTRL,
    VIDIOC_S_CTRL,
    Control,
    DeviceControls,
    apply_tuning,
    focus_value,
)

C920 = {
    CID_POWER_LINE_FREQUENCY: Control(0, 2, 1),
    CID_FOCUS_AUTO: Control(0, 1, 1),
    CID_FOCUS_ABSOLUTE: Control(0, 250, 5),
}
"""The controls ``v4l2-ctl -l`` lists for a Logitech C920: power_line_frequency 0-2,
focus_auto 0-1, focus_absolute 0-250 in steps of 5."""


class FakeControls:
    """A webcam's V4L2 controls: ``query`` gives the listed ones, ``set`` records each set."""

    def __init__(self, listed: dict[int, Control]) -> None:
        self.listed, self.values = listed, {}

    def query(self, cid: int) -> Control | None:
        return self.listed.get(cid)

    def set(self, cid: int, value: int) -> bool:
        if cid not in self.listed:
            return False
        self.values[cid] = value
        return True


def test_the_ioctl_requests_are_linux_s() -> None:
    """From linux/videodev2.h: _IOWR('V', 28, struct v4l2_control) and _IOWR('V', 36, struct v4l2_queryctrl)."""
    assert (VIDIOC_S_CTRL, VIDIOC_QUERYCTRL) == (0xC008561C, 0xC0445624)


def test_a_device_that_is_no_camera_has_no_controls() -> None:
    for path in ("/dev/null", "/dev/video99"):
        controls = DeviceControls(path)
        assert controls.query(CID_POWER_LINE_FREQUENCY) is None
        assert controls.set(CID_POWER_LINE_FREQUENCY, 1) is False


def test_mains_and_focus_are_set_where_the_webcam_has_the_controls() -> None:
    controls = FakeControls(C920)
    said = apply_tuning(controls, CameraTuning(mains_hz=50, lens_position=2.7))
    assert controls.values == {CID_POWER_LINE_FREQUENCY: 1, CID_FOCUS_AUTO: 0, CID_FOCUS_ABSOLUTE: 45}
    assert said == ["50 Hz flicker filter", "focus fixed at 2.7 dioptres (focus_absolute 45 of 0-250)"]
    apply_tuning(controls, CameraTuning(mains_hz=60, lens_position=None))
    assert controls.values[CID_POWER_LINE_FREQUENCY] == 2 and controls.values[CID_FOCUS_ABSOLUTE] == 45


def test_what_the_webcam_lacks_is_said() -> None:
    said = apply_tuning(FakeControls({}), CameraTuning(mains_hz=60, lens_position=2.7))
    assert said == [
        "no flicker filter control (camera.mains_hz = 60 not applied)",
        "no focus control (a fixed-focus lens: camera.lens_position not applied)",
    ]
    assert apply_tuning(FakeControls({}), CameraTuning(mains_hz=0, lens_position=None)) == []


@pytest.mark.parametrize(("dioptres", "value"), [(0.0, 0), (2.7, 45), (4.8, 80), (15.0, 250), (20.0, 250)])
def test_dioptres_spread_over_the_focus_range_on_its_step(dioptres: float, value: int) -> None:
    assert focus_value(dioptres, Control(0, 250, 5)) == value
    assert focus_value(dioptres, Control(10, 10 + 250, 5)) == 10 + value


class FakeCapture:
    """OpenCV's capture of a webcam: frames of mid grey, and every control settable."""

    def __init__(self) -> None:
        self.props: dict[int, float] = {}

    def read(self) -> tuple[bool, np.ndarray]:
        return True, np.full((72, 128, 3), 128, np.uint8)

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def release(self) -> None:
        pass


def test_a_webcam_opens_tuned_before_its_warm_up_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Focus is fixed before the first frame (it used to hunt through the warm-up and be
    frozen wherever it was), and the description names what was set."""
    capture = FakeCapture()
    monkeypatch.setattr(usb, "_open_capture", lambda *args: capture)
    controls = FakeControls(C920)
    tuned_at: list[dict] = []
    monkeypatch.setattr(
        OpenCVCamera, "_warm_up", lambda self: (tuned_at.append(dict(controls.values)), capture.read()[1])[1]
    )
    with OpenCVCamera("/dev/video0", 128, 72, 15, CameraTuning(50, 2.7), controls) as camera:
        assert tuned_at == [{CID_POWER_LINE_FREQUENCY: 1, CID_FOCUS_AUTO: 0, CID_FOCUS_ABSOLUTE: 45}]
        assert "50 Hz flicker filter, focus fixed at 2.7 dioptres" in camera.description
        assert "where the autofocus found it" not in camera.description
    with OpenCVCamera("/dev/video0", 128, 72, 15, CameraTuning(50, 2.7), FakeControls({})) as camera:
        assert (
            "no focus control" in camera.description
            and "focus fixed where the autofocus found it" in camera.description
        )
