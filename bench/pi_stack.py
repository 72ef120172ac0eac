"""A Python with the Raspberry Pi's numpy and OpenCV, for measuring what the box runs.

The box installs pyproject's ``pi`` extra: numpy 1.x (apt's picamera2 is built for it)
and the last OpenCV built for it (4.11).  A development machine gets the newest of
both, and OpenCV 5's import alone holds ~64 MB where 4.11's holds ~50 MB, so a memory
figure measured there is not the box's.  The readers read the same on both stacks
(``bench.stack_readings``, ``docs/experiments/pi-numpy-stack.md``); their memory is
what differs.

The venv holds only those two pins, read from pyproject.toml so they are written once,
and is made on first use in ``.venv-pi``.  Where this machine's Python has no wheels
for them (numpy 1.x stops at Python 3.12), the benchmark says so and goes on.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-pi"
READER_PACKAGES = ("numpy", "opencv-python-headless")
"""The ``pi`` pins the dice reader imports (lgpio is the box's GPIO, not the reader's)."""


def pins() -> list[str]:
    """The ``pi`` extra's requirements for the reader's packages, as pyproject writes them."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    return [req for req in extras["pi"] if re.split(r"[^\w.-]", req, maxsplit=1)[0] in READER_PACKAGES]


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
