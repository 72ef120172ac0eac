"""What each screen shows, from the person's side in Debian's chromium: the host page
with the game first and teaching and seats behind keyboard tabs, a phone's line of what
is happening now, and Unmask's secret card and end screen.

Unmask is driven through the service with the scripted actions of tests/support/unmask.py
(the rules' own tests play them), so each test looks only at what the pages show."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from engine.actions import Action
from engine.games import registry
from engine.games.unmask_rules import VERDICT_SAY
from support.browser import CONSOLE_ERRORS, MARKS, PHONE, HostWatch, join, reveal
from support.unmask import LOCATIONS, Play, at_department

pytestmark = MARKS
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def replayed(service: Any, play: Play) -> None:
    """The scripted game's actions, submitted to the box as the pages would (the box
    deals its own cards: the actions do not depend on them)."""
    for entry in play.entries:
        service.submit(entry.action)


def with_unmask(served: tuple[str, Any]) -> tuple[str, Any]:
    """The test app's box, with Unmask among its games."""
    base, service = served
    service.table.games = {**service.table.games, "unmask": registry()["unmask"]}
    return base, service


def box_of(page: Any, selector: str) -> dict[str, float]:
    return page.locator(selector).bounding_box()


def test_the_host_page_puts_the_game_first_and_teaching_and_seats_behind_keyboard_tabs(browser, served):
    base, service = with_unmask(served)
    host = HostWatch(browser, base)
    page = host.page
    host.start("unmask", NAMES)
    expect(page.locator("#prompts")).to_contain_text("Ann")

    # The game first: the status, then the prompt, then the notices.
    tops = [box_of(page, s)["y"] for s in ("#table-panel", "#turn-panel", "#undo-panel", "#notices-panel")]
    assert tops == sorted(tops)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]  # no sideways scroll

    # The tabs: one tab stop, the arrow keys, Home and End; each shows its own panel.
    game, players, teach = (page.get_by_role("tab", name=n) for n in ("Game", "Players", "Teach"))
    expect(page.get_by_role("tablist")).to_have_count(1)
    expect(game).to_have_attribute("aria-selected", "true")
    expect(players).to_have_attribute("tabindex", "-1")
    game.focus()
    page.keyboard.press("ArrowRight")
    expect(players).to_be_focused()
    expect(players).to_have_attribute("aria-selected", "true")
    expect(page.locator("#panel-players")).to_be_visible()
    expect(page.locator("#panel-game")).to_be_hidden()
    expect(page.locator("#seats .seat-row")).to_have_count(len(NAMES))  # seat management lives here
    page.keyboard.press("End")
    expect(teach).to_be_focused()
    page.fill("#card-names", "Hedwig, Nimbus")
    service.note("a live update")  # every page redraws
    teach.focus()
    page.keyboard.press("Home")
    expect(game).to_have_attribute("aria-selected", "true")
    expect(page.locator("#notices")).to_contain_text("a live update")
    teach.click()
    expect(page.locator("#card-names")).to_have_value("Hedwig, Nimbus")  # what was typed is still there
    game.click()

    # Undo says what it takes back: here, the answer to a first-Leader roll (asked once
    # every seat has its Role).
    for seat in range(len(NAMES)):
        service.submit(Action("role", {"choice": LOCATIONS[seat % len(LOCATIONS)]}, seat))
    prompt = page.locator("#prompts .prompt", has=page.locator(".faces")).first
    asked = prompt.locator(".prompt-text").inner_text()
    for face in (2, 3):
        prompt.get_by_role("button", name=f"die showing {face}").click()
    expect(page.locator("#message")).to_have_text("Done.")
    expect(page.locator("#undo-what")).to_have_text(f"Undo takes back the answer to: {asked}")
    assert CONSOLE_ERRORS == []
    host.context.close()


def test_on_a_wide_screen_the_camera_view_sits_beside_the_prompt_that_wants_a_roll(browser, served):
    base, service = with_unmask(served)
    play = Play(5, 3, {})
    play.roles()  # the first-Leader rolls come next: a prompt that wants dice
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base + "/host")
    replayed(service, play)
    expect(page.locator("#prompts .faces").first).to_be_visible()
    camera, prompts = box_of(page, "#turn-camera"), box_of(page, "#prompts")
    assert camera["x"] > prompts["x"] + prompts["width"] - 1 and abs(camera["y"] - prompts["y"]) < 40
    expect(page.locator("#turn-camera summary")).to_have_text("Camera view")
    context.close()


def test_a_phone_says_what_is_happening_now_and_who_is_asked_what(browser, served):
    base, service = with_unmask(served)
    play = Play(5, 3, {})
    play.first_leader(0)
    replayed(service, play)
    bob = join(browser, base, "Bob", service.join_code())
    service.submit(Action("encounter", {"name": "Dementor", "group": 2, "check": "cards_total", "target": 5}))
    service.submit(Action("group", {"choices": [0, 1]}))
    now = bob.locator("#now")
    expect(now).to_contain_text("Turn 1, Leader Ann: Dementor, the group Ann and Bob")
    asked = [e for e in service.public_view()["expects"] if e["seat"] != 1]
    assert asked, "the table waits for someone"
    for expect_ in asked:
        expect(now).to_contain_text(str(expect_["prompt"]))
    assert box_of(bob, "#now")["y"] < box_of(bob, "#table")["y"]  # at the top, above the table's details
    assert "Unmask" not in now.inner_text()  # the page never names the game
    assert [e for e in CONSOLE_ERRORS if "status of 403" not in e] == []  # 403: the join page's "no seat yet" probe
    bob.context.close()


