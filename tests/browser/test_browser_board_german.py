"""The virtual board follows a game set up in German (issue 50.9): it reloads in the
table's language by itself, and names the status light, the parts and the game's
track in German, never by the box's English ids."""

from __future__ import annotations

from playwright.sync_api import expect

from engine.actions import Action
from support.browser import MARKS, PHONE, watch_console

pytestmark = MARKS


def test_the_board_turns_german_with_the_game_and_names_everything_in_german(browser, box) -> None:
    daemon, base = box
    context = browser.new_context(**PHONE)
    page = context.new_page()
    watch_console(page)
    try:
        page.goto(f"{base}/board")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("#parts")).to_contain_text("Camera")
        seats = ["Ann", "Bob", "Cat", "Dan", "Eve"]
        daemon.service.submit(Action("table.new", {"game": "unmask", "seats": seats, "options": {"language": "de"}}))
        expect(page.locator("html")).to_have_attribute("lang", "de")  # no reload by hand
        expect(page.locator("h1")).to_have_text("Die Box")
        expect(page.locator("#tracks")).to_contain_text("Bedrohungsleiste")
        expect(page.locator("#parts")).to_contain_text("Kamera")
        expect(page.locator("#parts")).to_contain_text("fehlt")
        expect(page.locator("#status-text")).not_to_have_text("")
        shown = page.inner_text("main")
        for english in ["attention", "waiting", "ready", "missing", "simulated", "Camera", "Threat"]:
            assert english not in shown, english
    finally:
        context.close()
