"""A five-player Kampf gegen die dunklen Mächte with digital cards in real headless
Chromium: each phone is dealt its card, answers its night prompt when its call comes,
and sees what it did and saw; no other phone and not the host page ever receives
another seat's prompt or night result, in anything it downloads.

The box's timer thread is not running here: the test moves the service's clock to each
call's deadline and sends ``timer_done`` as the thread would."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from device.store import Store
from device.table_service import TableService
from engine.actions import Action
from engine.effects import TIMER_DONE
from engine.games.kampf import Kampf
from engine.games.kampf_roles import DEATH_EATER, HERMIONE, NEVILLE, SIRIUS, STUDENT
from support.browser import CONSOLE_ERRORS, MARKS, PER_CLIENT, WAIT_MS, HostWatch, join
from support.waiting import wait_for
from web import create_app
from web.serve import serve

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]
DEAL = [DEATH_EATER, HERMIONE, SIRIUS, NEVILLE, STUDENT, DEATH_EATER, STUDENT, STUDENT]
"""Das erste Schuljahr for five, as the test deals it: the lone Death Eater, Hermione,
Sirius and Neville each have a night action; Eve (a student) sleeps through."""
NIGHT = {
    0: ["Ann looked at the left card in the middle: Death Eater."],
    1: ["Bob looked at Ann's card: Death Eater."],
    2: ["Cat swapped cards with Eve.", "Cat looked at the new card: Hogwarts student."],
    3: ["Dan swapped the cards of Ann and Bob without looking."],
    4: [],
}
pytestmark = MARKS
T0 = 1_800_000_000.0


@pytest.fixture
def served(tmp_path):
    service = TableService(Store(tmp_path / "table.db"), games={"kampf": Kampf()})
    now = [T0]
    service.clock = lambda: now[0]
    app = create_app(service, None, public_url="http://familiar.test:8080", simulated=False)
    server = serve(app, "127.0.0.1", 0, per_client=PER_CLIENT)
    yield f"http://127.0.0.1:{server.port}", service, now
    server.stop()


class Phone:
    """One player's phone, remembering the body of every view it downloaded."""

    def __init__(self, chromium: Any, base: str, name: str, code: str, service: TableService) -> None:
        self.seat, self.service = NAMES.index(name), service
        self.bodies: list[str] = []
        self.page = join(chromium, base, name, code, watch=lambda page: page.on("response", self._keep))
        self.context = self.page.context

    def _keep(self, response) -> None:
        if response.url.endswith(("/api/me", "/api/table")):
            try:
                self.bodies.append(response.body().decode("utf-8"))
            except Exception:  # a response still streaming when the page moved on
                pass

    def tap(self, *options: str) -> None:
        """Show the secret view and answer its night prompt (two picks: toggle, then send)."""
        page = self.page
        noted = len(self.service.table.current.state.notes[self.seat])
        prompts = page.locator("#secret-prompts")
        for _attempt in range(80):  # until the live update with this prompt has arrived
            if page.locator("#reveal").is_visible():
                page.click("#reveal")
            if prompts.get_by_role("button", name=options[0], exact=True).count():
                break
            page.wait_for_timeout(250)
        for option in options:
            prompts.get_by_role("button", name=option, exact=True).click()
        if len(options) > 1:
            prompts.get_by_role("button", name=f"Choose {len(options)}").click()
        expect(page.locator("#message")).to_have_text("Sent.")
        # "Sent." may still be the last answer's: wait for the box to have this one
        wait_for(lambda: len(self.service.table.current.state.notes[self.seat]) > noted)

    def secret_text(self) -> str:
        self.page.click("#reveal")
        self.page.wait_for_selector("#secret:not([hidden])", timeout=WAIT_MS)
        return self.page.inner_text("#secret-view")


def escaped(line: str) -> str:
    """A line as it appears inside a JSON body."""
    return json.dumps(line)[1:-1]


def next_call(service: TableService, now: list[float]) -> None:
    """The call's time runs out, as the box's timer thread would find it."""
    now[0] = service.table.current.timers["night"].deadline
    service.submit(Action(TIMER_DONE, {"name": "night"}))


