"""A five-player Secret Voldemort with the digital deck in real headless Chromium: the
Minister's and the Headmaster's phones show and play their policies, and no other page
(the other phones, the host's) ever receives a hand, in anything it downloads."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from device.store import Store
from device.table_service import TableService
from engine.actions import Action, IllegalAction
from engine.games.voldemort import Voldemort
from support.browser import CONSOLE_ERRORS, MARKS, PER_CLIENT, HostWatch, join, reveal
from support.voldemort import page_action, random_prompt
from web import create_app
from web.serve import serve

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
ROLE_WORD = {"order": "Order of the Phoenix", "death_eater": "Death Eater", "voldemort": "Lord Voldemort"}
pytestmark = MARKS


@pytest.fixture
def served(tmp_path):
    service = TableService(Store(tmp_path / "table.db"), games={"voldemort": Voldemort()})
    app = create_app(service, None, public_url="http://familiar.test:8080", simulated=False)
    server = serve(app, "127.0.0.1", 0, per_client=PER_CLIENT)
    yield f"http://127.0.0.1:{server.port}", service
    server.stop()


class Phone:
    """One player's phone, remembering the body of every view it downloaded."""

    def __init__(self, chromium: Any, base: str, name: str, code: str) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.page = join(chromium, base, name, code, watch=lambda page: page.on("response", self._keep))
        self.context = self.page.context

    def _keep(self, response) -> None:
        if response.url.endswith(("/api/me", "/api/table")):
            try:
                self.bodies.append(json.loads(response.body()))
            except Exception:  # a response still streaming when the page moved on
                pass


def hands_in(bodies: list[dict[str, Any]]) -> list[object]:
    """Every policy hand or hand prompt found in downloaded views."""
    found: list[object] = []
    for body in bodies:
        view = body.get("view", {})
        found += [view[k] for k in ("policies", "hands", "draw", "discard", "seen") if view.get(k)]
        found += [e for e in body.get("expects", []) if e["action"] in ("discard", "enact")]
    return found


def host_bodies(host: HostWatch) -> list[dict[str, Any]]:
    out = []
    for response in host.responses:
        if response.url.endswith("/api/table"):
            try:
                out.append(json.loads(response.body()))
            except Exception:
                pass
    return out


def test_only_the_government_phones_receive_the_policies(browser, served):
    base, service = served
    host = HostWatch(browser, base)
    host.start("voldemort", NAMES)
    expect(host.page.locator("#title")).to_have_text("Secret Voldemort")
    phones = [Phone(browser, base, name, service.join_code()) for name in NAMES]
    state = service.table.current.state
    minister = state.minister
    headmaster = state.eligible()[0]

    role = reveal(phones[0].page)
    assert re.search(r"Secret Role\s+(Order of the Phoenix|Death Eater|Lord Voldemort)", role)

    phones[minister].page.locator("#prompts").get_by_role("button", name=NAMES[headmaster], exact=True).click()
    expect(phones[minister].page.locator("#message")).to_have_text("Sent.")
    for phone in phones:
        phone.page.locator("#prompts").get_by_role("button", name="Yes", exact=True).click()
        expect(phone.page.locator("#message")).to_have_text("Sent.")
    expect(host.page.locator("#view")).to_contain_text("discard a policy")

    hand = [{"order": "Order", "dark_arts": "Dark Arts"}[k] for k in service.table.current.state.hands[minister]]
    expect(phones[minister].page.locator("#table-view")).to_contain_text("discard a policy")  # its view is current
    seen = reveal(phones[minister].page)
    assert ", ".join(hand) in seen
    phones[minister].page.locator("#secret-prompts").get_by_role("button", name=hand[0], exact=True).click()
    expect(host.page.locator("#view")).to_contain_text("to enact a policy")  # "Sent." may still be the vote's

    passed = [{"order": "Order", "dark_arts": "Dark Arts"}[k] for k in service.table.current.state.hands[headmaster]]
    expect(phones[headmaster].page.locator("#table-view")).to_contain_text("to enact a policy")
    assert ", ".join(passed) in reveal(phones[headmaster].page)
    phones[headmaster].page.locator("#secret-prompts").get_by_role("button", name=passed[0], exact=True).click()
    expect(host.page.locator("#view")).to_contain_text("nominating a Headmaster")
    after = service.table.current.state
    assert after.order + after.dark_arts == 1 and after.step == "nominate"
    expect(host.page.locator("#view")).to_contain_text(re.compile(r"Order \d/5, Dark Arts \d/6"))

    for seat, phone in enumerate(phones):
        if seat not in (minister, headmaster):
            assert hands_in(phone.bodies) == [], f"{NAMES[seat]}'s phone received a hand"
    assert hands_in(phones[minister].bodies) and hands_in(phones[headmaster].bodies)  # the check can see a hand
    assert host_bodies(host) and hands_in(host_bodies(host)) == []
    assert "discard" not in {e["action"] for body in host_bodies(host) for e in body["expects"]}
    # Only the join page's probe for a seat it does not have yet (as in test_browser).
    assert [e for e in CONSOLE_ERRORS if "status of 403" not in e] == []


