"""The systemd watchdog means something: the real daemon pings only while its camera and
narrator threads report in, and its camera thread outlives any exception.

The daemon runs for real (MockFactory pins, espeak-ng, waitress on a loopback port) with
the replay camera over the tray photos; a gate in front of that camera stands for a
driver call that never returns, and a datagram socket stands for systemd's NOTIFY_SOCKET.
"""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from gpiozero import Device

from device import daemon as daemon_module
from device.cli import DEMO_PHOTOS
from device.heartbeats import Heartbeats
from device.narrator import KEPT_HISTORY
from support.daemon import make_daemon
from support.waiting import wait_for
from vision.camera import Camera, ReplayCamera

TRAY = DEMO_PHOTOS


class GatedCamera(Camera):
    """The real replay camera, whose ``read()`` blocks while the gate is closed (as a Pi
    camera's driver call can hang)."""

    def __init__(self, gate: threading.Event) -> None:
        self._replay = ReplayCamera(TRAY, fps=20)
        self._gate = gate
        self.description = "gated " + self._replay.description

    def read(self) -> np.ndarray:
        self._gate.wait()
        return self._replay.read()

    def close(self) -> None:
        self._replay.close()


@pytest.fixture
def notify_socket(monkeypatch) -> Iterator[socket.socket]:
    """systemd's side of sd_notify, with a 0.3 s watchdog (the daemon pings every 0.15 s)."""
    with tempfile.TemporaryDirectory(prefix="sd") as folder:
        path = os.path.join(folder, "notify")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(path)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        monkeypatch.setenv("WATCHDOG_USEC", "300000")
        monkeypatch.delenv("WATCHDOG_PID", raising=False)
        yield listener
        listener.close()


def messages(listener: socket.socket, seconds: float) -> list[tuple[float, str]]:
    """Every sd_notify message received for ``seconds``, with its arrival time."""
    received = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        listener.settimeout(left)
        try:
            received.append((time.monotonic(), listener.recv(4096).decode()))
        except TimeoutError:
            break
    return received


def listen(listener: socket.socket, received: list[tuple[float, str]], until: threading.Event) -> None:
    """Every sd_notify message, with its arrival time, into ``received`` until ``until`` is set."""
    while not until.is_set():
        received.extend(messages(listener, 0.2))


def pings(received: list[tuple[float, str]]) -> int:
    return sum(text == "WATCHDOG=1" for _, text in received)


@pytest.mark.slow
def test_pings_stop_while_the_camera_thread_stalls_and_resume_after(
    tmp_path: Path, notify_socket: socket.socket, monkeypatch
) -> None:
    gate = threading.Event()
    gate.set()
    monkeypatch.setattr(daemon_module, "CAMERA_STALL_S", 1.0)
    monkeypatch.setattr(daemon_module, "open_camera", lambda *args: GatedCamera(gate))
    box = make_daemon(tmp_path)
    runner = threading.Thread(target=box.run, name="main")
    runner.start()
    try:
        healthy = messages(notify_socket, 1.5)
        assert healthy[0][1] == "READY=1"
        assert pings(healthy) >= 5  # every 0.15 s

        gate.clear()  # the camera's read() now hangs
        stalled_at = time.monotonic()
        stalled = messages(notify_socket, 3.0)
        last_ping = max((at for at, text in stalled if text == "WATCHDOG=1"), default=stalled_at)
        assert last_ping - stalled_at < 1.0 + 0.5  # pinged only until the stall limit
        assert any(text.startswith("STATUS=stalled: camera") for _, text in stalled)
        assert box.parts["camera"] == "stalled"
        assert any("camera thread stopped responding" in p for p in box.problems.values())

        gate.set()  # the driver call returns: the thread beats again
        assert pings(messages(notify_socket, 1.0)) >= 3
        assert box.parts["camera"] == "ok" and "camera" not in box.problems
    finally:
        gate.set()
        box.stopping.set()
        runner.join(30)
        Device.pin_factory = None
    assert not runner.is_alive()


@pytest.mark.slow
def test_a_narrator_talking_past_its_kept_history_is_not_reported_dead(
    tmp_path: Path, notify_socket: socket.socket, monkeypatch
) -> None:
    """150 lines, each followed by 40 ms of quiet, fed as the queue (100 lines) drains:
    past the 100 kept lines the history's length stops changing for over 2 s while the
    narrator talks on, twice its 1 s limit."""
    monkeypatch.setattr(daemon_module, "NARRATOR_STALL_S", 1.0)
    box = make_daemon(tmp_path)
    runner = threading.Thread(target=box.run, name="main")
    runner.start()
    try:
        assert messages(notify_socket, 0.5)[0][1] == "READY=1"
        box.narrator.wait_idle(30)
        before = box.narrator.finished
        received: list[tuple[float, str]] = []
        listening = threading.Thread(target=listen, args=(notify_socket, received, box.stopping))
        listening.start()
        for number in range(150):
            wait_for(lambda n=number: n - (box.narrator.finished - before) < 50)
            box.narrator.say(f"line {number}", then_wait=0.04)
        assert box.narrator.wait_idle(60)
        done_at = time.monotonic()
    finally:
        box.stopping.set()
        runner.join(30)
        Device.pin_factory = None
    listening.join(5)
    assert not runner.is_alive()
    assert not [text for _, text in received if text.startswith("STATUS=stalled")]
    pinged = [at for at, text in received if text == "WATCHDOG=1" and at <= done_at]
    # every 0.15 s throughout; a stall would stop them for the 1 s limit at least (a busy
    # machine may hold one back a little, which is no stall)
    assert max(b - a for a, b in zip(pinged, pinged[1:], strict=False)) < 1.0
    assert len(box.narrator.history) == KEPT_HISTORY
    assert box.narrator.finished - before == 150  # no "stopped responding" line either


def test_the_camera_thread_outlives_any_exception_and_shows_it(tmp_path: Path, monkeypatch) -> None:
    """As with apt's picamera2 imported against the wrong numpy: not a CameraError."""
    working = threading.Event()

    def open_camera(*args):
        if not working.is_set():
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")
        return ReplayCamera(TRAY, fps=20)

    monkeypatch.setattr(daemon_module, "CAMERA_RETRY_S", 0.2)
    monkeypatch.setattr(daemon_module, "CAMERA_STEADY_S", 0.5)  # working again after 0.5 s without a failure
    monkeypatch.setattr(daemon_module, "open_camera", open_camera)
    box = make_daemon(tmp_path)
    box.start()
    try:
        wait_for(lambda: box.parts["camera"] == "missing")
        assert "ValueError: numpy.dtype size changed" in box.problems["camera"]
        assert any("Camera problem" in n for n in box.service.public_view()["notices"])
        time.sleep(0.5)  # several retries, the thread still alive
        assert [t for t in threading.enumerate() if t.name == "camera"]
        working.set()
        wait_for(lambda: box.parts["camera"] == "ok")
        wait_for(lambda: box._latest_frame is not None)
        assert "camera" not in box.problems
    finally:
        box.close()
        Device.pin_factory = None


def test_a_thread_is_stalled_only_after_its_own_limit() -> None:
    now = [0.0]
    beats = Heartbeats(clock=lambda: now[0])
    beats.expect("camera", 30.0)
    beats.expect("narrator", 120.0)
    now[0] = 29.0
    assert beats.stalled() == {}
    now[0] = 31.0
    assert beats.stalled() == {"camera": 31.0}
    beats.beat("camera")
    now[0] = 125.0
    assert beats.stalled() == {"camera": 94.0, "narrator": 125.0}
