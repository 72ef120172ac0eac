"""Kampf gegen die dunklen Mächte: the state the box keeps, and whose each secret is.

The role markers of the chosen set are face up on the table, so ``roles`` (and the
night's calls made from them) are public.  With digital cards the box holds every card
by position (``cards``: one per seat in seat order, then the three in the middle,
left to right), which nobody sees until the game is over; each seat's dealt card and
what it saw at night (``notes``) are that seat's alone.  Harry's face-up card becomes
public at dawn, not when he turns it, so no page changes while eyes are closed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.games.kampf_roles import WAKE_ORDER
from engine.messages import words
from engine.secrets import secret

_, _n = words("kampf")

# Steps.
READY = "ready"  # the cards are dealt; the host starts the night
NIGHT = "night"  # the calls, one fixed time each
DAY = "day"  # the discussion timer runs
VOTE = "vote"  # everyone points at a player
REVEAL = "reveal"  # physical cards: the host enters the cards turned over
OVER = "over"

NIGHT_TIMER = "night"
DAY_TIMER = "discussion"
RULEBOOK = "rulebook"
NO_REPLACEMENT = "no replacement"

Note = dict[str, Any]
"""One thing a seat did or saw at night, e.g. ``{"kind": "looked", "seat": 0,
"at": 3, "role": "ron"}``; said in words by :mod:`engine.games.kampf_notes`."""


def over(state: KampfState) -> bool:
    return state.step == OVER


def dawned(state: KampfState) -> bool:
    return state.step not in (READY, NIGHT)


@dataclass
class KampfState:
    names: list[str]
    roles: list[str]
    scenario: str
    digital: bool
    discussion: int
    ginny_luna: str = RULEBOOK
    step: str = READY
    calls: list[str] = field(default_factory=list)
    call: int = -1
    dealt: list[str] = secret(_("your role card"), per_seat=True, shown=over, default_factory=list)
    cards: list[str] = secret(_("the role cards' places"), shown=over, default_factory=list)
    notes: list[list[Note]] = secret(_("what you did and saw at night"), per_seat=True, default_factory=list)
    stage: dict[int, str] = secret(_("your night action under way"), per_seat=True, learned=False, default_factory=dict)
    night_log: list[Note] = secret(_("the night's actions"), shown=over, default_factory=list)
    face_up: dict[int, str] = secret(_("Harry's face-up card"), shown=dawned, default_factory=dict)
    votes: dict[int, int] = secret(
        _("vote"), per_seat=True, learned=False, summary=("voted", sorted), default_factory=dict
    )
    pointed: dict[int, int] = field(default_factory=dict)
    final: list[str] = field(default_factory=list)
    captured: list[int] = field(default_factory=list)
    winner: str | None = None
    reason: str = ""

    @property
    def players(self) -> int:
        return len(self.names)

    def centre(self, index: int) -> int:
        """The position in ``cards`` of the middle's card ``index`` (0 left to 2 right)."""
        return self.players + index

    def others(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if s != seat]

    def awake(self, call: str | None = None) -> list[int]:
        """The seats woken by the current call (or ``call``): by the card each was dealt,
        even if it has since been taken."""
        # ONUW: a seat wakes at the number of the card it was dealt, whoever holds it now;
        # a card moved to another player does not wake that player.
        wanted = call if call is not None else (self.calls[self.call] if 0 <= self.call < len(self.calls) else None)
        roles = dict(WAKE_ORDER).get(wanted or "", ())
        return [s for s, role in enumerate(self.dealt) if role in roles]

    def current_call(self) -> str | None:
        return self.calls[self.call] if self.step == NIGHT and 0 <= self.call < len(self.calls) else None

    def note(self, seat: int, **what: Any) -> None:
        """``seat`` did or saw ``what`` tonight: on its phone, and in the night's record."""
        entry = {"seat": seat, **what}
        self.notes[seat].append(entry)
        self.night_log.append(entry)
