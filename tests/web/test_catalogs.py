"""The box's words: every message in English and German, in the right domain, and said
in the table's language wherever it reaches people."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.games import registry
from engine.messages import LANGUAGES, _, _n, listing, words
from support.words import untranslated
from web import catalogs
from web.language import Language

ROOT = Path(__file__).resolve().parents[2]
GERMAN = Language("de")


@pytest.mark.parametrize("domain", sorted(catalogs.domains()))
def test_every_message_has_a_german_translation_with_the_same_fields(domain):
    assert catalogs.problems("de", domain) == []


def test_each_game_module_speaks_in_its_own_domain():
    """The extraction takes a game's words from its module family; a module that made
    them in another domain would be translated from the wrong catalog."""
    for path in sorted((ROOT / "engine/games").glob("[a-z]*.py")):
        for domain in re.findall(r'\bwords\("([^"]+)"\)', path.read_text()):
            assert domain == path.stem.split("_")[0], path.name


def test_a_message_is_its_english_text_and_translates_with_its_parts():
    said = _("{game} is for {least} to {most} players, not {count}", game=_("Dice reader"), least=0, most=12, count=13)
    assert said == "Dice reader is for 0 to 12 players, not 13"
    dice_words = words("dice")[0]
    assert GERMAN.text(_("New game: {game}.", game=dice_words("Dice reader"))) == "Neues Spiel: Würfelleser."
    assert GERMAN.text(listing(["Ann", "Ben", "Cy"], "or")) == "Ann, Ben oder Cy"
    assert GERMAN.text("Ann") == "Ann"  # a name is never translated


def test_plurals_follow_the_count_in_each_language():
    one, many = (_n("expected {count} die, got {got}", "expected {count} dice, got {got}", n, got=0) for n in (1, 3))
    assert (one, many) == ("expected 1 die, got 0", "expected 3 dice, got 0")
    assert GERMAN.text(one).startswith("erwartet war 1 Würfel")
    assert GERMAN.text(many).startswith("erwartet waren 3 Würfel")


def test_the_box_speaks_english_and_german_only():
    assert set(LANGUAGES) == {"en", "de"}
    with pytest.raises(ValueError):
        Language("fr")


@pytest.mark.parametrize("game", sorted(registry()))
def test_a_whole_random_game_says_nothing_german_cannot_say(game):
    """Everything a random game says or shows (lines, prompts, options, refusals, views,
    labels) is a message with a German translation, or plain numbers and names."""
    spec = registry()[game]
    for seed in range(2):
        players = max(spec.min_seats, min(spec.max_seats, 5))
        assert untranslated(game, players, seed) == [], (game, seed)
