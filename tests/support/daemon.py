"""A real daemon on simulated hardware, in a test's own state directory: in the test's
process, or as ``familiar demo`` in a subprocess (to ``kill -9`` it), with the calls a
host's device makes to it."""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import urllib.request
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_demo(state: Path, port: int, module: str = "device.cli", *more: str, bots: bool = False) -> subprocess.Popen:
    """``python -m module demo --no-bots`` (with ``bots``, its simulated players play; or a
    test module's own launcher, ``more`` its arguments) serving on ``port`` with its state
    in ``state``."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])}
    demo = ["demo", *([] if bots else ["--no-bots"])] if module == "device.cli" else []
    cmd = [sys.executable, "-m", module, *demo, *more, "--port", str(port), "--state", str(state)]
    return subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def call(opener: Any, url: str, body: dict | None = None) -> dict:
    """One JSON request (a POST when ``body`` is given) with ``opener``'s cookies."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    return json.loads(opener.open(req, timeout=10).read() or b"{}")


def answers(opener: Any, url: str) -> bool:
    """Whether ``url`` answers 200 now (False while the box is down or starting)."""
    try:
        return opener.open(url, timeout=2).status == 200
    except OSError:
        return False
