"""The Pi-stack venv of ``make bench`` installs exactly the reader's ``pi`` pins."""

from __future__ import annotations

import tomllib

from bench import pi_stack


def test_pins_are_the_pi_extras_numpy_and_opencv() -> None:
    extras = tomllib.loads((pi_stack.ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    pins = pi_stack.pins()
    assert sorted(p.split("<")[0].split(">")[0] for p in pins) == ["numpy", "opencv-python-headless"]
    assert all(p in extras["pi"] for p in pins)
    assert any("<2" in p for p in pins if p.startswith("numpy"))
