"""The cards reader: teach a deck once into a :class:`Catalog`, then name the cards in
any frame (:func:`read_cards`), or say a card is unknown rather than guess."""

from vision.cards.catalog import Catalog, CatalogError, grid_order, warp_grid
from vision.cards.detect import find_cards, warp_card
from vision.cards.read import Card, read_cards

__all__ = ["Card", "Catalog", "CatalogError", "find_cards", "grid_order", "read_cards", "warp_card", "warp_grid"]
