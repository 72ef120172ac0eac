"""The pages in German, in Debian's chromium: a box set to German, and a game set up in
German on a box that speaks English (the pages follow the table's language)."""

from __future__ import annotations

from playwright.sync_api import expect

from support.browser import MARKS, PER_CLIENT, HostWatch, join
from support.waiting import wait_for
from support.web import make_app
from web.serve import serve

pytestmark = MARKS


def test_a_german_box_shows_the_host_page_and_the_dice_reader_in_german(browser, tmp_path):
    app, service = make_app(tmp_path, language="de")
    server = serve(app, "127.0.0.1", 0, per_client=PER_CLIENT)
    try:
        host = HostWatch(browser, f"http://127.0.0.1:{server.port}")
        page = host.page
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("h1")).to_have_text("Spielleitung")
        expect(page.locator("#title")).to_have_text("Noch kein Spiel")
        expect(page.locator("#game-select option[value=dice]")).to_have_text("Würfelleser (0–12 Spieler)")
        page.select_option("#game-select", "dice")
        page.click("#new-game button[type=submit]")
        expect(page.locator("#message")).to_have_text("Erledigt.")
        expect(page.locator("#title")).to_have_text("Würfelleser")
        expect(page.locator("#prompts")).to_contain_text("Würfle mit beliebigen Würfeln")
        page.get_by_role("button", name="Würfel zeigt 3").click()
        page.get_by_role("button", name="Würfel zeigt 5").click()
        page.get_by_role("button", name="Fertig").click()
        expect(page.locator("#message")).to_have_text("Erledigt.")
        expect(page.locator("#view")).to_contain_text("Summe")
        assert wait_for(lambda: service.table.current.state.history == [[3, 5]])  # "Erledigt." was shown before too
        # a refusal comes back in German too
        page.get_by_role("button", name="Letzten Schritt zurücknehmen").click()
        page.get_by_role("button", name="Letzten Schritt zurücknehmen").click()
        expect(page.locator("#message")).to_have_text("Zurückgenommen.")
        page.get_by_role("button", name="Letzten Schritt zurücknehmen").click()
        expect(page.locator("#message")).to_have_text("es gibt nichts rückgängig zu machen")
    finally:
        server.stop()


def test_a_game_set_up_in_german_turns_every_page_german(browser, served):
    base, service = served
    host = HostWatch(browser, base)
    expect(host.page.locator("h1")).to_have_text("Host")
    page = host.page
    page.select_option("#game-language", "de")
    page.select_option("#game-select", "secrets")
    page.fill("#seat-names", "Ann\nBob")
    page.click("#new-game button[type=submit]")
    expect(host.page.locator("h1")).to_have_text("Spielleitung")  # reloaded in the game's language
    assert service.language == "de"
    ann = join(browser, base, "Ann", service.join_code())
    # Ann's secret pick waits for her: her button says so, in German
    expect(ann.locator("#reveal")).to_have_text("Du bist gefragt: tippe, um ungesehen zu antworten")
    bob = join(browser, base, "Bob", service.join_code())
    expect(bob.locator("#reveal")).to_have_text("Tippen, um dein Geheimnis zu sehen")
    expect(ann.locator("html")).to_have_attribute("lang", "de")
