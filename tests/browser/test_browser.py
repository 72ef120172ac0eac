"""Real phones, as far as a test can get: Debian's chromium driven by Playwright against
the app served by waitress.  Two phones join; each sees its own secret and never the
other's; the host's page never holds a secret, in its DOM or anything it downloads."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from engine.actions import Action
from support.browser import CONSOLE_ERRORS, MARKS, PER_CLIENT, PHONE, WAIT_MS, HostWatch, held_until, join, reveal
from support.web import make_app
from web.serve import serve

pytestmark = MARKS


def test_two_phones_see_only_their_own_secret(browser, served):
    base, service = served
    host = HostWatch(browser, base)
    host.start("secrets", ["Ann", "Bob", "Cy"])
    expect(host.page.locator("#title")).to_have_text("Secret words")
    words = service.table.current.state.words

    ann, bob = join(browser, base, "Ann", service.join_code()), join(browser, base, "Bob", service.join_code())
    assert words[0] not in ann.content()  # nothing secret until tapped
    ann_sees, bob_sees = reveal(ann), reveal(bob)
    assert words[0] in ann_sees and words[1] not in ann_sees and words[2] not in ann_sees
    assert words[1] in bob_sees and words[0] not in bob_sees
    assert words[0] not in bob.content() and words[1] not in ann.content()
    ann.screenshot(path="/tmp/familiar-phone.png", full_page=True)

    # Ann's secret prompt (pick someone to peek at) is hers alone.
    ann.get_by_role("button", name="Cy", exact=True).click()
    expect(ann.locator("#message")).to_have_text("Sent.")
    assert service.table.current.state.peeked == "Cy"
    assert "Pick a seat" not in bob.content() and "Pick a seat" not in host.page.content()

    # A live update arrives without a reload: Bob votes on his phone, the host and Ann see it.
    bob.locator("#prompts").get_by_role("button", name="Yes").click()
    expect(host.page.locator("#view")).to_contain_text(re.compile(r"Votes cast\s*1"))
    expect(ann.locator("#table-view")).to_contain_text(re.compile(r"Votes cast\s*1"))

    # The secret hides itself again after a few seconds.
    ann.wait_for_selector("#secret", state="hidden", timeout=WAIT_MS)
    assert words[0] not in ann.content()

    # Leaving and coming back (history, back-forward cache) shows no secret until tapped.
    reveal(ann)
    ann.goto(base + "/")
    ann.go_back()
    expect(ann.locator("#name")).to_have_text("Ann")
    assert ann.locator("#secret").is_hidden() and words[0] not in ann.content()

    # A reset seat turns the old page into "join again", with no secret left in it.
    host.page.once("dialog", lambda dialog: dialog.accept())
    host.page.get_by_role("tab", name="Players").click()  # seats are managed behind their own tab
    host.page.locator(".seat-row", has_text="Bob").get_by_role("button", name="Reset").click()
    bob.wait_for_selector("#rejoin:not([hidden])", timeout=WAIT_MS)
    assert words[1] not in bob.content()
    bob.click("#rejoin a")
    bob.wait_for_url(re.compile(r"/$"), timeout=WAIT_MS)

    host.page.screenshot(path="/tmp/familiar-host.png", full_page=True)
    host_text = host.page.inner_text("body") + host.downloaded()
    assert all(word not in host_text for word in words)
    assert "api/me" not in " ".join(r.url for r in host.responses)
    # The only errors allowed: /api/me answering 403 "no seat" (the join page's probe, the reset phone).
    assert [e for e in CONSOLE_ERRORS if "status of 403" not in e] == []


def test_pages_fall_back_to_polling_when_the_stream_fails(browser, served):
    base, service = served
    host = HostWatch(browser, base)
    host.start("secrets", ["Ann", "Bob"])
    context = browser.new_context(**PHONE)
    context.route("**/api/events", lambda route: route.abort())  # a proxy or network that kills streams
    phone = context.new_page()
    phone.goto(base + "/")
    expect(phone.get_by_role("button", name="Ann", exact=True)).to_be_visible()
    expect(phone.locator("#game")).to_have_text("Secret words: 2 seats")
    service.submit(Action("table.new", {"game": "secrets", "seats": ["Ann", "Bob", "Cy"]}))
    expect(phone.locator("#game")).to_have_text("Secret words: 3 seats")  # arrived without a reload or a stream


def test_unmask_loyalties_reach_only_their_own_phones(browser, served):
    """The flagship game: the host taps the first-Leader rolls, loyalties go to phones only."""
    base, service = served
    service.table.games = {**service.table.games, **_unmask()}
    host = HostWatch(browser, base)
    host.start("unmask", ["Ann", "Bob", "Cy", "Di"])
    ann, bob = join(browser, base, "Ann", service.join_code()), join(browser, base, "Bob", service.join_code())
    for seat, role in enumerate(["hogwarts", "ministry", "diagon_alley", "hogsmeade"]):  # set-up step 1: Roles first
        service.submit(Action("role", {"choice": role}, seat))
    for name, (first, second) in zip(
        ["Ann", "Bob", "Cy", "Di"], ([1, 1], [1, 2], [2, 2], [2, 3]), strict=True
    ):  # no ties
        expect(host.page.locator("#prompts")).to_contain_text(f"{name}: roll")  # the live update has redrawn it
        dice = host.page.locator("#prompts .faces").first
        dice.get_by_role("button", name=f"die showing {first}").click()
        dice.get_by_role("button", name=f"die showing {second}").click()
        expect(host.page.locator("#message")).to_have_text("Done.")
        host.page.evaluate("document.getElementById('message').textContent = ''")
    loyalties = [service.private_view(seat)["view"]["loyalty_name"] for seat in range(4)]
    assert all(loyalties)
    reveal(ann), reveal(bob)
    for phone, loyalty in ((ann, loyalties[0]), (bob, loyalties[1])):  # the live update may still be on its way
        expect(phone.locator("#secret-view")).to_contain_text(str(loyalty), timeout=WAIT_MS)
    bob.screenshot(path="/tmp/familiar-phone-unmask.png", full_page=True)
    host_text = host.page.inner_text("body") + host.downloaded()
    for secret in ("Order of the Phoenix", "death_eater"):  # the loyalties' words and ids
        assert secret not in host_text
    host.page.screenshot(path="/tmp/familiar-host-unmask.png", full_page=True)


def _unmask() -> dict:
    from engine.games import registry

    games = registry()
    if "unmask" not in games:
        pytest.skip("engine.games.unmask is not registered yet")
    return {"unmask": games["unmask"]}


def qr_link(page) -> str:
    """What a phone's camera reads from the QR code on the host's screen."""
    import cv2
    import numpy as np

    png = page.locator("#join-qr").screenshot()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text, "the QR code on the host page could not be read"
    return text


def test_joining_through_the_qr_code_works_and_a_guessed_link_does_not(browser, tmp_path):
    app, service = make_app(tmp_path)
    server = serve(app, "127.0.0.1", 0, per_client=PER_CLIENT)
    base = f"http://127.0.0.1:{server.port}"
    app.extensions["familiar"].public_url = base  # the address the QR code carries
    try:
        host = HostWatch(browser, base)
        host.start("secrets", ["Ann", "Bob"])
        expect(host.page.locator("#title")).to_have_text("Secret words")
        expect(host.page.locator("#join-url")).to_have_text(f"{base}/j/{service.join_code()}")
        link = qr_link(host.page)  # the new game's code, redrawn by the live update
        assert link == f"{base}/j/{service.join_code()}"

        guesser = browser.new_context(**PHONE).new_page()
        guesser.goto(f"{base}/j/AAAAAAAA")
        guesser.once("dialog", lambda dialog: dialog.accept())
        guesser.get_by_role("button", name="Ann", exact=True).click()
        expect(guesser.locator("#message")).to_contain_text("scan the QR code")
        assert service.public_view()["claimed"] == [False, False]

        phone = browser.new_context(**PHONE).new_page()
        phone.goto(link)
        phone.once("dialog", lambda dialog: dialog.accept())
        phone.get_by_role("button", name="Ann", exact=True).click()
        phone.wait_for_url(re.compile(r"/me$"), timeout=WAIT_MS)
        expect(phone.locator("#name")).to_have_text("Ann")
        assert service.public_view()["claimed"] == [True, False]
    finally:
        server.stop()


def test_a_secret_revealed_while_an_update_loads_stays_shown(browser, served):
    """A player who taps "see your secret" while the page is fetching a live update sees
    it: the update redraws the card instead of hiding it (it hid it, and the tap was
    lost, when the update had started before the tap)."""
    base, service = served
    HostWatch(browser, base).start("secrets", ["Ann", "Bob"])
    word = service.table.current.state.words[0]
    ann = join(browser, base, "Ann", service.join_code())
    held: list = []
    ann.route("**/api/me", lambda route: held.append(route))  # the update's read of this seat waits here
    service.submit(Action("next", {}))
    held_until(ann, held, "the live update never asked for /api/me")
    ann.click("#reveal")
    expect(ann.locator("#secret-view")).to_contain_text(word)
    for route in held:
        route.continue_()
    ann.unroute("**/api/me")
    expect(ann.locator("#name")).to_have_text("Ann")
    ann.wait_for_timeout(500)  # the held update is drawn by now
    expect(ann.locator("#secret")).to_be_visible()
    expect(ann.locator("#secret-view")).to_contain_text(word)


def test_a_slow_read_begun_before_a_change_never_leaves_the_page_stale(browser, served):
    """Two changes close together (a loaded box): the read the first one started answers
    after the second's.  The page draws its reads one at a time and reads again, so it
    ends on the newer state instead of the older reply that landed last (the phone then
    showed no vote until the next change: seen once in a full suite under load)."""
    base, service = served
    HostWatch(browser, base).start("secrets", ["Ann", "Bob"])
    ann = join(browser, base, "Ann", service.join_code())
    expect(ann.locator("#table-view")).to_contain_text(re.compile(r"Votes cast\s*0"))
    held: list = []

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # the table as it is now, answered later

    ann.route("**/api/table", hold_the_first)
    service.submit(Action("next", {}))
    held_until(ann, held, "the live update never asked for /api/table")
    service.submit(Action("vote", {"vote": True, "seat": 1}))
    ann.wait_for_timeout(1000)  # the second update's read, if the page ran it beside the first
    route, older = held[0]
    route.fulfill(response=older)
    expect(ann.locator("#table-view")).to_contain_text(re.compile(r"Votes cast\s*1"))
    expect(ann.locator("#table-view")).to_contain_text(re.compile(r"Rounds\s*1"))
