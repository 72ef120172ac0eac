"""The Pi-stack venv of ``make bench`` installs exactly what the installer pins on Bookworm."""

from __future__ import annotations

from bench import pi_stack
from device.pi_stack import upstream_version


def test_pins_are_the_installer_s_numpy_and_opencv_for_bookworm() -> None:
    assert pi_stack.pins() == ["numpy==1.24.2", "opencv-python-headless>=4.8,<4.12"]
    assert pi_stack.BOOKWORM_NUMPY == upstream_version("1:1.24.2-1+deb12u1")
