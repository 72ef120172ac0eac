"""The deck file: the shipped template parses, holds what the rulebook states, and a
mistake in an owner's edit is refused with what is wrong, never half-read."""

from __future__ import annotations

from importlib import resources

import pytest

from engine.actions import IllegalAction
from engine.games.deal_deck import CHARACTERS, by_id, packaged, parse
from support.deal import ABILITIES, Play

TEXT = resources.files("engine.games").joinpath("deal_deck.toml").read_text(encoding="utf-8")


def test_the_shipped_deck_holds_what_the_rulebook_states() -> None:
    """ "Remove the five character cards", the every-colour wild that "can't be used as
    points", and the three Spells the rulebook explains."""
    deck = packaged()
    assert len(deck.characters) == CHARACTERS == 5
    every = [c for c in deck.cards.values() if c.every_colour]
    assert every and all(c.value == 0 for c in every)
    effects = {c.effect for c in deck.cards.values()}
    assert {"accio", "protego", "petrificus"} <= effects
    accios = [c for c in deck.cards.values() if c.effect == "accio"]
    assert all(c.colours and set(c.colours) <= set(deck.colours) for c in accios)
    assert all(len(col.accio) == col.size for col in deck.colours.values())
    assert "FILL IN" in TEXT  # what the owner must check is marked


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda t: t.replace("accio = [1, 2]  # FILL IN", "accio = [1]", 1), "one number per item"),
        (lambda t: t.replace('colour = "brown"', 'colour = "mauve"', 1), "colour must be a key"),
        (lambda t: t.replace('effect = "protego"', 'effect = "expelliarmus"', 1), "effect must be one of"),
        (lambda t: t.replace('name = "2 Points"', 'name = "1 Point"', 1), "listed twice"),
        (lambda t: t.split("\n[[character]]")[0], "exactly 5 character cards"),
        (lambda t: t + "\n[[[", "the deck file is wrong"),
    ],
)
def test_a_mistake_in_the_deck_file_is_refused(edit, why: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalAction, match=why):
        parse(edit(TEXT))


def test_a_deck_changed_during_a_game_is_refused_not_played() -> None:
    with pytest.raises(IllegalAction, match="has changed since this game began"):
        by_id("0" * 16)


def test_a_deck_with_other_cards_plays() -> None:
    deck = parse(TEXT.split("\n[[character]]")[0] + ABILITIES + "\n# another owner's edit\n")
    play = Play(2, cards=deck)
    assert play.s.deck is deck
