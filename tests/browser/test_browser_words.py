"""The pages' generic drawing of the smaller things of issue 50.10: a confirmation's
button shows the words the game gives it (the veto request said "Next"), and "Next"
only when the game gives none; a long story at the end is folded under its heading."""

from __future__ import annotations

from support.browser import MARKS, PHONE, watch_console

pytestmark = MARKS

BUTTON = """(labels) => Familiar.renderPrompt(
  { kind: "confirm", action: "veto", prompt: "Bob: ask the Minister to veto this agenda", option_labels: labels },
  () => {}).querySelector("button").textContent"""


def test_a_confirmation_button_says_what_it_does(browser, served) -> None:
    base, _service = served
    context = browser.new_context(**PHONE)
    page = context.new_page()
    watch_console(page)
    try:
        page.goto(f"{base}/host")
        assert page.evaluate(BUTTON, ["Ask for a veto"]) == "Ask for a veto"
        assert page.evaluate(BUTTON, []) == "Next"
    finally:
        context.close()


END = """(lines) => {
  const main = document.querySelector("main");
  main.replaceChildren(Familiar.renderObject({ reveal: {
    outcome: "Game over: Ann won with three complete sets.",
    cards: [{ name: "Ann", card: { word: "3 complete sets", colour: "gold", icon: "crown", history: [] } }],
    accused: [], story: Array.from({ length: lines }, (_, i) => `Turn ${i + 1}, Ann: banks 5 Points; lays Brown Item as Brown`) } }));
  return [document.scrollingElement.scrollHeight, main.querySelectorAll(".story li").length,
    Array.from(main.querySelectorAll(".story li")).filter((li) => li.checkVisibility()).length];
}"""


def test_a_long_story_is_folded_so_the_end_screen_stays_short(browser, served) -> None:
    """Issue 50.10: a Monopoly Deal end page was 12,323 px of turns."""
    base, _service = served
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{base}/board")
        height, listed, shown = page.evaluate(END, 120)
        assert listed == 120 and shown == 0 and height < 4000, (height, listed, shown)
        height, listed, shown = page.evaluate(END, 5)
        assert listed == shown == 5  # a short story stays in sight
    finally:
        context.close()