def test_unmask_shows_the_loyalty_as_one_card_shape_and_the_end_on_every_page(browser, served):
    base, service = with_unmask(served)
    host = HostWatch(browser, base)
    play = at_department(5)
    replayed(service, play)
    phones = [join(browser, base, name, service.join_code()) for name in NAMES]

    # The secret card: the Loyalty large, in its colour, with an icon and the Phases under it.
    measure = (
        "e => [e.offsetWidth, e.offsetHeight, e.className, e.querySelector('.card-word').textContent,"
        " e.querySelector('.card-icon').textContent, e.querySelectorAll('.card-history li').length]"
    )
    shapes, colours = set(), set()
    for seat, phone in enumerate(phones):
        reveal(phone)  # measured at once: the card hides itself after a few seconds
        width, height, classes, word, icon, lines = phone.eval_on_selector("#secret-view .card", measure)
        assert word == service.private_view(seat)["view"]["loyalty_name"] and icon
        shapes.add((width, height, lines))
        colours.add(classes)
        assert "death_eater" not in phone.inner_text("#secret-view")  # no raw key/value rows under the card
    assert len(shapes) == 1 and colours == {"card card-blue", "card card-green"}

    # The end: nominate, vote, accuse; every page shows the reveal.
    state = service.table.current.state
    if state.step == "revelio":
        service.submit(Action("peek", {}))
    first = service.table.current.state.final.nominator
    nominee = (first + 1) % 5
    service.submit(Action("nominate", {"choice": nominee}))
    for voter in range(5):
        service.submit(Action("vote", {"seat": voter, "vote": True}))
    accused = (nominee + 1) % 5
    service.submit(Action("accuse", {"choices": [accused]}))
    outcome = VERDICT_SAY[service.table.current.state.final.outcome]
    for page in (host.page, phones[0]):
        end = page.locator(".reveal-end")
        expect(end.locator(".outcome")).to_have_text(outcome)
        expect(end.locator("figure")).to_have_count(5)
        expect(end.locator(".accused")).to_have_text(f"Accused: {NAMES[accused]}")
        expect(end.locator(".story li").first).to_contain_text("Turn 1, Ann: ")
    story = host.page.locator(".reveal-end .story li")
    expect(story).to_have_count(len(service.table.current.state.story))
    for seat, name in enumerate(NAMES):
        loyalty = service.table.current.state.loyalty[seat]
        word = "Death Eater" if loyalty == "death_eater" else "Order of the Phoenix"
        expect(host.page.locator(".reveal-end figure", has_text=name).locator(".card-word")).to_have_text(word)


def test_dice_half_tapped_in_survive_another_prompt_arriving(browser, served):
    """A live update that changes the other prompts (Bob's Role taken: his prompt goes, the
    others offer one Role fewer) leaves Ann's, and the die already tapped in it, as they
    were: the host finishes her roll with one more tap."""
    base, service = with_unmask(served)
    host = HostWatch(browser, base)
    page = host.page
    host.start("unmask", NAMES)
    service.submit(Action("role", {"choice": LOCATIONS[0]}, 0))
    ann = page.locator("#prompts .prompt", has_text="Ann: roll")
    expect(ann).to_be_visible()
    assert "3" not in ann.inner_text()
    ann.get_by_role("button", name="die showing 3").click()
    expect(ann).to_contain_text("3")
    service.submit(Action("role", {"choice": LOCATIONS[1]}, 1))
    expect(page.locator("#prompts")).not_to_contain_text("Bob: which Role")
    expect(ann).to_contain_text("3")
    ann.get_by_role("button", name="die showing 4").click()
    expect(page.locator("#message")).to_have_text("Done.")
    assert service.store.entries()[-1].action.data["dice"] == [3, 4]
    host.context.close()


