"""Harry Potter Clue and Monopoly Deal from the person's side in Debian's chromium: a
phone's secret (the character and the hand) is a card of one size whoever holds it, and
at the end a phone, the host page and the board page each show the reveal: every seat's
card, the envelope (Clue) or the sets (Deal), the outcome and the story, turn by turn.

The games are driven to their end through the service, as the pages would send the
actions; each test looks only at what the pages show."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from device.store import Store
from device.table_service import TableService
from engine.actions import Action
from engine.games.clue import Clue
from engine.games.clue_rules import BURROW
from engine.games.clue_turn import ELSEWHERE
from engine.games.deal import Deal
from support.browser import CONSOLE_ERRORS, MARKS, PER_CLIENT, HostWatch, join, reveal, watch_console
from support.clue import WHEELS
from support.waiting import wait_for
from web import create_app
from web.serve import serve

pytestmark = MARKS
NAMES = ["Ann", "Bob", "Cat"]
MEASURE = (
    "e => [e.offsetWidth, e.offsetHeight, e.querySelector('.card-word').textContent,"
    " [...e.querySelectorAll('.card-history li')].map(li => li.textContent), e.scrollHeight <= e.clientHeight]"
)
"""A secret card's size, its word, its lines and whether all of it fits (a long list
scrolls inside it), read in one call: the card hides itself after a few seconds."""
UNCLIPPED = "cards => cards.every(e => e.scrollHeight <= e.clientHeight)"
"""Every card shows all it says: nothing cut off at its edge."""


@pytest.fixture
def served(tmp_path):
    service = TableService(Store(tmp_path / "table.db"), games={"clue": Clue(), "deal": Deal()})
    app = create_app(service, None, public_url="http://familiar.test:8080", simulated=False)
    server = serve(app, "127.0.0.1", 0, per_client=PER_CLIENT)
    yield f"http://127.0.0.1:{server.port}", service
    server.stop()


@pytest.fixture
def pages(served):
    """The pages a test opens, closed before its box stops (so no page polls a dead box
    and the next test's console stays its own)."""
    opened: list[Any] = []
    yield opened
    for page in opened:
        page.context.close()


def board_page(browser: Any, base: str) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watch_console(page)
    page.goto(base + "/board")
    return page


def secret_cards(phones: list[Any], words: list[str], now: str) -> list[tuple[int, int, str, list[str], bool]]:
    """Each phone's card with its seat's ``words``, revealed once the phone says ``now``
    (the live update has arrived: the card hides itself before a late one would)."""
    out = []
    for phone, word in zip(phones, words, strict=True):
        expect(phone.locator("#now")).to_contain_text(now)
        reveal(phone)
        expect(phone.locator("#secret-view .card-word")).to_have_text(word)  # one card: no row drawn as one
        out.append(tuple(phone.eval_on_selector("#secret-view .card", MEASURE)))
    return out


def ends(host: Any, phone: Any, board: Any) -> list[Any]:
    """The reveal on each page: the host's table view, the phone's top, the board's."""
    return [
        host.page.locator("#view .reveal-end"),
        phone.locator("#now .reveal-end"),
        board.locator("#end .reveal-end"),
    ]


def shows_the_end(end: Any, outcome: str, cards: dict[str, tuple[str, str]], story: list[str]) -> None:
    """One page's reveal: the outcome, each named card's word and detail, the story in order."""
    expect(end.locator(".outcome")).to_have_text(outcome)
    expect(end.locator("figure")).to_have_count(len(cards))
    for name, (word, detail) in cards.items():
        figure = end.locator("figure", has=end.page.locator("figcaption", has_text=name))
        expect(figure.locator(".card-word")).to_have_text(word)
        expect(figure.locator(".card-detail")).to_have_text(detail)
    expect(end.locator(".story li")).to_have_text(story)
    assert end.locator(".card").evaluate_all(UNCLIPPED)


# --- Harry Potter Clue ---------------------------------------------------------------------


def test_clue_shows_each_character_as_a_card_and_the_envelope_and_story_on_every_page(browser, served, pages):
    base, service = served
    host = HostWatch(browser, base)
    board = board_page(browser, base)
    service.submit(Action("table.new", {"game": "clue", "seats": NAMES, "options": {"wheels": WHEELS}}))
    phones = [join(browser, base, name, service.join_code()) for name in NAMES]
    pages += [host.page, board, *phones]
    for seat in range(len(NAMES)):
        free = next(e for e in service.table.expects() if e.action == "identity" and e.seat == seat)
        service.submit(Action("identity", {"choice": free.options[seat]}, seat))
    service.submit(Action("first", {"choice": 0}))
    state = service.table.current.state

    # The secret card: the character large, the Mystery cards under it, one size for all.
    identities = [state.identities[s] for s in range(len(NAMES))]
    cards = secret_cards(phones, identities, "Ann's turn: the player is rolling the dice")
    assert len({(width, height) for width, height, *_rest in cards}) == 1
    for seat, (_w, _h, _word, lines, fits) in enumerate(cards):
        assert lines == state.hands[seat] and fits

    # Ann suggests in a location only Bob or Cat holds: that holder shows it on their phone.
    suspect, item, location = state.envelope
    holder = next(s for s in (1, 2) if any(c in state.locations for c in state.hands[s]))
    shown = next(c for c in state.hands[holder] if c in state.locations)
    service.submit(Action("roll", {"dice": [6, "star"]}, 0))
    service.submit(Action("move", {"choice": shown}, 0))
    service.submit(Action("suspect", {"choice": suspect}, 0))
    service.submit(Action("item", {"choice": item}, 0))
    reveal(phones[holder])
    phones[holder].locator("#secret-prompts").get_by_role("button", name=shown, exact=True).click()
    assert wait_for(lambda: service.table.current.state.current == 1)  # the tap reached the box
    service.submit(Action("roll", {"dice": [2, "star"]}, 1))
    service.submit(Action("move", {"choice": ELSEWHERE}, 1))
    for seat, place in ((2, shown), (0, location)):  # Cat accuses wrongly, then Ann rightly
        service.submit(Action("roll", {"dice": [6, "star"]}, seat))
        service.submit(Action("move", {"choice": BURROW}, seat))
        for kind, choice in (("suspect", suspect), ("item", item), ("place", place)):
            service.submit(Action(kind, {"choice": choice}, seat))

    named = f"{suspect} with the {item} in"
    story = [
        f"Turn 1, Ann: moves to {shown}; suggests {named} {shown}: {NAMES[holder]} shows a card",
        "Turn 2, Bob: moves along the board",
        f"Turn 3, Cat: moves to The Burrow; accuses {named} {shown}: wrong",
        f"Turn 4, Ann: moves to The Burrow; accuses {named} {location}: right",
    ]
    seats = {
        "Ann": (state.identities[0], "solved the mystery"),
        "Bob": (state.identities[1], "still searching"),
        "Cat": (state.identities[2], "out of the game"),
        "The envelope": (suspect, f"with the {item} in {location}"),
    }
    for end in ends(host, phones[0], board):
        shows_the_end(end, "Game over: Ann solved the mystery", seats, story)
        expect(end.locator(".accused")).to_have_text(f"Accused: {suspect}")
    assert [e for e in CONSOLE_ERRORS if "status of 403" not in e] == []  # 403: the join page's probe


# --- Monopoly Deal Wizarding World ---------------------------------------------------------


def deal_started(service: Any, deck: str) -> None:
    service.submit(Action("table.new", {"game": "deal", "seats": NAMES[:2], "options": {"deck": deck}}))
    service.submit(Action("youngest", {"choice": 0}))
    for seat in range(2):
        service.submit(Action("character", {"choice": f"Character {seat + 1}"}, seat))


def test_deal_shows_the_character_and_the_hand_as_one_card_shape(browser, served, pages):
    """Ann has drawn two more cards than Bob: the same card, only the lines differ; the
    hand's rows under it name each card, never drawn as a blank card."""
    base, service = served
    deal_started(service, "digital")
    phones = [join(browser, base, name, service.join_code()) for name in NAMES[:2]]
    pages += phones
    hands = service.table.current.state.hands
    cards = secret_cards(phones, ["Character 1", "Character 2"], "Ann's turn: 3 plays left.")
    assert len(hands[0]) == 7 and len(hands[1]) == 5
    assert len({(width, height) for width, height, *_rest in cards}) == 1
    for seat, (_w, _h, _word, lines, fits) in enumerate(cards):
        assert lines == sorted(hands[seat]) and fits
        expect(phones[seat].locator("#secret-view .card")).to_have_count(1)
        expect(phones[seat].locator("#secret-view")).to_contain_text(sorted(hands[seat])[-1])
    assert [e for e in CONSOLE_ERRORS if "status of 403" not in e] == []


def test_deal_shows_every_players_sets_the_outcome_and_each_turn_at_the_end(browser, served, pages):
    """A short physical-deck game (the table holds the cards, the box is told each one
    laid): Ann collects three sets of different colours in five turns."""
    base, service = served
    host = HostWatch(browser, base)
    board = board_page(browser, base)
    deal_started(service, "physical")
    phones = [join(browser, base, name, service.join_code()) for name in NAMES[:2]]
    pages += [host.page, board, *phones]
    turns = [
        (0, ["5 Points", "Brown Item", "Brown Item"]),
        (1, ["3 Points", "2 Points"]),
        (0, ["Collect 5 Points", "Dark Blue Item", "Dark Blue Item"]),
        (1, ["Red Item"]),
        (0, ["Grey Item", "Grey Item"]),
    ]
    for seat, cards in turns:
        for name in cards:
            service.submit(Action("play", {"choice": name}, seat))
            if name == "Collect 5 Points":
                cast_on_bob(service)
        if seat == 1:
            service.submit(Action("end", {}, 1))
        elif service.table.current.state.step != "over":
            service.submit(Action("end", {}, 0))

    story = [
        "Turn 1, Ann: banks 5 Points; lays Brown Item as Brown; lays Brown Item as Brown",
        "Turn 2, Bob: banks 3 Points; banks 2 Points",
        "Turn 3, Ann: casts Collect 5 Points, on Bob; Bob pays Ann 5 points: 2 Points and 3 Points;"
        " lays Dark Blue Item as Dark Blue; lays Dark Blue Item as Dark Blue",
        "Turn 4, Bob: lays Red Item as Red",
        "Turn 5, Ann: lays Grey Item as Grey; lays Grey Item as Grey; Ann wins with Brown, Dark Blue and Grey",
    ]
    seats = {
        "Ann": ("3 complete sets", "Brown, Dark Blue and Grey; Bank: 10 points"),
        "Bob": ("0 complete sets", "Bank: 0 points"),
    }
    for end in ends(host, phones[1], board):
        shows_the_end(end, "Game over: Ann won with three complete sets.", seats, story)
    assert [e for e in CONSOLE_ERRORS if "status of 403" not in e] == []


def cast_on_bob(service: Any) -> None:
    """The Spell just laid is cast on Bob, who casts no Protego and pays as the box proposes."""
    service.submit(Action("how", {"choice": "cast it"}, 0))
    service.submit(Action("target", {"choice": "Bob"}, 0))
    service.submit(Action("let", {}, 1))
    offer = next(e for e in service.table.expects() if e.action == "pay").options[0]
    service.submit(Action("pay", {"choice": offer}, 1))
