"""How a game asks the pages to show a secret as a card, and the end as a reveal.

The pages never name a game, so a game that wants a seat's role drawn as a card (a
large word in its colour, the same size and shape for every role, so nobody across the
table can tell one from another by its look) puts :func:`card` under ``"card"`` in that
seat's view; at the end it puts :func:`reveal` under ``"reveal"`` in the public view,
and every page shows everyone's card with the game's ``status`` line as the outcome.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

COLOURS = ("red", "green", "blue", "gold", "grey", "purple", "brown")
"""The colours a card may be painted in: names the pages' style sheet knows."""


def card(word: str, colour: str, detail: str = "") -> dict[str, Any]:
    """A card: ``word`` large (the role, the Loyalty), ``detail`` under it (the party)."""
    if colour not in COLOURS:
        raise ValueError(f"a card is one of {', '.join(COLOURS)}, not {colour!r}")
    return {"word": word, "colour": colour, "detail": detail}


def reveal(cards: Iterable[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Everyone's card at the end, in seat order: ``(seat name, card)`` pairs."""
    return [{"name": name, "card": shown} for name, shown in cards]