def test_each_phone_sees_only_its_own_night_action_and_result(browser, served):
    base, service, now = served
    host = HostWatch(browser, base)
    host.start("kampf", NAMES)
    expect(host.page.locator("#title")).to_have_text("Kampf gegen die dunklen Mächte")
    state = service.table.current.state
    state.cards, state.dealt = list(DEAL), DEAL[:5]  # rigged deal: the log is not replayed here
    phones = [Phone(browser, base, name, service.join_code(), service) for name in NAMES]
    measure = "e => [e.offsetWidth, e.offsetHeight, e.className]"  # at once: the card hides itself
    seen = [(phones[s].secret_text(), phones[s].page.eval_on_selector("#secret-view .card", measure)) for s in (0, 2)]
    assert "Death Eater" in seen[0][0] and "Sirius Black" in seen[1][0]
    (_, death_eater), (_, sirius) = seen  # one size for both parties' cards, only the colour differs
    assert death_eater[:2] == sirius[:2] and (death_eater[2], sirius[2]) == ("card card-green", "card card-red")

    service.submit(Action("start", {}))
    phones[0].tap("the left card in the middle")
    next_call(service, now)  # Hermione
    phones[1].tap("Ann")
    next_call(service, now)  # Sirius: swap, then look
    phones[2].tap("Eve")
    phones[2].tap("look at my new card")
    next_call(service, now)  # Neville
    phones[3].tap("Ann", "Bob")
    next_call(service, now)  # dawn
    assert service.table.current.state.step == "day"
    expect(host.page.locator("#view")).to_contain_text("Day: the discussion")

    every = {line for lines in NIGHT.values() for line in lines}
    for seat, phone in enumerate(phones):
        expect(phone.page.locator("#table-view")).to_contain_text("Day: the discussion")  # its views are current
        shown = phone.secret_text()
        for line in NIGHT[seat]:
            assert line in shown
        assert "face down" in shown  # the role view is locked by day
        others = every - set(NIGHT[seat])
        downloaded = "\n".join(phone.bodies)
        assert [line for line in others if escaped(line) in downloaded] == []
        assert all(escaped(line) in downloaded for line in NIGHT[seat])  # the check sees a result
        prompts = [e for body in phone.bodies for e in json.loads(body).get("expects", [])]
        assert {e["seat"] for e in prompts if e["secret"]} <= {seat}
        assert bool([e for e in prompts if e["secret"]]) == bool(NIGHT[seat])
    host_text = host.downloaded()
    assert "Day: the discussion" in host_text  # the check reads the host's views
    assert [line for line in every if escaped(line) in host_text] == []
    assert re.search(r'"secret":\s*true', host_text) is None
    assert [e for e in CONSOLE_ERRORS if "status of 403" not in e] == []


ENGLISH_ONLY = ["Death Eater", "Hogwarts student", "Hermione Granger", "Hogwarts inhabitants"]


def test_a_german_physical_game_plays_to_the_end_with_only_german_typed_and_shown(browser, served):
    """Issue 44 item 3: the host types the cards turned over by their German names."""
    base, service, now = served
    host = HostWatch(browser, base)
    page = host.page
    page.select_option("#game-language", "de")
    page.select_option("#game-select", "kampf")
    page.select_option("select[data-option=cards]", json.dumps("physical"))
    page.fill("#seat-names", "\n".join(NAMES[:3]))
    page.click("#new-game button[type=submit]")
    expect(page.locator("h1")).to_have_text("Spielleitung")
    ann = join(browser, base, "Ann", service.join_code())
    prompts = page.locator("#prompts")
    prompts.locator(".prompt", has_text="Die Nacht beginnen").get_by_role("button", name="Weiter").click()
    assert wait_for(lambda: service.table.current.state.step == "night")  # the page's answer is on its way
    while service.table.current.state.step == "night":
        next_call(service, now)
    now[0] = service.table.current.timers["discussion"].deadline
    service.submit(Action(TIMER_DONE, {"name": "discussion"}))
    for voter, target in (("Ann", "Bob"), ("Bob", "Ann"), ("Cat", "Ann")):
        asked = prompts.locator(".prompt", has_text=f"Warte auf {voter};")
        asked.get_by_role("button", name=target, exact=True).click()
        expect(asked).to_have_count(0)
    cards = prompts.locator(".prompt", has_text="Gib die Karte jedes Spielers ein")
    cards.locator("input").fill("Todesser, Hermine, Hogwarts-Schüler")
    cards.get_by_role("button", name="Karten senden").click()
    expect(page.locator("#view")).to_contain_text("Gefangen genommen: Ann.")
    state = service.table.current.state
    assert state.step == "over" and state.final == [DEATH_EATER, HERMIONE, STUDENT]
    page.click("#view .view-details summary")
    shown = page.inner_text("body")
    assert "Ann: Todesser" in shown and "Bob: Hermine Granger" in shown and "Cat: Hogwarts-Schüler" in shown
    expect(ann.locator("#table-view")).to_contain_text("Gefangen genommen: Ann.")
    ann.click("#reveal")
    phone = ann.inner_text("body")
    assert "Todesser" in phone
    assert [name for name in ENGLISH_ONLY if name in shown or name in phone] == []
