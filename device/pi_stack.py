"""Which Raspberry Pi systems the box installs on, and which numpy and OpenCV it installs there.

apt's picamera2 (and its simplejpeg) are compiled against the system's own numpy: Bookworm's
1.24 and Trixie's 2.2. A different numpy in the venv breaks them ("numpy.dtype size changed",
raspberrypi/picamera2 issues 1088 and 1211), and pip cannot build one (no compiler, and
``numpy<2`` has no wheel for Trixie's Python 3.13). So the venv pins numpy to exactly the
version apt installed (its ``--system-site-packages`` copy then satisfies the pin and pip
downloads none), and only on numpy 1.x keeps OpenCV below 4.12, the first release built
for numpy 2 alone.

Standard library only: ``systemd/install.sh`` (and ``make venv`` on a Pi) run it with the
system's python3 before anything else is installed: ``python3 -m device.pi_stack pins``
refuses (exit 3) a system the box does not install on, and otherwise prints the
project's extras (``[pi]`` or ``[pi,strip]``) and then numpy's and OpenCV's pins, one a
line.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

RELEASES = {"bookworm": "Raspberry Pi OS 12 (Bookworm)", "trixie": "Raspberry Pi OS 13 (Trixie)"}
"""The releases the box installs on (``VERSION_CODENAME`` in /etc/os-release)."""
ARCHITECTURE = "arm64"
"""``dpkg --print-architecture`` of a 64-bit Raspberry Pi OS. 32-bit (armhf) has no wheels
for the OpenCV numpy 1.x needs nor for sysv_ipc, and pip cannot build them there."""
OPENCV_FOR_NUMPY_1 = "opencv-python-headless>=4.8,<4.12"
"""opencv-python-headless 4.12 and later require numpy 2."""
NUMPY_PACKAGE = "python3-numpy"
OS_RELEASE = Path("/etc/os-release")
REFUSED = 3
"""The exit status on a system the box does not install on."""


class Unsupported(RuntimeError):
    """The box does not install on this system; the message says what would."""


def refusal(architecture: str, release: str) -> str | None:
    """Why the box does not install on this system, or None when it does."""
    wanted = " or ".join(RELEASES.values())
    if architecture != ARCHITECTURE:
        return (
            f"this system is {architecture or 'of an unknown architecture'}: the box needs 64-bit Raspberry Pi OS ({ARCHITECTURE}), "
            f"{wanted}. 32-bit Pi OS has no wheels for the OpenCV and sysv_ipc it needs; flash the 64-bit "
            "image with Raspberry Pi Imager (a Pi 3, 4, 5 or Zero 2 W runs it)"
        )
    if release not in RELEASES:
        return f"this system is {release or 'an unknown release'}: the box installs on {wanted} ({ARCHITECTURE})"
    return None


def upstream_version(debian_version: str) -> str:
    """The upstream release in a Debian version: ``1:1.24.2-1+deb12u1`` is 1.24.2 and
    ``1:2.2.4+ds-1`` is 2.2.4 (epoch, repack suffix and Debian revision dropped)."""
    without_epoch = debian_version.strip().split(":", 1)[-1]
    match = re.match(r"\d+(?:\.\d+)*", without_epoch)
    if match is None:
        raise Unsupported(f"cannot read a numpy version from {debian_version!r}")
    return match.group(0)


def reader_pins(numpy_version: str) -> list[str]:
    """pip's requirements for apt's numpy ``numpy_version`` (upstream, e.g. "1.24.2")."""
    pins = [f"numpy=={numpy_version}"]
    if numpy_version.split(".")[0] == "1":
        pins.append(OPENCV_FOR_NUMPY_1)
    return pins


def extras(config_text: str) -> list[str]:
    """The project's extras for a box with this configuration file: the Pi's, and the
    LED strip's driver only when ``lights.strip`` names one (it pulls in Adafruit-Blinka
    and with it sysv_ipc, which has no wheel and must be compiled)."""
    lights = tomllib.loads(config_text).get("lights", {}) if config_text else {}
    return ["pi", "strip"] if lights.get("strip") else ["pi"]


def _output(*command: str) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def system_release(os_release: Path) -> str:
    """``VERSION_CODENAME`` of the running system ("" when it has none)."""
    try:
        text = os_release.read_text()
    except OSError:
        return ""
    match = re.search(r'^VERSION_CODENAME="?([^"\n]*)"?$', text, re.M)
    return match.group(1) if match else ""


def system_numpy() -> str:
    """apt's numpy: the installed version, else the one apt would install (a dry run
    before ``apt-get install python3-picamera2`` has pulled it in)."""
    installed = _output("dpkg-query", "--showformat=${Version}", "--show", NUMPY_PACKAGE)
    if installed:
        return upstream_version(installed)
    policy = _output("apt-cache", "policy", NUMPY_PACKAGE)
    candidate = re.search(r"^\s*Candidate:\s*(\S+)", policy, re.M)
    if candidate is None or candidate.group(1) == "(none)":
        raise Unsupported(f"apt knows no {NUMPY_PACKAGE}: add Raspberry Pi OS's apt sources")
    return upstream_version(candidate.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m device.pi_stack", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("pins",))
    parser.add_argument("--config", type=Path, help="the box's configuration file (pins: which extras)")
    args = parser.parse_args(argv)
    os_release = Path(os.environ.get("FAMILIAR_OS_RELEASE", OS_RELEASE))
    try:
        problem = refusal(_output("dpkg", "--print-architecture"), system_release(os_release))
        if problem:
            raise Unsupported(problem)
        config = args.config.read_text() if args.config and args.config.is_file() else ""
        print(f"[{','.join(extras(config))}]")
        print("\n".join(reader_pins(system_numpy())))
    except (Unsupported, tomllib.TOMLDecodeError) as error:
        print(f"familiar cannot be installed here: {error}", file=sys.stderr)
        return REFUSED
    return 0


if __name__ == "__main__":
    sys.exit(main())
