"""Harry Potter Clue's roll typed on the host page in Debian's chromium: the green die's
pips and the black die's face by name, for a table whose black die is not taught yet."""

from __future__ import annotations

from playwright.sync_api import expect

from device.store import Store
from device.table_service import TableService
from engine.actions import Action
from engine.games.clue import Clue
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
