"""The cards reader: teach a deck once into a :class:`Catalog`, then name the cards in
any frame (:func:`read_cards`), or say a card is unknown rather than guess.

The names below are loaded on first use (PEP 562): describing cards sizes itself by
describing two probe cards at import, which touches about 25 MB of OpenCV, and the box's
command line (``familiar vision cards``) and a table without cards should not pay it."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.cards.catalog import Catalog, CatalogError, grid_order, warp_grid
    from vision.cards.decks import read_decks
    from vision.cards.detect import find_cards, warp_card
    from vision.cards.read import Card, read_cards

_HOMES = {
    "Catalog": "catalog",
    "CatalogError": "catalog",
    "grid_order": "catalog",
    "warp_grid": "catalog",
    "find_cards": "detect",
    "warp_card": "detect",
    "Card": "read",
    "read_cards": "read",
    "read_decks": "decks",
}

__all__ = [
    "Card",
    "Catalog",
    "CatalogError",
    "find_cards",
    "grid_order",
    "read_cards",
    "read_decks",
    "warp_card",
    "warp_grid",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"vision.cards.{_HOMES[name]}"), name)
