"""Monopoly Deal Wizarding World: the state the box keeps of the table.

Everything laid face up is public: each player's Bank, item collection (each item with
the colour it counts as), character card and any Petrificus Totalus on it, and the
discard pile.  Secret: each seat's hand (its own; everyone else sees only how many
cards it holds) and the draw pile (nobody's).  With the physical deck the box never
sees a hand: a hand is then a list of :data:`UNSEEN` placeholders, so the same code
counts it, and a card becomes known when it is laid and named.  Seats are listed
clockwise: "play moves to the left" is the next seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.games.deal_deck import Card, Character, Deck, by_id
from engine.messages import words
from engine.secrets import secret

_, _n = words("deal")

# Steps.
FIRST = "first"  # the host names the youngest player
CHARACTER = "character"  # each player chooses a character card
PLAY = "play"  # the player whose turn it is plays up to three cards
HOW = "how"  # a Spell card played: cast it or bank it
COLOUR = "colour"  # a wild item laid: which colour it represents
ACCIO = "accio"  # an Accio cast: which colour it collects for
TARGET = "target"  # a Spell's target player
TAKE = "take"  # which of the target's items (or complete sets) the Spell takes
GIVE = "give"  # a swap: which of the caster's own items goes in exchange
RESPOND = "respond"  # the Spell's target (then its caster...) may cast Protego
PAY = "pay"  # a debt being paid
DISCARD = "discard"  # the end of a turn: discarding down to the hand limit
OVER = "over"

UNSEEN = "?"
"""A card the box has not seen (physical deck): in a hand or the draw pile."""


def _sizes(hands: Any) -> list[int]:
    return [len(h) for h in hands]


def _count(pile: Any) -> int:
    return len(pile)


@dataclass
class Placed:
    """An item in a collection, with the colour it represents now."""

    card: str
    colour: str


@dataclass
class Pending:
    """A Spell being cast: who cast it, whom it is against, what it will do.

    ``targets`` are the players still to answer it, in seat order from the caster's
    left; ``protegos`` counts the Protegos cast in the current target's chain."""

    card: str
    caster: int
    targets: list[int] = field(default_factory=list)
    colour: str | None = None
    amount: int = 0
    take: int | None = None  # the index of the target's item taken
    give: int | None = None  # the index of the caster's item given in a swap
    protegos: int = 0


@dataclass
class Debt:
    payer: int
    receiver: int
    amount: int


@dataclass
class DealState:
    names: list[str]
    deck_id: str
    digital: bool = True
    step: str = FIRST
    first: int = 0
    turn: int = 0
    plays: int = 0
    characters: list[str | None] = field(default_factory=list)
    petrified: dict[int, str] = field(default_factory=dict)  # seat -> the Petrificus Totalus on its character
    banks: list[list[str]] = field(default_factory=list)
    items: list[list[Placed]] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    draw: list[str] = secret(_("draw pile"), summary=("draw_pile", _count), default_factory=list)
    hands: list[list[str]] = secret(
        _("hand"), per_seat=True, learned=False, summary=("hand_sizes", _sizes), default_factory=list
    )
    # Every card each seat has drawn: what undo cannot take back from its phone.
    drawn: list[list[str]] = secret(_("cards drawn"), per_seat=True, default_factory=list)
    card: str | None = None  # the card being laid, while its owner says how
    pending: Pending | None = None
    debts: list[Debt] = field(default_factory=list)  # the first is being paid
    shuffles: int = 0
    winner: int | None = None
    story: list[dict[str, Any]] = field(default_factory=list)  # each turn's public facts, in order (deal_story)

    @property
    def deck(self) -> Deck:
        return by_id(self.deck_id)

    @property
    def players(self) -> int:
        return len(self.names)

    def spec(self, name: str) -> Card:
        return self.deck.card(name)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def others(self, seat: int) -> list[int]:
        """The other players in play order, from ``seat``'s left."""
        return [(seat + k) % self.players for k in range(1, self.players)]

    def character(self, seat: int) -> Character | None:
        """``seat``'s character card as the deck gives it (None before it is chosen)."""
        chosen = self.characters[seat] if seat < len(self.characters) else None
        return next((c for c in self.deck.characters if c.name == chosen), None)

    def ability(self, seat: int, effect: str) -> int:
        """What ``seat``'s character adds for ``effect`` now (0 when blocked or another)."""
        character = self.character(seat)
        if character is None or character.effect != effect or seat in self.petrified:
            return 0
        return int(character.amount)
