"""The installer's choice of numpy and OpenCV for each Raspberry Pi OS release (device/pi_stack.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from device.pi_stack import extras, reader_pins, refusal, upstream_version
from support import ROOT

RELEASES = {
    # release: (its Python, apt's python3-numpy), as Raspberry Pi OS ships them
    "bookworm": ("3.11", "1:1.24.2-1+deb12u1"),
    "trixie": ("3.13", "1:2.2.4+ds-1"),
}

PI_PLATFORMS = [f"manylinux_2_{glibc}_aarch64" for glibc in (36, 35, 34, 28, 27, 26, 24, 17)] + [
    "manylinux2014_aarch64"
]
"""The wheel tags 64-bit Pi OS takes (glibc 2.36 on Bookworm; pip's ``--platform`` takes
only the tags it is given)."""


def test_apt_s_numpy_versions_are_read_as_upstream_releases() -> None:
    assert upstream_version("1:1.24.2-1+deb12u1") == "1.24.2"
    assert upstream_version("1:2.2.4+ds-1") == "2.2.4"
    assert upstream_version("1:1.26.4+ds-11+rpt1\n") == "1.26.4"


def test_opencv_stays_below_4_12_only_with_numpy_1() -> None:
    assert reader_pins("1.24.2") == ["numpy==1.24.2", "opencv-python-headless>=4.8,<4.12"]
    assert reader_pins("2.2.4") == ["numpy==2.2.4"]


def test_only_64_bit_bookworm_and_trixie_are_accepted() -> None:
    assert refusal("arm64", "bookworm") is None and refusal("arm64", "trixie") is None
    assert "64-bit" in (refusal("armhf", "bookworm") or "")
    assert "Bookworm" in (refusal("arm64", "bullseye") or "")
    assert refusal("amd64", "trixie")


def test_the_strip_s_driver_is_an_extra_only_a_strip_pulls_in() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    every = " ".join(project["dependencies"] + project["optional-dependencies"]["pi"]).lower()
    assert "neopixel" not in every and "blinka" not in every
    assert any("neopixel-spi" in req for req in project["optional-dependencies"]["strip"])
    assert extras("") == ["pi"] and extras('[lights]\nstrip = ""\n') == ["pi"]
    assert extras('[lights]\nstrip = "/dev/spidev0.0"\n') == ["pi", "strip"]


def resolve(python: str, requirements: list[str], folder: Path) -> dict[str, str]:
    """The versions pip picks for ``requirements`` on 64-bit Pi OS with ``python``, from
    binary wheels only (the Pi has no compiler): pip's own resolver over the index."""
    report = folder / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed", "--only-binary=:all:"]
        + [arg for tag in PI_PLATFORMS for arg in ("--platform", tag)]
        + ["--python-version", python, "--implementation", "cp"]
        + ["--target", str(folder / "target"), "--report", str(report), *requirements],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if "No matching distribution" not in done.stderr and ("Network" in done.stderr or "connection" in done.stderr):
        pytest.skip(f"no package index: {done.stderr.strip()[-200:]}")
    assert done.returncode == 0, done.stderr
    return {
        item["metadata"]["name"].lower(): item["metadata"]["version"]
        for item in json.loads(report.read_text())["install"]
    }


@pytest.mark.slow
@pytest.mark.network
@pytest.mark.parametrize("release", sorted(RELEASES))
def test_the_installer_s_pins_resolve_to_wheels_on_each_release(release: str, tmp_path: Path) -> None:
    """The project's compiled requirements (the rest are pure Python, built anywhere) with
    the pins the installer picks from apt's numpy, resolved for that release's Python on
    arm64 wheels alone: Trixie used to fail here (``numpy<2`` has no wheel for Python 3.13). Measured: Bookworm gets OpenCV 4.11.0.86 beside numpy
    1.24.2, Trixie the newest OpenCV (5.1.0.95 today) beside numpy 2.2.4; the old pins
    (``numpy>=1.24,<2``) found no numpy at all for Python 3.13."""
    python, numpy = RELEASES[release]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    compiled = [req for req in project["dependencies"] if req.startswith(("numpy", "opencv"))]
    picked = resolve(python, compiled + reader_pins(upstream_version(numpy)), tmp_path)
    assert picked["numpy"] == upstream_version(numpy)
    opencv = tuple(int(part) for part in picked["opencv-python-headless"].split(".")[:2])
    assert opencv < (4, 12) if numpy.startswith("1:1.") else opencv >= (4, 12)
