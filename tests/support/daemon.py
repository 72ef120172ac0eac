"""A real daemon on simulated hardware, in a test's own state directory."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from device.cli import demo_config
from device.config import Config
from device.daemon import Daemon


def make_daemon(tmp_path: Path, **camera: Any) -> Daemon:
    """The demo's box (gpiozero's MockFactory, replay camera, real speech), with camera
    options changed by ``camera``."""
    config = demo_config(Config(), tmp_path / "state", port=0)
    config = dataclasses.replace(config, camera=dataclasses.replace(config.camera, **camera))
    return Daemon(config)