def test_the_final_accusation_asks_first_and_a_no_sends_nothing(browser, served):
    """The final Leader's names settle the game: the page asks before sending them, and
    a mis-tap answered No leaves the table waiting as it was."""
    base, service = with_unmask(served)
    play = at_department(5)
    s = play.s
    if s.step == "revelio":
        play.act("peek", by=s.board.revelio, choice=next(x for x in range(5) if x != s.board.revelio))
    leader = next(x for x in range(5) if x != play.s.final.nominator)
    play.final_vote(leader, yes=True)
    assert play.s.step == "accuse"
    replayed(service, play)
    host = HostWatch(browser, base)
    page = host.page
    prompt = page.locator("#prompts .prompt", has_text="submit 1 name").first
    expect(prompt).to_be_visible()
    answers: list[bool] = [False, True]
    asked: list[str] = []

    def on_dialog(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept() if answers.pop(0) else dialog.dismiss()

    page.on("dialog", on_dialog)
    logged = len(service.store.entries())
    accused = next(n for i, n in enumerate(NAMES) if i != service.table.current.state.final.final_leader)
    name = prompt.get_by_role("button", name=accused, exact=True)
    name.click()  # one name: a tap sends it, once the host says yes
    expect(page.locator("#prompts")).to_contain_text("submit 1 name")
    assert asked == ["This answer cannot be taken back at the table. Send it?"]
    assert len(service.store.entries()) == logged  # No: nothing sent
    name.click()
    expect(page.locator("#title")).to_contain_text("(over)")
    assert len(asked) == 2 and service.store.entries()[-1].action.kind == "accuse"
    host.context.close()


def test_a_phone_with_a_prompt_behind_the_tap_says_so_on_its_button(browser, served):
    """A secret prompt whose words give a secret away (here Ann's pick of a seat whose
    word she will see) stays behind the tap, but her button says that something is asked
    of her, until it is answered; Bob, asked nothing in private, sees the usual button."""
    base, service = served
    host = HostWatch(browser, base)
    host.start("secrets", ["Ann", "Bob", "Cat"])
    ann, bob = (join(browser, base, name, service.join_code()) for name in ("Ann", "Bob"))
    button = ann.locator("#reveal")
    expect(button).to_have_text("Something is asked of you: tap to answer in private")
    expect(bob.locator("#reveal")).to_have_text("Tap to see your secret")
    expect(ann.locator("#prompts")).not_to_contain_text("Pick a seat to peek at")
    button.click()
    pick = ann.locator("#secret-prompts .prompt", has_text="Pick a seat to peek at")
    pick.get_by_role("button", name="Cat").click()
    expect(button).to_have_text("Tap to see your secret")
    assert reveal(ann).count(service.table.current.state.words[2]) == 1  # Cat's word, behind the tap
    for page in (host.page, ann, bob):
        page.context.close()


def _at_the_revelio_peek(service: Any) -> int:
    """Unmask at the Department with the Revelio peek asked (two Loyalty cards at most):
    the holder's seat."""
    from support.unmask import revelio_taken

    play = revelio_taken(options={"revelio_peeks": [2, 2, 2, 2, 2, 2]})
    for _ in range(5):
        play.encounter(False)
    replayed(service, play)
    assert service.table.current.state.step == "revelio"
    return service.table.current.state.board.revelio


def peeks_shown(phone: Any) -> str:
    """What a phone's secret card says under "Revelio peeks", revealed by a tap."""
    reveal(phone)
    return (
        phone.locator("#secret-view dt", has_text="Revelio peeks")
        .locator("xpath=following-sibling::dd[1]")
        .inner_text()
    )


def test_the_revelio_holder_answers_the_peek_openly_and_sees_its_result_behind_the_tap(browser, served):
    """The peek gives nothing away (the holder is on the board, the options are names):
    the holder answers it without the tap, the other phones and the host page never show
    it, and the Loyalty seen is on the holder's secret card alone."""
    base, service = with_unmask(served)
    host = HostWatch(browser, base)
    holder = _at_the_revelio_peek(service)
    phones = {seat: join(browser, base, NAMES[seat], service.join_code()) for seat in range(len(NAMES))}
    mine, asked = phones[holder], "Revelio: look at the Loyalty of 1 player"
    peek = mine.locator("#prompts .prompt", has_text=asked)
    expect(peek).to_be_visible()
    expect(mine.locator("#secret")).to_be_hidden()  # seen and answered without the tap
    expect(mine.locator("#reveal")).to_have_text("Tap to see your secret")  # nothing waits behind it
    expect(host.page.locator("#prompts")).to_contain_text(f"Waiting for {NAMES[holder]} to cast Revelio")
    for seat, phone in phones.items():
        if seat != holder:
            expect(phone.locator("#now")).to_contain_text("Waiting for")  # the page is drawn
            reveal(phone)
            assert "look at the Loyalty" not in phone.inner_text("body")
    target = (holder + 1) % len(NAMES)
    peek.get_by_role("button", name=NAMES[target], exact=True).click()
    expect(mine.locator("#message")).to_have_text("Sent.")
    expect(mine.locator("#prompts")).not_to_contain_text("Revelio")
    loyalty = service.table.current.state.loyalty[target]
    word = "Death Eater" if loyalty == "death_eater" else "Order of the Phoenix"
    seen = peeks_shown(mine)
    assert NAMES[target] in seen and word in seen
    for seat, phone in phones.items():
        if seat != holder:
            assert peeks_shown(phone) == "none"
    assert "look at the Loyalty" not in host.downloaded()
    # this table's pages only (an earlier test's phones may still be open, their box gone)
    assert [e for e in CONSOLE_ERRORS if e.startswith(base) and "status of 403" not in e] == []
    for page in (host.page, *phones.values()):
        page.context.close()
