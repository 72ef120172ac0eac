"""Dead ends a new group would hit, tried from the person's side in Debian's chromium
with the real daemon behind the pages (the demo's simulated hardware): taking over as
host, corrections that survive live updates, stale readings, taps that ask first,
captions on the phones, and a box that cannot be reached."""

from __future__ import annotations

import re

import cv2
from playwright.sync_api import expect

from device.cli import DEMO_PHOTOS
from engine.actions import Action
from support.browser import MARKS, PHONE, WAIT_MS, join, watch_console
from support.waiting import wait_for

pytestmark = MARKS
ROLL_PHOTO = sorted(p.name for p in DEMO_PHOTOS.glob("*.jpg"))[0]


def page_of(browser, base: str, path: str):
    page = browser.new_context(**PHONE).new_page()
    watch_console(page)
    page.goto(base + path)
    return page


def test_a_gone_host_is_taken_over_with_the_hold_on_the_demo_board(box, browser):
    daemon, base = box
    first = page_of(browser, base, "/host")
    expect(first.locator("h1")).to_have_text("Host")
    first.context.close()  # the host's phone is gone for good

    second = page_of(browser, base, "/host")
    expect(second.locator("h1")).to_have_text("This box already has a host")
    expect(second.locator(".steps")).to_contain_text("open the virtual board")
    second.get_by_role("link", name="Open the virtual board").click()
    second.get_by_role("button", name="Hold confirm (a new host device)").click()
    assert wait_for(lambda: any(line.startswith("Host pairing:") for line in daemon.narrator.history))
    code = second.locator("#pairing-code")  # the box's own screen shows the code (the host's phone is gone)
    expect(code).to_have_text(re.compile(r"^[0-9]{6}$"), timeout=WAIT_MS)
    typed = code.text_content() or ""
    second.goto(base + "/host")
    expect(second.locator("h1")).to_have_text("This box already has a host")  # opening it is not enough
    second.locator("#pair-code").fill(typed)
    second.get_by_role("button", name="Become the host").click()
    expect(second.locator("h1")).to_have_text("Host")


def test_a_correction_being_typed_survives_live_updates_and_new_readings(box, browser):
    daemon, base = box
    daemon.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    daemon.desk.confirm_below = 1.0  # every reading goes to the host
    frame = cv2.imread(str(DEMO_PHOTOS / ROLL_PHOTO))
    host = page_of(browser, base, "/host")
    daemon._on_settled(frame)
    field = host.locator("#pending .reading input").first
    expect(field).to_be_visible()
    field.fill("6, 6, 6")
    daemon.service.note("a live update")  # every page redraws
    expect(host.locator("#notices")).to_contain_text("a live update")
    daemon.desk._last = []  # the same photo again counts as a new roll
    daemon._on_settled(frame)
    expect(host.locator("#pending .reading")).to_have_count(2)
    assert host.locator("#pending .reading input").nth(1).input_value() == "6, 6, 6"  # newest first

    # The table moves on (here: a new game without rolls): no reading can answer it now.
    host.once("dialog", lambda dialog: dialog.accept())  # a game is being played: start anew?
    host.select_option("#game-select", "voldemort")
    host.fill("#seat-names", "\n".join(["Ann", "Bob", "Cy", "Di", "Ed"]))
    host.click("#new-game button[type=submit]")
    expect(host.locator("#pending-panel")).to_be_hidden()
    expect(host.locator("#notices")).to_contain_text("2 camera readings were dropped")


def test_a_mis_tapped_seat_is_not_claimed_and_undo_names_whose_answer_it_takes_back(box, browser):
    daemon, base = box
    daemon.service.submit(Action("table.new", {"game": "voldemort", "seats": ["Ann", "Bob", "Cy", "Di", "Ed"]}))
    phone = page_of(browser, base, f"/j/{daemon.service.join_code()}")
    phone.once("dialog", lambda dialog: dialog.dismiss())  # "Are you Bob?" - no, a mis-tap
    phone.get_by_role("button", name="Bob", exact=True).click()
    expect(phone.locator("#pick")).to_be_visible()
    assert daemon.service.public_view()["claimed"] == [False] * 5
    phone.context.close()

    state = daemon.service.table.current.state
    minister = state.minister
    names = ["Ann", "Bob", "Cy", "Di", "Ed"]
    player = join(browser, base, names[minister], daemon.service.join_code())
    player.locator("#prompts").get_by_role("button", name=names[state.eligible()[0]], exact=True).click()
    expect(player.locator("#message")).to_have_text("Sent.")
    host = page_of(browser, base, "/host")
    undo = host.locator("#undo")
    expect(undo).to_have_text(f"Undo {names[minister]}'s answer")
    host.once("dialog", lambda dialog: dialog.dismiss())
    undo.click()
    expect(host.locator("#undo")).to_have_text(f"Undo {names[minister]}'s answer")  # nothing undone
    assert daemon.service.table.current.state.step != "nominating"


def test_a_step_that_showed_a_secret_leaves_undo_off_with_the_reason_on_the_host_page(box, browser):
    daemon, base = box
    daemon.service.submit(Action("table.new", {"game": "kampf", "seats": ["Ann", "Bob", "Cy"]}))
    host = page_of(browser, base, "/host")
    expect(host.locator("#undo")).to_be_enabled()  # the deal may be undone: a new game
    daemon.service.submit(Action("start"))
    expect(host.locator("#undo")).to_be_disabled()
    expect(host.locator("#undo-what")).to_contain_text("the table's eyes are closed")


def test_phones_show_the_last_lines_said_and_a_box_that_cannot_be_reached(box, browser):
    daemon, base = box
    daemon.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    phone = join(browser, base, "Ann", daemon.service.join_code())
    expect(phone.locator("#captions")).to_contain_text("Ready. Roll the dice in the tray.", timeout=WAIT_MS)
    daemon.service.submit(Action("roll", {"dice": [2, 6]}))
    expect(phone.locator("#captions li").last).to_have_text("2, 6: 8", timeout=WAIT_MS)

    phone.route("**/api/**", lambda route: route.abort("internetdisconnected"))  # the Wi-Fi is gone
    phone.evaluate("Familiar.api('/api/table')")
    expect(phone.locator("#offline")).to_be_visible()
    phone.unroute("**/api/**")
    phone.evaluate("Familiar.api('/api/table')")
    expect(phone.locator("#offline")).to_be_hidden()
