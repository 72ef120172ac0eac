"""The host teaches a symbol die from the host page in a real browser (Debian's chromium
driven by Playwright), with the real daemon behind the page: each capture takes the
camera's latest frame (replayed from photos), and the next roll reads the die."""

from __future__ import annotations

import cv2
import pytest
from playwright.sync_api import expect

from bench.taught_dice import FACES
from device.daemon import TEACHING_QUIET_S
from engine.actions import Action
from engine.dice import in_order
from support.browser import CONSOLE_ERRORS, MARKS, PHONE, watch_console
from support.teach import FULL_TRAY, roll_with, shot
from vision.camera.replay import ReplayCamera

pytestmark = MARKS

CAPTURES = [(face, 31 + i) for i, face in enumerate(FACES)] + [("star", 40)]


@pytest.fixture
def camera(tmp_path):
    """The photos the camera will show, in order: each face alone, the full tray, a roll."""
    paths = []
    for i, (face, seed) in enumerate(CAPTURES):
        paths.append(tmp_path / f"{i:02d}-{face}.png")
        cv2.imwrite(str(paths[-1]), shot(face, seed))
    paths.append(tmp_path / "90-full-tray.png")
    cv2.imwrite(str(paths[-1]), FULL_TRAY)
    paths.append(tmp_path / "99-roll.png")
    cv2.imwrite(str(paths[-1]), roll_with("bolt", 40)[0])
    with ReplayCamera(paths, fps=None, loop=False, simulate_rolls=False) as replay:
        yield replay


def test_host_teaches_a_die_on_the_page_and_a_roll_reads_it(box, camera, browser):
    daemon, base = box
    replay = camera
    page = browser.new_context(**PHONE).new_page()
    watch_console(page)
    page.goto(base + "/host")
    page.get_by_role("tab", name="Teach").click()  # teaching is behind its own tab
    expect(page.locator("#taught-dice")).to_contain_text("No die taught yet.")
    page.fill("#die-name", "clue")
    counts: dict[str, int] = {}
    for face, _ in CAPTURES:
        daemon._latest_frame = replay.read()  # what the camera thread does with each frame
        page.fill("#face-name", face)
        page.click("#capture")
        counts[face] = counts.get(face, 0) + 1
        expect(page.locator("#die-result")).to_have_text(
            f"Saved photo {counts[face]} of {face}. Turn or move the die and capture again, or show the next face."
        )
        expect(page.locator("#die-preview figcaption")).to_have_text(f"clue: {face}")
    die = page.locator(".taught-die[data-die=clue]")
    expect(die).to_contain_text("star: 2 photos")
    expect(die).to_contain_text("key: 1 photo")
    expect(die).to_contain_text("All six faces taught")
    assert page.locator("#die-preview img").evaluate("img => img.complete && img.naturalWidth") == 160

    daemon._latest_frame = replay.read()  # the whole tray of dice: refused, nothing stored
    page.click("#capture")
    expect(page.locator("#die-result")).to_contain_text("leave only the die you are teaching")
    assert daemon.taught_dice() == {"clue": {face: 1 for face in FACES} | {"star": 2}}
    page.screenshot(path="/tmp/familiar-host-teach-die.png", full_page=True)

    # A roll, once the tray is read again after teaching; this host confirms every
    # reading, so it waits on the page, and once confirmed the table says the symbol.
    daemon.service.submit(Action("table.new", {"game": "dice", "seats": []}))
    daemon.desk.confirm_below = 1.0
    roll = replay.read()
    daemon._on_settled(roll)
    assert not daemon.pending()  # just after a capture the tray holds the taught die
    daemon._taught_at -= TEACHING_QUIET_S
    daemon._on_settled(roll)
    pending = daemon.pending()
    assert len(pending) == 1 and "bolt" in pending[0]["values"], pending
    expect(page.locator("#pending")).to_contain_text("bolt")  # live: the parked reading wakes the page
    page.wait_for_function(  # the page has its photo before the reading goes away
        "() => { const i = document.querySelector('#pending img'); return i && i.complete && i.naturalWidth > 0; }"
    )
    values = [v for v in pending[0]["values"] if v is not None]
    daemon.resolve(pending[0]["id"], values)
    expect(page.locator("#pending")).not_to_contain_text("bolt")  # and it leaves the page live
    assert daemon.service.public_view()["view"]["last"] == in_order(values)
    assert daemon.narrator.wait_idle(30)  # the narrator speaks on its own thread
    assert any(line.endswith("bolt") for line in daemon.narrator.history)

    page.once("dialog", lambda dialog: dialog.accept())
    die.get_by_role("button", name="Forget clue").click()
    expect(page.locator("#taught-dice")).to_contain_text("No die taught yet.")
    assert daemon.taught is None and daemon.taught_dice() == {}
    page.context.close()
    assert [e for e in CONSOLE_ERRORS if "status of 400" not in e] == []
