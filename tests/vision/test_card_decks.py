"""Cards read against several decks: one card found by two decks' reads is one card."""

from __future__ import annotations

from vision.cards.decks import same_card
from vision.cards.read import Card


def card(x: float, y: float, name: str | None = None) -> Card:
    w, h = 60.0, 90.0
    return Card(name, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), 0.9)


def test_readings_of_one_card_are_one_card_and_neighbours_two() -> None:
    assert same_card(card(100, 100), card(104, 97, "Owl"))  # the same card, outlined a little apart
    assert not same_card(card(100, 100), card(170, 100))  # laid side by side
    assert not same_card(card(100, 100), card(100, 200))  # one above the other
