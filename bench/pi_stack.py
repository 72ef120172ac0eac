"""A Python with the Raspberry Pi's numpy and OpenCV, for measuring what the box runs.

The box installs numpy pinned to apt's and, on numpy 1.x, the last OpenCV built for it
(``device.pi_stack``): on Bookworm numpy 1.24.2 and OpenCV 4.11.  A development machine
gets the newest of both, and OpenCV 5's import alone holds ~64 MB where 4.11's holds
~50 MB, so a memory figure measured there is not the box's.  The readers read the same
on both stacks (``bench.stack_readings``, ``docs/experiments/pi-numpy-stack.md``); their
memory is what differs.

The venv holds only the installer's pins for Bookworm's numpy, and is made on first use
in ``.venv-pi``.  Where this machine's Python has no wheels for them (numpy 1.x stops at
Python 3.12), the benchmark says so and goes on.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from device.pi_stack import reader_pins

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-pi"
BOOKWORM_NUMPY = "1.24.2"
"""Raspberry Pi OS Bookworm's python3-numpy (1:1.24.2-1+deb12u1), which its picamera2 is built for."""


def pins() -> list[str]:
    """What the installer pins on Bookworm: its numpy and the OpenCV for it."""
    return reader_pins(BOOKWORM_NUMPY)


def python() -> Path | None:
    """The venv's interpreter, made and filled on first use; None (and why, printed)
    where pip cannot install the pins here."""
    interpreter = VENV / "bin" / "python"
    stamp = VENV / ".installed"
    if stamp.exists() and stamp.read_text() == "\n".join(pins()):
        return interpreter
    try:
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True, capture_output=True)
        subprocess.run([str(interpreter), "-m", "pip", "install", "-q", *pins()], check=True, capture_output=True)
    except subprocess.CalledProcessError as error:
        print(f"pi stack: could not install {' '.join(pins())}: {error.stderr.decode(errors='replace')[-300:]}")
        return None
    stamp.write_text("\n".join(pins()))
    return interpreter
