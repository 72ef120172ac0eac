"""A webcam's V4L2 controls that OpenCV has no property for: mains flicker and fixed focus.

OpenCV's ``VideoCapture`` sets exposure, white balance and autofocus, but not the UVC
power-line-frequency filter, and its focus property is not tied to the box's dioptres.
The controls are set here with the kernel's own ioctls on a second handle to the same
``/dev/videoN`` (V4L2 lets any number of handles change controls), so nothing beyond
the standard library is needed and no ``v4l2-ctl`` must be installed.
"""

from __future__ import annotations

import fcntl
import os
import struct
from dataclasses import dataclass
from typing import Protocol

from vision.camera.base import CameraTuning

CID_POWER_LINE_FREQUENCY = 0x00980918
"""V4L2_CID_POWER_LINE_FREQUENCY (user class + 24), a menu: 0 off, 1 50 Hz, 2 60 Hz, 3 auto."""
CID_FOCUS_ABSOLUTE = 0x009A090A
"""V4L2_CID_FOCUS_ABSOLUTE (camera class + 10): the lens position in the maker's units."""
CID_FOCUS_AUTO = 0x009A090C
"""V4L2_CID_FOCUS_AUTO (camera class + 12): continuous autofocus on (1) or off (0)."""
POWER_LINE_MENU = {50: 1, 60: 2}
MAX_DIOPTRES = 15.0
"""The top of ``camera.lens_position``'s range (about 7 cm), mapped to the control's
nearest focus; 0 dioptres (infinity) is its far end."""

_CONTROL = struct.Struct("=Ii")  # struct v4l2_control: id, value
_QUERY = struct.Struct("=II32siiiiI8x")  # struct v4l2_queryctrl: id, type, name, min, max, step, default, flags
_FLAG_DISABLED = 0x0001


def _iowr(number: int, size: int) -> int:
    """Linux's _IOWR('V', number, size): the ioctl request of a V4L2 call."""
    return (3 << 30) | (size << 16) | (ord("V") << 8) | number


VIDIOC_S_CTRL = _iowr(28, _CONTROL.size)
VIDIOC_QUERYCTRL = _iowr(36, _QUERY.size)


@dataclass(frozen=True)
class Control:
    """The range a driver gives a control."""

    minimum: int
    maximum: int
    step: int


class Controls(Protocol):
    """What tuning needs of a device: a control's range (None when it has none), and setting it."""

    def query(self, cid: int) -> Control | None: ...

    def set(self, cid: int, value: int) -> bool: ...


class DeviceControls:
    """The controls of one ``/dev/videoN`` through the V4L2 ioctls."""

    def __init__(self, path: str) -> None:
        self.path = path

    def _ioctl(self, request: int, data: bytes) -> bytes | None:
        try:
            handle = os.open(self.path, os.O_RDWR | os.O_NONBLOCK)
        except OSError:
            return None
        try:
            return fcntl.ioctl(handle, request, data)
        except OSError:  # EINVAL: no such control; ENOTTY: not a V4L2 device
            return None
        finally:
            os.close(handle)

    def query(self, cid: int) -> Control | None:
        answer = self._ioctl(VIDIOC_QUERYCTRL, _QUERY.pack(cid, 0, b"", 0, 0, 0, 0, 0))
        if answer is None:
            return None
        _, _, _, minimum, maximum, step, _, flags = _QUERY.unpack(answer)
        return None if flags & _FLAG_DISABLED else Control(minimum, maximum, max(step, 1))

    def set(self, cid: int, value: int) -> bool:
        return self._ioctl(VIDIOC_S_CTRL, _CONTROL.pack(cid, value)) is not None


def focus_value(dioptres: float, control: Control) -> int:
    """``lens_position`` on the control's scale. UVC leaves focus_absolute's unit to the
    maker, so 0 to 15 dioptres are spread linearly from its far end to its near end (the
    usual direction: a Logitech C920 counts 0-250 from infinity), on its step."""
    share = min(max(dioptres / MAX_DIOPTRES, 0.0), 1.0)
    steps = round(share * (control.maximum - control.minimum) / control.step)
    return control.minimum + steps * control.step


def apply_tuning(controls: Controls, tuning: CameraTuning) -> list[str]:
    """Sets the flicker filter and a fixed focus where the webcam has the controls; says
    for each what was set, or what the camera lacks."""
    said = []
    if tuning.mains_hz in POWER_LINE_MENU:
        if controls.query(CID_POWER_LINE_FREQUENCY) and controls.set(
            CID_POWER_LINE_FREQUENCY, POWER_LINE_MENU[tuning.mains_hz]
        ):
            said.append(f"{tuning.mains_hz} Hz flicker filter")
        else:
            said.append(f"no flicker filter control (camera.mains_hz = {tuning.mains_hz} not applied)")
    if tuning.lens_position is not None:
        focus = controls.query(CID_FOCUS_ABSOLUTE)
        if focus is None:
            said.append("no focus control (a fixed-focus lens: camera.lens_position not applied)")
        else:
            controls.set(CID_FOCUS_AUTO, 0)  # absent on a manual-only lens: nothing to switch off
            value = focus_value(tuning.lens_position, focus)
            if controls.set(CID_FOCUS_ABSOLUTE, value):
                said.append(
                    f"focus fixed at {tuning.lens_position:g} dioptres "
                    f"(focus_absolute {value} of {focus.minimum}-{focus.maximum})"
                )
            else:
                said.append("focus control refused (camera.lens_position not applied)")
    return said
