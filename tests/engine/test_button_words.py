"""A confirmation whose button does something particular says so (issue 50.10): the
Headmaster's veto request and Monopoly Deal's "cast no Protego" are not "Next", in
English and in German."""

from __future__ import annotations

from engine.games.voldemort_rules import DARK_ARTS, ORDER
from support.deal import Play as DealPlay
from support.voldemort import Play as VoldemortPlay
from web.language import Language


def _button(expect) -> tuple[str, str]:
    """The words on a confirmation's button, in English and in German (the pages show
    the prompt's one label, else "Next")."""
    (label,) = expect.to_json()["option_labels"]
    return Language("en").text(label), Language("de").text(label)


def test_the_veto_request_button_asks_for_a_veto() -> None:
    play = VoldemortPlay(7)
    play.rig(dark_arts=5, top=[ORDER, DARK_ARTS, DARK_ARTS])
    play.elect()
    play.act("discard", by=play.s.minister, choice="Dark Arts")
    (veto,) = [e for e in play.table.expects() if e.action == "veto"]
    assert _button(veto) == ("Ask for a veto", "Veto beantragen")


def test_the_protego_buttons_say_which_they_are() -> None:
    play = DealPlay(2, deck="physical")
    play.items(0, "Red Item")
    play.act("play", by=0, cards=["Accio Red/Yellow"])
    play.answer("cast it")
    play.answer("Red")
    shown = {e.action: _button(e) for e in play.table.expects()}
    assert shown == {
        "let": ("Cast no Protego", "Kein Protego zaubern"),
        "protego": ("Cast Protego", "Protego zaubern"),
    }
