"""Driving Debian's chromium with Playwright: its flags, a phone's screen, and a record of
every script error and CSP violation of the pages under test (the fixtures are in
tests/browser/conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PER_CLIENT = 64  # every test browser connects from 127.0.0.1: one real phone's share would not do
WAIT_MS = 20_000  # generous: the suite runs alongside CPU-heavy vision tests

MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="Debian's chromium is not installed (make test installs it with apt)"
    ),
]
"""Every browser test module's ``pytestmark``."""

CONSOLE_ERRORS: list[str] = []
"""Script errors and CSP violations of the current test's pages (emptied before each)."""


def watch_console(page: Any) -> None:
    """Collect script errors and CSP violations: the pages must run clean under their CSP."""
    page.on("console", lambda msg: CONSOLE_ERRORS.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda exc: CONSOLE_ERRORS.append(f"{page.url}: {exc}"))


def join(browser: Any, base: str, name: str, code: str, watch: Any = None) -> Any:
    """A phone opens the join link (as from the QR code) and taps its name; ``watch(page)``
    is called first, to see every response the phone gets from its first load."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    if watch is not None:
        watch(page)
    watch_console(page)
    page.goto(f"{base}/j/{code}")
    page.once("dialog", lambda dialog: dialog.accept())  # "Are you Ann? ..."
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_url(re.compile(r"/me$"), timeout=WAIT_MS)
    expect(page.locator("#name")).to_have_text(name)
    return page


def held_until(page: Any, held: list, why: str) -> None:
    """Waits on ``page`` until a route handler has put something in ``held``: Playwright
    hands routes over only while the page is waited on."""
    for _ in range(400):
        if held:
            return
        page.wait_for_timeout(25)
    raise AssertionError(why)


def reveal(page: Any) -> str:
    page.click("#reveal")
    page.wait_for_selector("#secret:not([hidden])", timeout=WAIT_MS)
    return page.inner_text("#secret-view")


class HostWatch:
    """The host's browser, remembering every response its page received."""

    def __init__(self, browser, base: str) -> None:
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.responses = []
        self.page.on("response", lambda response: self.responses.append(response))
        watch_console(self.page)
        self.page.goto(base + "/host")

    def downloaded(self) -> str:
        """Every body the host page received, except the endless event stream (checked in test_web)."""
        texts = []
        for response in self.responses:
            if "event-stream" in (response.headers.get("content-type") or ""):
                continue
            try:
                texts.append(response.body().decode("utf-8", "replace"))
            except Exception:  # a response still streaming when the page moved on
                continue
        return "\n".join(texts)

    def start(self, game: str, seats: list[str]) -> None:
        page = self.page
        expect(page.locator(f"#game-select option[value={game!r}]")).to_have_count(1)
        page.select_option("#game-select", game)
        page.fill("#seat-names", "\n".join(seats))
        page.click("#new-game button[type=submit]")
        expect(page.locator("#message")).to_have_text("Done.")  # the game exists (its join code too)
