"""Harry Potter Clue: the state the box keeps, and who plays next.

Secrets are marked where they are kept (:mod:`engine.secrets`): each seat's Mystery
cards; the envelope (nobody's until the game is over); the cards each suggester was
shown and the envelope each accuser looked at (``learned``: undo cannot unshow them);
what each holder showed (its own input); with real cards, each player's hand as they
entered it and their own notepad ticks (their own input).  Everything else is on the table for all to
see: Floo powder, Help cards, the wheels, who showed a card for which suggestion.
Seats are listed clockwise, so "the player to the left" is the next seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.messages import words
from engine.secrets import secret

_, _n = words("clue")

# Steps.
IDENTITY = "identity"  # each player chooses an Identity card
FIRST = "first"  # the host says whose birthday is next
ROLL = "roll"  # the player rolls both dice
WHEEL = "wheel"  # an unconfigured wheel turned: the host says if the Dark Mark shows
PINCHES = "pinches"  # a Dark card drawn: how many pinches it costs
DARK = "dark"  # what the Dark card does to each player in turn
MOVE = "move"  # where the player went
ROOM = "room"  # in a location: suggest or end the turn
BURROW_STEP = "burrow"  # in The Burrow: accuse or end the turn
ITEM = "item"  # naming the item (of a suggestion or an accusation)
PLACE = "place"  # an accusation's location
SHOW = "show"  # the first holder to the left chooses a card to show
ANSWER = "answer"  # physical cards: the host enters who showed a card
VERDICT = "verdict"  # physical cards: the host enters whether the accusation was right
OVER = "over"

SUGGEST = "suggest"
ACCUSE = "accuse"


def over(state: ClueState) -> bool:
    return state.step == OVER


def _count(value: Any) -> int:
    return len(value)


@dataclass
class Wheel:
    """One wheel: its notch (0 is START) and, if the host entered the board's wheel (or
    the box learned it this game), how many notches it has and which show the Dark Mark;
    until then, what the host said the Dark Mark did at each notch so far (``learned``)."""

    face: str
    notches: int | None = None
    dark_marks: list[int] = field(default_factory=list)
    notch: int = 0
    learned: dict[int, bool] = field(default_factory=dict)


@dataclass
class ClueState:
    names: list[str]
    suspects: list[str]
    items: list[str]
    locations: list[str]
    wheels: list[Wheel]
    floo: list[int]
    help: list[int]
    missing: str
    physical: bool = False  # the players deal and hold real Mystery cards
    step: str = IDENTITY
    identities: dict[int, str] = field(default_factory=dict)
    current: int = 0
    where: list[str | None] = field(default_factory=list)
    must_leave: str | None = None  # the location the player began the turn in
    roll: dict[str, Any] | None = None
    pinches: int = 0  # the Dark card's penalty, while it is being settled
    dark_queue: list[int] = field(default_factory=list)  # players still to settle it
    dark_stepwise: bool = False  # the Dark card is settled player by player
    purpose: str = SUGGEST
    naming: list[str] = field(default_factory=list)
    showing: int | None = None  # the player who must show a card now
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    accusations: list[dict[str, Any]] = field(default_factory=list)
    # One entry per turn, in order: who moved where, and the index of the suggestion or
    # accusation made there (public: the board and what was said aloud).
    story: list[dict[str, Any]] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)
    winner: int | None = None
    burrow: list[str] = field(default_factory=list)
    hands: list[list[str]] = secret(
        _("Mystery cards"), per_seat=True, summary=("hand_sizes", lambda h: [len(x) for x in h]), default_factory=list
    )
    envelope: list[str] = secret(_("the envelope"), shown=over, default_factory=list)
    shown: dict[int, list[dict[str, Any]]] = secret(_("cards shown to you"), per_seat=True, default_factory=dict)
    gave: dict[int, list[dict[str, Any]]] = secret(
        _("cards you showed"), per_seat=True, learned=False, default_factory=dict
    )
    peeks: dict[int, list[str]] = secret(_("the envelope, seen at an accusation"), per_seat=True, default_factory=dict)
    helper: dict[int, bool] = secret(_("notepad helper"), per_seat=True, learned=False, default_factory=dict)
    # Real cards: each player's own hand as they entered it, and their own notepad ticks
    # (card -> who holds it, None: ticked without saying who), for their notepad alone.
    entered: dict[int, list[str]] = secret(_("your Mystery cards"), per_seat=True, learned=False, default_factory=dict)
    ticks: dict[int, dict[str, int | None]] = secret(
        _("your notepad ticks"), per_seat=True, learned=False, default_factory=dict
    )

    @property
    def players(self) -> int:
        return len(self.names)

    def cards(self) -> list[str]:
        """The 21 Mystery cards, suspects then items then locations."""
        return [*self.suspects, *self.items, *self.locations]

    def kind_of(self, card: str) -> str:
        return "suspect" if card in self.suspects else "item" if card in self.items else "location"

    def tell(self, key: str, index: int) -> None:
        """This turn's suggestion or accusation (by its index), for the story."""
        if self.story:
            self.story[-1][key] = index

    def left_of(self, seat: int) -> list[int]:
        """Every other player, starting with the one to ``seat``'s left."""
        return [(seat + k) % self.players for k in range(1, self.players)]

    def next_player(self) -> int | None:
        """Whose turn is next: the first active player to the left (None: nobody is)."""
        return next((s for s in self.left_of(self.current) + [self.current] if s not in self.eliminated), None)
