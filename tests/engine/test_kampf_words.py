"""Kampf gegen die dunklen Mächte in German: every line of a whole game and every view
said in the German catalog's words, with the German rulebook's names."""

from __future__ import annotations

import json
import random

import pytest

from engine.actions import IllegalAction
from engine.games.kampf_night import PROMPT
from engine.games.kampf_roles import DEATH_EATER as DE
from engine.games.kampf_roles import (
    DUMBLEDORE,
    GERMAN_NAME,
    HERMIONE,
    NEVILLE,
    ROLE_NAME,
    ROLES,
    SIRIUS,
    STUDENT,
    named_roles,
)
from engine.messages import said
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
    pages = json.dumps([GERMAN.deep(play.table.private_view(s)) for s in range(8)], ensure_ascii=False)
    assert [name for name in ENGLISH_ONLY if name in pages + json.dumps(view, ensure_ascii=False)] == []


def test_the_phone_prompts_carry_the_spells_as_printed():
    assert PROMPT[HERMIONE] == "Stupefy! You may look at another player's card or at two cards in the middle."
    assert GERMAN.text(PROMPT[HERMIONE]).startswith("Stupor! Du darfst")
    assert GERMAN.text(PROMPT[NEVILLE]).startswith("Expelliarmus! Tausche")


ENGLISH_ONLY = [str(ROLE_NAME[r]) for r in ROLES if ROLE_NAME[r] != GERMAN_NAME[r]] + ["Hogwarts inhabitants"]


def test_the_german_catalog_names_the_cards_as_printed():
    assert {r: GERMAN.text(ROLE_NAME[r]) for r in ROLES} == GERMAN_NAME


@pytest.mark.parametrize(
    "typed, role",
    [
        ("Todesser", DE),
        ("todesser", DE),
        ("Hermine Granger", HERMIONE),
        ("Hermine", HERMIONE),
        ("Hogwarts-Schüler", STUDENT),
        ("Hogwarts Schüler", STUDENT),
        ("hogwartsschueler", STUDENT),
        ("Schüler", STUDENT),
        ("Dumbledore", DUMBLEDORE),
        ("Death Eater", DE),
        ("death_eater", DE),
    ],
)
def test_a_card_is_known_by_its_german_english_or_key_name(typed, role):
    assert named_roles(typed) == role


def test_a_name_that_fits_several_cards_is_no_card():
    assert named_roles("Weasley") is None and named_roles("Zauberer") is None


def test_a_german_physical_game_takes_only_german_names_and_shows_no_english_ones():
    """Issue 44 item 3: a German table typing "Todesser" or "Hermine Granger" was refused."""
    chosen = "Todesser, Todesser, Hermine Granger, Sirius Black, Neville, Hogwarts-Schüler, Schüler"
    play = Play(4, 0, scenario="free", roles=chosen, cards="physical")
    assert sorted(play.s.roles) == sorted([DE, DE, HERMIONE, SIRIUS, NEVILLE, STUDENT, STUDENT])
    play.vote(1, 0, 1, 1)
    seen = [play.table.public_view(), *(play.table.private_view(s) for s in range(4))]
    with pytest.raises(IllegalAction) as refused:
        play.act("cards", cards=["Todesser", "Todesser", "Todesser", "Schüler"])
    assert GERMAN.text(said(refused.value)) == "so viele Karten Todesser hat dieses Spiel nicht"
    play.act("cards", cards=["Hermine", "Todesser", "Hogwarts-Schüler", "Schueler"])
    assert play.s.final == [HERMIONE, DE, STUDENT, STUDENT] and play.s.captured == [1]
    seen += [play.table.public_view(), *(play.table.private_view(s) for s in range(4))]
    shown = json.dumps([GERMAN.deep(v) for v in seen] + [GERMAN.text(line) for line in play.said], ensure_ascii=False)
    assert [name for name in ENGLISH_ONLY if name in shown] == []
    assert "Gefangen genommen: Bob." in shown and "Hermine Granger" in shown
