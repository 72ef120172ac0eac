"""Secret Voldemort in German: the German rulebook's names, and whole games said in German."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from engine.games.voldemort_rules import DARK_ARTS, DEATH_EATER, ORDER, VOLDEMORT
from support.voldemort import Play, page_action, seats_with
from support.words import play, problems, untranslated
from web.language import Language

GERMAN = Language("de")


def test_the_cards_carry_the_german_rulebooks_names() -> None:
    """The German rules: the roles are Auror, Death Eater and Lord Voldemort, the parties
    the Order of the Phoenix and the Dark Forces, where English calls role and party alike."""
    game = Play(7, seed=3)
    views = {
        role: game.table.private_view(seats_with(game.s, role)[0])["view"] for role in (ORDER, DEATH_EATER, VOLDEMORT)
    }
    said = {role: (GERMAN.text(v["role_name"]), GERMAN.text(v["party_name"])) for role, v in views.items()}
    assert said == {
        ORDER: ("Auror", "Orden des Phönix"),
        DEATH_EATER: ("Todesser", "Dunkle Mächte"),
        VOLDEMORT: ("Lord Voldemort", "Dunkle Mächte"),
    }
    known = views[DEATH_EATER]["you_know"]
    assert {GERMAN.text(k["role"]) for k in known} <= {"Todesser", "Lord Voldemort"} and known


def test_a_crucio_shows_the_party_in_german() -> None:
    game = Play(9, seed=1)
    game.rig(minister=0)
    game.pass_policy(DARK_ARTS)  # at nine players the first Dark Arts policy brings Crucio
    target = game.s.others_alive()[0]
    game.act("crucio", by=0, choice=target)
    shown = game.table.private_view(0)["view"]["crucio"][0]["party"]
    assert GERMAN.text(shown) == ("Orden des Phönix" if game.s.roles[target] == ORDER else "Dunkle Mächte")


@pytest.mark.parametrize(("players", "seed", "deck"), [(5, 1, "digital"), (7, 2, "physical"), (10, 3, "digital")])
def test_a_whole_random_game_has_every_word_in_german(players: int, seed: int, deck: str) -> None:
    assert untranslated("voldemort", players, seed, {"deck": deck}, answer=page_action) == []


def test_the_german_check_finds_a_word_without_a_translation() -> None:
    """The check above can fail: with an empty catalog every message of the game is
    missing, and a line that is no message is found whatever the catalogs hold."""
    _, heard = play("voldemort", 5, 1, answer=page_action)
    found = problems(heard, "de", catalogs=lambda domain: Catalog(locale="de", domain=domain))
    assert "no de translation in voldemort.po: 'Secret Voldemort'" in found
    assert "no de translation in voldemort.po: '{name}, nominate a Headmaster.'" in found
    assert all(p.startswith("no de translation") for p in found)
    heard.lines.append("Ann nominates Bob.")
    assert problems(heard, "de") == ["not a message: 'Ann nominates Bob.'"]
