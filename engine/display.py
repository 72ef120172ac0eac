"""How a game asks the pages to show a secret as a card, and the end as a reveal.

The pages never name a game, so a game that wants a seat's role drawn as a card (a
large word in its colour with an icon, the same size and shape for every role, so
nobody across the table can tell one from another by its look) puts :func:`card`
under ``"card"`` in that seat's view; at the end it puts :func:`reveal` under
``"reveal"`` in the public view, and every page shows everyone's card, who was
accused, the outcome and the game's story in order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

COLOURS = ("red", "green", "blue", "gold", "grey", "purple", "brown")
"""The colours a card may be painted in: names the pages' style sheet knows."""

ICONS = (
    "phoenix",
    "skull",
    "bolt",
    "moon",
    "crown",
    "scales",
    "swords",
    "star",
    "house",
    "flag",
    "heart",
    "diamond",
    "wheel",
    "sun",
)
"""The icons a card may carry: names the pages draw (each game picks by meaning)."""


def card(
    word: str,
    colour: str,
    detail: str = "",
    icon: str = "",
    history: Iterable[str] = (),
    covers: Iterable[str] = (),
) -> dict[str, Any]:
    """A card: ``word`` large (the role, the Loyalty) under its ``icon``, ``detail`` under
    it (the party), then ``history`` (what the card was in each Phase), one line each.
    ``covers`` names the view's keys the card says already: the pages do not repeat them
    as rows (a raw ``death_eater`` under the card reads as a database, not a card)."""
    if colour not in COLOURS:
        raise ValueError(f"a card is one of {', '.join(COLOURS)}, not {colour!r}")
    if icon and icon not in ICONS:
        raise ValueError(f"a card's icon is one of {', '.join(ICONS)}, not {icon!r}")
    shown = {"word": word, "colour": colour, "detail": detail, "icon": icon, "history": list(history)}
    return shown | {"covers": list(covers)}


def reveal(
    cards: Iterable[tuple[str, dict[str, Any]]],
    outcome: str = "",
    accused: Iterable[str] = (),
    story: Iterable[str] = (),
) -> dict[str, Any]:
    """The end: everyone's card in seat order (``(seat name, card)`` pairs), the outcome
    (the rulebook's words for how it ended), who was accused by name, and the story (one
    line per turn, in order)."""
    return {
        "cards": [{"name": name, "card": shown} for name, shown in cards],
        "outcome": outcome,
        "accused": list(accused),
        "story": list(story),
    }
