"""Kampf gegen die dunklen Mächte in German: every line of a whole game and every view
said in the German catalog's words, with the German rulebook's names."""

from __future__ import annotations

import random

from engine.games.kampf_night import PROMPT
from engine.games.kampf_roles import HERMIONE, NEVILLE
from support.kampf import Play, page_action
from web.language import Language

GERMAN = Language("de")


def test_a_whole_digital_game_is_said_in_german():
    play = Play(8, 4, scenario="Kampf gegen die dunklen Mächte")
    r = random.Random(4)
    play.act("start")
    while play.s.step == "night":
        for expect in play.table.expects():
            play.submit(page_action(expect, r))
        play.timer_runs_out()
    play.timer_runs_out("discussion")
    for seat in range(8):
        play.act("vote", by=seat, choice=play.s.names[(seat + 1 + seat % 2) % 8])
    german = [GERMAN.text(line) for line in play.said]
    untranslated = [en for en, de in zip(play.said, german, strict=True) if en == de]
    assert untranslated == []
    assert "1: Todesser. Öffnet die Augen" in " ".join(german)
    assert "3: Hermine Granger, Stupor! Öffne die Augen." in " ".join(german)
    assert "Hermine Granger, schließ die Augen." in german and "Todesser, schließt die Augen." in german
    view = GERMAN.deep(play.table.public_view())["view"]
    assert view["result"][0].startswith(("Gefangen genommen", "Niemand", "Jeder Spieler"))
    assert "2 × Todesser (*)" in view["markers"] and view["scenario_name"] == "Kampf gegen die dunklen Mächte"
    record = play.table.public_view()["view"]["night"]
    assert record and all(GERMAN.text(line) != line for line in record)


def test_the_phone_prompts_carry_the_spells_as_printed():
    assert PROMPT[HERMIONE] == "Stupefy! You may look at another player's card or at two cards in the middle."
    assert GERMAN.text(PROMPT[HERMIONE]).startswith("Stupor! Du darfst")
    assert GERMAN.text(PROMPT[NEVILLE]).startswith("Expelliarmus! Tausche")
