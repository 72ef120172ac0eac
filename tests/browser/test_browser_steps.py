"""Each step asks one thing, in the rulebook's order, and the next appears once it is
answered: the Leader's phone and the host page during an Unmask pool (look for Curses,
resolve one, look again, swap or not, reveal), in Debian's chromium."""

from __future__ import annotations

from playwright.sync_api import expect

from engine.actions import Action
from support.browser import MARKS, HostWatch, join
from support.table import NAMES
from support.unmask import Play

pytestmark = MARKS


def asked(page) -> list[str]:
    """The prompts a page shows that the table waits on (an optional offer aside)."""
    texts = page.locator("#prompts .prompt .prompt-text").all_inner_texts()
    return [t for t in texts if "(optional" not in t]


def test_the_pool_is_asked_one_question_at_a_time_on_the_phone_and_the_host_page(box, browser):
    daemon, base = box
    play = Play(5)
    play.table, play.submit = daemon.service.table, daemon.service.submit
    daemon.service.submit(Action("table.new", {"game": "unmask", "seats": NAMES[:5]}))
    play.first_leader(0)
    play.act("encounter", group=3, check="cards_total", target=2)
    play.gather()
    leader = NAMES[0]
    host = HostWatch(browser, base).page
    phone = join(browser, base, leader, daemon.service.join_code())

    looking = f"{leader}: shuffle the cards and look at them secretly. Is there a Curse among them?"
    for page in (phone, host):
        expect(page.locator("#prompts")).to_contain_text(looking)
        assert asked(page) == [looking]  # not the swap, not the reveal
    phone.locator("#prompts").get_by_role("button", name="a Curse", exact=True).click()

    resolving = "Resolve the Curse: does it stop the group, or is it resolved and the group carries on?"
    for page in (phone, host):
        expect(page.locator("#prompts")).to_contain_text(resolving)
        assert asked(page) == [resolving]
    phone.locator("#prompts").get_by_role("button", name="resolved: carry on", exact=True).click()

    again = f"{leader}: look at the cards again. Is there another Curse among them?"
    expect(phone.locator("#prompts")).to_contain_text(again)
    assert asked(phone) == [again]
    phone.locator("#prompts").get_by_role("button", name="no Curse", exact=True).click()

    swapping = f"{leader}: swap one card of the pool for the top card of the deck?"
    expect(host.locator("#prompts")).to_contain_text(swapping)
    assert asked(host) == [swapping]
    host.locator("#prompts").get_by_role("button", name="no swap", exact=True).click()  # the host, for Ann

    revealing = "Reveal all 2 cards: each card's dice value"
    for page in (phone, host):
        expect(page.locator("#prompts")).to_contain_text(revealing)
        assert asked(page) == [revealing]
    assert [e.action.kind for e in daemon.store.entries()][-4:] == ["look", "curse", "look", "swap"]
