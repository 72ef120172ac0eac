"""Harry Potter Clue on the host page in Debian's chromium: the roll typed (the green die's
pips and the black die's face by name, for a table whose black die is not taught yet), and
the board's wheels entered once in the new-game form and offered there from then on."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from device.store import Store
from device.table_service import TableService
from engine.actions import Action
from engine.games.clue import Clue
from engine.games.clue_wheels import parse_wheels
from support.browser import MARKS, PER_CLIENT, HostWatch
from support.clue import WHEELS
from web import create_app
from web.serve import serve

pytestmark = MARKS


def test_the_host_types_the_green_pips_and_the_black_face_by_name(browser, tmp_path):
    service = TableService(Store(tmp_path / "table.db"), games={"clue": Clue()})
    server = serve(create_app(service, None), "127.0.0.1", 0, per_client=PER_CLIENT)
    try:
        service.submit(
            Action("table.new", {"game": "clue", "seats": ["Ann", "Bob", "Cy"], "options": {"wheels": WHEELS}})
        )
        for seat in range(3):
            free = next(e for e in service.table.expects() if e.action == "identity" and e.seat == seat)
            service.submit(Action("identity", {"choice": free.options[0]}, seat))
        service.submit(Action("first", {"choice": 0}))
        host = HostWatch(browser, f"http://127.0.0.1:{server.port}")
        prompt = host.page.locator("#prompts .prompt", has_text="roll the green die and the black die")
        expect(prompt).to_be_visible()
        width = host.page.evaluate("document.documentElement.scrollWidth")
        assert width <= host.page.viewport_size["width"]  # the faces fit the phone
        prompt.get_by_role("button", name="die showing 4").click()
        expect(prompt.locator(".dice-shown")).to_have_text("4")
        prompt.get_by_role("button", name="Gringotts").click()
        expect(host.page.locator("#message")).to_have_text("Done.")
        wheel = next(w for w in service.table.current.state.wheels if w.face == "gringotts")
        assert wheel.notch == 1  # the roll was taken: the Gringotts wheel turned one notch
    finally:
        server.stop()


def test_the_host_enters_the_wheels_once_and_the_next_games_form_shows_them(browser, tmp_path):
    service = TableService(Store(tmp_path / "table.db"), games={"clue": Clue()})
    server = serve(create_app(service, None), "127.0.0.1", 0, per_client=PER_CLIENT)
    try:
        host = HostWatch(browser, f"http://127.0.0.1:{server.port}")
        page = host.page
        expect(page.locator("#game-select option[value=clue]")).to_have_count(1)  # the only game: chosen
        field = page.locator("#game-options textarea[data-kept=wheels]")
        expect(page.locator("#game-options")).to_contain_text("Wheels (kept for this board, as JSON)")
        expect(field).to_have_value("")  # nothing entered on this box yet
        field.fill("{not json")
        page.fill("#seat-names", "Ann\nBob\nCy")
        page.click("#new-game button[type=submit]")
        expect(page.locator("#message")).to_contain_text("Wheels is not valid JSON")
        assert service.table.current.game is None  # nothing was sent
        field.fill(json.dumps(WHEELS))
        page.click("#new-game button[type=submit]")
        expect(page.locator("#message")).to_have_text("Done.")
        assert service.table.current.state.wheels == parse_wheels(WHEELS)

        page.reload()  # the next set-up, on a fresh page
        expect(page.locator("#title")).to_have_text("Harry Potter Clue")
        expect(field).not_to_have_value("")
        assert json.loads(field.input_value()) == WHEELS
        page.once("dialog", lambda dialog: dialog.accept())  # a game is being played: start anew?
        page.fill("#seat-names", "Di\nEd\nFlo")
        page.click("#new-game button[type=submit]")
        expect(page.locator("#message")).to_have_text("Done.")
        assert service.table.current.seats == ("Di", "Ed", "Flo")
        assert service.table.current.state.wheels == parse_wheels(WHEELS)
    finally:
        server.stop()
