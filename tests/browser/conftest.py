"""Fixtures of the browser tests: one chromium per module, a served app, a clean console."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from playwright.sync_api import expect

from device.cli import demo_config
from device.config import Config
from device.daemon import Daemon
from support.browser import ARGS, CHROMIUM, CONSOLE_ERRORS, PER_CLIENT, WAIT_MS
from support.web import make_app
from web.serve import serve


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    app, service = make_app(tmp_path)
    server = serve(app, "127.0.0.1", 0, per_client=PER_CLIENT)
    yield f"http://127.0.0.1:{server.port}", service
    server.stop()


@pytest.fixture
def box(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    """The real daemon on the demo's simulated hardware, without a camera, and its address."""
    config = demo_config(Config(), tmp_path / "state", port=0)
    config = dataclasses.replace(
        config, camera=dataclasses.replace(config.camera, source="usb:/dev/familiar-no-such-camera")
    )
    daemon = Daemon(config)
    daemon.start()
    yield daemon, f"http://127.0.0.1:{daemon.server.port}"
    daemon.close()
    Device.pin_factory = None


@pytest.fixture(autouse=True)
def fresh_console() -> None:
    """Each test judges only its own pages' console: with ``-n 2 --dist loadfile`` a
    worker may run another browser test file's tests first, whose expected errors
    (a 403 probe, a stream cut on purpose) would otherwise be counted again."""
    CONSOLE_ERRORS.clear()