def test_the_secret_role_is_a_card_of_one_size_and_the_end_reveals_every_card(browser, served):
    """The role as a card (its word large, in its party's colour), the same size on every
    phone whatever the role; at the end every page shows everyone's card."""
    base, service = served
    host = HostWatch(browser, base)
    host.start("voldemort", NAMES)
    phones = [Phone(browser, base, name, service.join_code()) for name in NAMES]
    roles = service.table.current.state.roles
    sizes = set()
    measure = "e => [e.offsetWidth, e.offsetHeight, e.querySelector('.card-word').textContent]"
    for phone, role in zip(phones, roles, strict=True):
        reveal(phone.page)  # measured at once, in one call: the card hides itself after a few seconds
        width, height, word = phone.page.eval_on_selector("#secret-view .card", measure)
        assert word == ROLE_WORD[role]
        sizes.add((width, height))
    assert len(sizes) == 1, sizes  # nothing about the look gives a role away

    r = random.Random(3)
    while not service.table.current.state.winner:  # the table plays on to the end
        try:
            service.submit(page_action(random_prompt(service.table, r), r))
        except IllegalAction:
            continue
    end = host.page.locator("#view .reveal-end")
    expect(end.locator("figure")).to_have_count(len(NAMES))
    for name, role in zip(NAMES, roles, strict=True):
        expect(end.locator("figure", has_text=name).locator(".card-word")).to_have_text(ROLE_WORD[role])
    expect(phones[0].page.locator("#now .reveal-end figure")).to_have_count(len(NAMES))  # the end, at the top


def at_avada_kedavra(service: TableService) -> None:
    """A game played from its own prompts until a Minister must cast Avada Kedavra."""
    for seed in range(40):
        service.submit(Action("table.new", {"game": "voldemort", "seats": NAMES}))
        r = random.Random(seed)
        while service.table.current.state.step not in ("avada_kedavra", "over"):
            try:
                service.submit(page_action(random_prompt(service.table, r), r))
            except IllegalAction:
                continue
        if service.table.current.state.step == "avada_kedavra":
            return
    raise AssertionError("no game reached Avada Kedavra")


def test_avada_kedavra_asks_the_minister_first_and_a_no_sends_nothing(browser, served):
    """One tap on the Minister's phone must not kill (perhaps Voldemort, ending the game):
    the phone asks first; answered No, nothing is sent and the spell is still asked."""
    base, service = served
    HostWatch(browser, base).start("voldemort", NAMES)
    at_avada_kedavra(service)
    state = service.table.current.state
    minister = state.minister
    phone = join(browser, base, NAMES[minister], service.join_code())
    prompt = phone.locator("#prompts .prompt", has_text="cast Avada Kedavra")
    expect(prompt).to_be_visible()
    answers, asked = [False, True], []

    def on_dialog(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept() if answers.pop(0) else dialog.dismiss()

    phone.on("dialog", on_dialog)
    logged = len(service.store.entries())
    victim = NAMES[state.others_alive()[0]]
    prompt.get_by_role("button", name=victim, exact=True).click()
    expect(phone.locator("#prompts")).to_contain_text("cast Avada Kedavra")
    assert asked == ["This answer cannot be taken back at the table. Send it?"]
    assert len(service.store.entries()) == logged and service.table.current.state.step == "avada_kedavra"
    prompt.get_by_role("button", name=victim, exact=True).click()
    expect(phone.locator("#message")).to_have_text("Sent.")
    assert len(asked) == 2 and service.store.entries()[-1].action.kind == "avada_kedavra"


def test_a_german_host_page_starts_a_game_with_the_options_it_shows_in_german(browser, tmp_path):
    """The new-game form shows each option in the table's language and sends the game's own
    value, so a German box can choose the physical deck, Secret Hitler's term limits and a
    spell on every Dark Arts policy (the translated words were refused before)."""
    service = TableService(Store(tmp_path / "table.db"), games={"voldemort": Voldemort()}, language="de")
    app = create_app(service, None, public_url="http://familiar.test:8080", simulated=False)
    server = serve(app, "127.0.0.1", 0, per_client=PER_CLIENT)
    try:
        page = HostWatch(browser, f"http://127.0.0.1:{server.port}").page
        page.select_option("#game-select", "voldemort")
        chosen = {
            "deck": "die eigenen Karten am Tisch",
            "term_limits": "Regel des Originalspiels (5 oder weniger Lebende)",
            "spells": "ein Zauber bei jedem Gesetz der Dunklen Künste",
        }
        for option, label in chosen.items():
            page.select_option(f"#game-options select[data-option={option}]", label=label)
        expect(page.locator("#game-options")).to_contain_text("Amtszeitbegrenzung")
        page.fill("#seat-names", "\n".join(NAMES))
        page.click("#new-game button[type=submit]")
        expect(page.locator("#message")).to_have_text("Erledigt.")
        state = service.table.current.state
        assert (state.physical, state.few_alive_limits, state.every_spell) == (True, True, True)
    finally:
        server.stop()
