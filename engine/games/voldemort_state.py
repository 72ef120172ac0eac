"""Secret Voldemort: the state the box keeps, and who may do what in it.

Secrets are marked where they are kept (:mod:`engine.secrets`): each seat's Secret
Role and whom it knows; the policies in the Minister's and then the Headmaster's hand
(one ``hands`` entry per holder, and ``seen``, every hand a seat was shown); the draw and discard piles (nobody's: only their
sizes are public, and no discarded card is ever revealed); each caster's Crucio
results and Stupor peek; each seat's vote until every vote is in.  Seats are listed
clockwise, so "the player to the left" is the next seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.games.voldemort_rules import FEW_ALIVE, VOLDEMORT
from engine.messages import words
from engine.secrets import secret

_, _n = words("voldemort")

# Steps.
NOMINATE = "nominate"  # the Minister nominates a Headmaster
VOTE = "vote"  # every living player votes
DISCARD = "discard"  # digital deck: the Minister discards one of three
ENACT = "enact"  # digital deck: the Headmaster enacts one of two (or asks for a veto)
POLICY = "policy"  # physical deck: the enacted (or chaos) policy is entered
VETO = "veto"  # the Minister answers the Headmaster's veto request
CRUCIO_STEP = "crucio"
STUPOR_STEP = "stupor"
IMPERIO_STEP = "imperio"
AVADA_STEP = "avada_kedavra"
OVER = "over"

ORDER_WINS = "order"
DEATH_EATERS_WIN = "death_eaters"


def over(state: VoldemortState) -> bool:
    return state.step == OVER


def _count(value: Any) -> int:
    return len(value)


@dataclass
class VoldemortState:
    names: list[str]
    physical: bool = False
    voldemort_knows: bool = False
    few_alive_limits: bool = False  # Secret Hitler's term limits (the last Minister free at five or fewer alive)
    every_spell: bool = False  # a spell on every Dark Arts square (the English rulebook's words)
    step: str = NOMINATE
    roles: list[str] = secret(_("Secret Role"), per_seat=True, shown=over, default_factory=list)
    known: list[dict[int, str]] = secret(_("who you know"), per_seat=True, default_factory=list)
    dead: list[int] = field(default_factory=list)
    minister: int = 0
    rotation: int = 0  # the seat the regular rotation passes on from (Imperio leaves it with the caster)
    chosen: int | None = None  # the next Minister picked by Imperio
    nominee: int | None = None
    headmaster: int | None = None  # the sitting Headmaster, during a legislative session
    last_minister: int | None = None  # the last *elected* government (term limits)
    last_headmaster: int | None = None
    votes: dict[int, bool] = secret(
        _("vote"), per_seat=True, learned=False, summary=("voted", sorted), default_factory=dict
    )
    last_vote: dict[str, Any] | None = None
    election: int = 0
    order: int = 0
    dark_arts: int = 0
    enacted: list[str] = field(default_factory=list)
    chaos: bool = False  # physical deck: the policy to enter is the top card (a chaos policy)
    draw: list[str] = secret(_("draw pile"), summary=("draw_pile", _count), default_factory=list)
    discard: list[str] = secret(_("discard pile"), summary=("discard_pile", _count), default_factory=list)
    # The hand a phone holds now (not "learned": it goes when played), and every hand each
    # seat has been shown, which undo cannot take back (so it never shrinks).
    hands: dict[int, list[str]] = secret(
        _("policies in hand"), per_seat=True, learned=False, summary=("holding", sorted), default_factory=dict
    )
    seen: dict[int, list[list[str]]] = secret(_("policies seen"), per_seat=True, default_factory=dict)
    shuffles: int = 0
    veto_asked: bool = False
    investigated: list[int] = field(default_factory=list)
    crucio: dict[int, dict[int, str]] = secret(_("Crucio: Party Membership"), per_seat=True, default_factory=dict)
    peeks: dict[int, list[str]] = secret(_("Stupor: the top three policies"), per_seat=True, default_factory=dict)
    winner: str | None = None
    reason: str = ""  # why the game ended (a message), said and shown
    # What the whole table saw happen, one line each in order (messages): the end's story.
    story: list[str] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.names)

    def living(self) -> list[int]:
        # Secret Hitler: the dead cannot vote, be nominated or hold the Minister's title.
        return [s for s in range(self.players) if s not in self.dead]

    def left_of(self, seat: int) -> int:
        """The next living player clockwise (the dead are skipped, wherever they sit)."""
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if nxt not in self.dead:
                return nxt
        raise ValueError("nobody is alive")

    def eligible(self) -> list[int]:
        """Who the Minister may nominate: another living player, not term-limited.

        The rulebook: "You cannot nominate the immediate past Minister or Headmaster";
        the box counts the last *elected* government.  With ``few_alive_limits`` (Secret
        Hitler's rule) only the last Headmaster is term-limited once five or fewer live."""
        others = [s for s in self.living() if s not in (self.minister, self.last_headmaster)]
        if self.few_alive_limits and len(self.living()) <= FEW_ALIVE:
            # Secret Hitler: with five or fewer living, only the last Chancellor is term-limited.
            return others
        # Secret Hitler: three alive can leave no one the rulebook allows (the Minister and
        # the last government); then the last Minister may serve, so the game goes on.
        return [s for s in others if s != self.last_minister] or others

    def others_alive(self) -> list[int]:
        """Living players other than the Minister (spell targets)."""
        return [s for s in self.living() if s != self.minister]

    def voldemort(self) -> int:
        """Voldemort's seat (the state's own code only: never shown before the end)."""
        return self.roles.index(VOLDEMORT)

    def sitting(self) -> int:
        """The Headmaster of the government in session."""
        if self.headmaster is None:
            raise ValueError("no government is in session")
        return self.headmaster

    def hold(self, seat: int, cards: list[str]) -> None:
        """``seat``'s phone now shows ``cards`` (and the seat has seen them for good)."""
        self.hands = {seat: list(cards)}
        self.seen = {**self.seen, seat: [*self.seen.get(seat, []), list(cards)]}

    def named(self, seats: list[int]) -> tuple[str, ...]:
        return tuple(self.names[s] for s in seats)
