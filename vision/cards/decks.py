"""Cards read against several taught decks at once: a table may show cards of two decks
together (Unmask's Encounter card lies face up while the Wizarding World pool is
revealed beside it), so each card takes its name from whichever deck knows it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.cards.catalog import Catalog
from vision.cards.read import Card, read_cards


def read_decks(frame: np.ndarray, catalogs: Sequence[Catalog]) -> list[tuple[Card, Catalog | None]]:
    """Every card in the frame with the deck that named it (None: no deck knows it).  A
    card found by several decks' reads is one card: the surest name wins."""
    found: list[tuple[Card, Catalog | None]] = []
    for catalog in catalogs:
        for card in read_cards(frame, catalog):
            at = next((i for i, (seen, _) in enumerate(found) if same_card(seen, card)), None)
            if at is None:
                found.append((card, catalog if card.name is not None else None))
            elif card.name is not None and (found[at][0].name is None or card.confidence > found[at][0].confidence):
                found[at] = (card, catalog)
    return found


def same_card(a: Card, b: Card) -> bool:
    """Whether two readings are of the same card: their centres lie within a third of the
    smaller card's shorter side (two cards side by side are a whole card apart)."""
    pa, pb = np.asarray(a.corners, dtype=float), np.asarray(b.corners, dtype=float)
    side = min(_short_side(pa), _short_side(pb))
    return bool(np.linalg.norm(pa.mean(axis=0) - pb.mean(axis=0)) < side / 3)


def _short_side(corners: np.ndarray) -> float:
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    return float(sides.min())
