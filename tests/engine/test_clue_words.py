"""Harry Potter Clue in German: whole random games, played through the game's own
prompts (both dice, the black die by face name), have every word in German."""

from __future__ import annotations

import pytest

from support.clue import WHEELS, page_action
from support.words import untranslated


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(3, 1, {"wheels": WHEELS}), (4, 2, {}), (5, 3, {"cards": "physical", "wheels": WHEELS})],
)
def test_a_whole_random_game_has_every_word_in_german(players: int, seed: int, options: dict[str, object]) -> None:
    assert untranslated("clue", players, seed, options, answer=page_action) == []
