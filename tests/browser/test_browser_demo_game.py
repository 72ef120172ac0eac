"""A whole 5-player Unmask game in the demo, the host page driven by taps alone (no API):
the simulated players answer their seats' prompts and throw their dice into the demo's
tray, the camera reads them, and the host taps only what is the host's (a reading to
confirm, an Encounter only the host can judge).  The taps are counted."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Device
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from device.cli import DEMO_NAMES
from device.demo_players import SimulatedPlayers
from engine.actions import Action
from support.browser import MARKS, PHONE, watch_console
from support.daemon import make_daemon
from support.waiting import wait_for

pytestmark = [*MARKS, pytest.mark.slow]
MOST_SECONDS = 180
MOST_TAPS_A_TURN = 30


@pytest.fixture
def tray(tmp_path) -> Iterator[tuple[Any, str]]:
    """The demo's box with its thrown tray, no simulated players."""
    daemon = make_daemon(tmp_path, fps=20)
    daemon.start()
    yield daemon, f"http://127.0.0.1:{daemon.server.port}"
    daemon.close()
    Device.pin_factory = None


def test_the_board_pages_roll_button_throws_the_dice_the_table_waits_for(tray, browser):
    daemon, base = tray
    board = browser.new_context(**PHONE).new_page()
    watch_console(board)
    board.goto(base + "/board")
    roll = board.get_by_role("button", name="Roll the dice (demo tray)")
    roll.click()  # no game: nothing waits for a roll, and nothing is thrown
    assert wait_for(lambda: "the table is not waiting for a roll" in daemon.service.public_view()["notices"])
    daemon.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    time.sleep(3)
    assert daemon.service.public_view()["view"]["history"] == []  # the tray stays empty
    roll.click()
    assert wait_for(lambda: daemon.service.public_view()["view"]["history"], timeout=30)
    expect(board.locator("#spoken")).to_contain_text(str(sum(daemon.service.public_view()["view"]["history"][0])))


@pytest.fixture
def demo(tmp_path) -> Iterator[tuple[Any, str]]:
    """``familiar demo`` as it runs: the thrown tray for a camera, simulated players
    (quicker than the demo's two seconds, so the test takes minutes, not a quarter hour)."""
    daemon = make_daemon(tmp_path, fps=20)
    daemon.start()
    players = SimulatedPlayers(daemon.service, pause=0.3, seed=11, roll=daemon.throw_dice)
    yield daemon, f"http://127.0.0.1:{daemon.server.port}"
    players.close()
    daemon.close()
    Device.pin_factory = None


class Host:
    """The host's phone, counting every tap."""

    def __init__(self, browser: Any, base: str) -> None:
        self.page = browser.new_context(**PHONE).new_page()
        watch_console(self.page)
        self.page.goto(base + "/host")
        self.taps = 0
        self.rng = random.Random(3)

    def tap(self, locator: Any) -> bool:
        try:
            locator.click(timeout=2000)
        except PlaywrightError:  # redrawn under the finger: look again
            return False
        self.taps += 1
        return True

    def answer_what_is_mine(self) -> bool:
        """A reading to confirm, else a prompt of the host's own (not a seat's)."""
        right = self.page.locator("#pending .reading button.yes")
        if right.count():
            return self.tap(right.first)
        for prompt in self.page.locator("#prompts .prompt").all():
            if prompt.locator("p.muted").count():  # "Waiting for Ann; or enter it for them"
                continue
            buttons = prompt.locator("button").all()
            if buttons:
                return self.tap(self.rng.choice(buttons))
        return False


def test_a_five_player_unmask_game_is_finished_from_the_host_page_in_few_taps_a_turn(demo, browser):
    daemon, base = demo
    host = Host(browser, base)
    page = host.page
    expect(page.locator("#game-select option[value=unmask]")).to_have_count(1)
    page.select_option("#game-select", "unmask")
    host.taps += 1
    page.fill("#seat-names", "\n".join(DEMO_NAMES[:5]))  # typed once; counted as one tap
    host.taps += 1
    host.tap(page.locator("#new-game button[type=submit]"))
    expect(page.locator("#message")).to_have_text("Done.")

    service = daemon.service
    started = time.monotonic()
    while time.monotonic() - started < MOST_SECONDS:
        if service.table.game.is_over(service.table.current.state):
            break
        if not host.answer_what_is_mine():
            time.sleep(0.3)
    state = service.table.current.state
    assert service.table.game.is_over(state), (state.step, state.turn, host.taps, daemon.narrator.history[-5:])
    expect(page.locator("#title")).to_contain_text("(over)")
    turns = state.turn
    rolls = [e.action for e in service.store.entries() if e.action.kind == "roll"]
    print(f"taps {host.taps} over {turns} turns ({host.taps / turns:.1f} a turn), {len(rolls)} rolls read")
    assert rolls and all(r.seat is None for r in rolls)  # every roll came through the camera
    assert host.taps / turns < MOST_TAPS_A_TURN
