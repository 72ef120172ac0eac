"""A confirmation's button shows the words the game gives it (issue 50.10: the veto
request said "Next"), and "Next" only when the game gives none."""

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
