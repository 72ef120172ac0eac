"""The virtual board in Debian's chromium: the real daemon on simulated hardware (the
strip's SPI bytes recorded, the bars on MockFactory) lights Secret Voldemort's three
tracks, and /board shows every track in its colours exactly as lit, blinking included."""

from __future__ import annotations

import dataclasses

import pytest
from gpiozero import Device
from playwright.sync_api import expect

import engine.table
from device.cli import demo_config
from device.config import Config
from device.daemon import Daemon
from engine.actions import Action
from support.board_game import ThreeTracks, decode
from support.browser import CONSOLE_ERRORS, MARKS, PHONE, watch_console

pytestmark = MARKS
AMBER, OFF = "rgb(255, 160, 0)", "rgb(42, 38, 32)"  # the election segment's colour; style.css --led-off


@pytest.fixture
def box(tmp_path, monkeypatch):
    """A daemon whose games include the three-track test game; ``build(strip=...)``."""
    known = engine.table.registry
    monkeypatch.setattr(engine.table, "registry", lambda: {**known(), "three_tracks": ThreeTracks()})
    made: list[Daemon] = []

    def build(strip: str) -> Daemon:
        base = demo_config(Config(), tmp_path / f"state{len(made)}", port=0)
        config = dataclasses.replace(
            base,
            camera=dataclasses.replace(base.camera, source="usb:/dev/familiar-no-such-camera"),
            lights=dataclasses.replace(base.lights, strip=strip, strip_pixels=14),
        )
        made.append(Daemon(config))
        made[-1].start()
        made[-1].service.submit(Action("table.new", {"game": "three_tracks", "seats": []}))
        return made[-1]

    yield build
    for daemon in made:
        daemon.close()
    Device.pin_factory = None


@pytest.fixture
def board_page(browser, box):
    """Opens /board of a daemon; closed before the daemon stops (so no poll hits a dead box)."""
    contexts = []

    def open_page(daemon: Daemon):
        contexts.append(browser.new_context(**PHONE))
        page = contexts[-1].new_page()
        watch_console(page)
        page.goto(f"http://127.0.0.1:{daemon.server.port}/board")
        return page

    yield open_page
    for context in contexts:
        context.close()


def lit(page, track: str):
    return page.locator(f'[data-track="{track}"] .led.on')


def test_three_tracks_on_the_strip_and_the_board_page(box, board_page) -> None:
    daemon = box(strip="/dev/spidev0.0")
    daemon.service.submit(Action("set", {"order": 5, "dark_arts": 2, "election": 3}))
    frame = decode(daemon.outputs.strip.device.writes[-1])
    assert frame[:15] == bytes([19, 7, 63]) * 5  # the strip itself: Order's five pixels lit blue
    page = board_page(daemon)
    for track, count, on in [("order", 5, "strip"), ("dark_arts", 2, "strip"), ("election", 3, "strip")]:
        expect(lit(page, track)).to_have_count(count)
        expect(page.locator(f'[data-track="{track}"]')).to_have_attribute("data-on", on)
    expect(page.locator('[data-track="threat"]')).to_contain_text("not used by this game")
    expect(lit(page, "order").first).to_have_css("background-color", "rgb(31, 77, 255)")
    expect(lit(page, "dark_arts").first).to_have_css("background-color", "rgb(18, 184, 58)")
    blinking = page.locator('[data-track="election"] .led.blinking')
    expect(blinking).to_have_count(1)
    expect(page.locator('[data-track="election"] .led').nth(2)).to_have_class("led on blinking")
    expect(blinking).to_have_css("animation-duration", "0.6s")  # the box's own 0.3 s on, 0.3 s off
    expect(blinking).to_have_css("background-color", OFF)  # it really goes dark...
    expect(blinking).to_have_css("background-color", AMBER)  # ...and lights again
    expect(page.locator('[data-track="election"] .led').first).to_have_css("background-color", AMBER)
    page.screenshot(path=str(daemon.config.box.state_dir / "board.png"), full_page=True)

    daemon.service.submit(Action("set", {"order": 1, "election": 2}))  # the page follows the table
    expect(lit(page, "order")).to_have_count(1)
    expect(page.locator('[data-track="election"] .led.blinking')).to_have_count(0)
    daemon.undo()
    expect(lit(page, "order")).to_have_count(5)
    assert not board_errors(), board_errors()


def test_without_a_strip_the_bar_shows_what_fits_and_the_page_the_rest(box, board_page) -> None:
    daemon = box(strip="")
    daemon.service.submit(Action("set", {"order": 4, "dark_arts": 6, "election": 1}))
    pins = [daemon.pin_factory.pin(n).state for n in Config().lights.bars["threat"].pins]
    assert pins == [1] * 4 + [0] * 4  # the Order track took the idle Threat Track bar
    page = board_page(daemon)
    expect(page.locator('[data-track="order"]')).to_have_attribute("data-on", "bar")
    expect(lit(page, "order")).to_have_count(4)
    expect(lit(page, "order").first).to_have_css("background-color", "rgb(255, 42, 26)")  # the bar's red LEDs
    for track, count in [("dark_arts", 6), ("election", 1)]:
        expect(page.locator(f'[data-track="{track}"]')).to_contain_text("on this page only")
        expect(lit(page, track)).to_have_count(count)
    assert not board_errors(), board_errors()


def board_errors() -> list[str]:
    return [line for line in CONSOLE_ERRORS if "/board" in line]
