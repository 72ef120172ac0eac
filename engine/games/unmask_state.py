"""Unmask the Death Eaters: the state the box keeps, grouped by how long each part lives.

The table keeps the physical board, cards and dice; the box keeps what it must know to
narrate, check and decide.  The whole game holds the seats, the board (:class:`Board`)
and the Loyalty cards (secret, one per seat); the set-up holds the first-Leader rolls
(:class:`FirstRolls`); each Encounter and its Battle hold what was gathered, revealed
and rolled (:class:`Encounter`, :class:`Pool`), cleared when it ends; the end holds the
nomination, the vote and the names submitted (:class:`Department`).  Seats are listed
clockwise, so "the player to the left" is the next seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.args import ArgSpec
from engine.games.unmask_rules import BEGINNING, Config
from engine.messages import Msg, listing, words
from engine.secrets import secret
from engine.steps import Asker, Handler, Move

_, _n = words("unmask")

# Steps, in the order a game goes through them.
FIRST_ROLL = "first_roll"  # each player rolls two dice for the first Leader
ENCOUNTER = "encounter"  # the Leader reveals an Encounter card (host enters it)
GROUP = "group"  # the Leader gathers the group
POOL = "pool"  # cards handed in: curses, optional swap, then the revealed cards
CURSED = "cursed"  # a swapped-in Curse turned up in the reveal: resolved at once, or the Death Eaters win
ROLL = "roll"  # the Leader rolls (and keeps and re-rolls) the dice
RESULT = "result"  # an Encounter only the host can judge (items, specific cards)
TOKEN = "token"  # after a success: which token was flipped
REVELIO_STEP = "revelio"  # the Revelio holder peeks
NOMINATE = "nominate"  # a Leader nominates the final Leader
VOTE = "vote"  # everyone votes on the nomination
ACCUSE = "accuse"  # the final Leader submits names
OVER = "over"  # the Moment of Truth has been told

IN_TURN = (ENCOUNTER, GROUP, POOL, CURSED, ROLL, RESULT, TOKEN)
FINAL = (REVELIO_STEP, NOMINATE, VOTE, ACCUSE)


def _over(state: UnmaskState) -> bool:
    return state.step == OVER


@dataclass
class FirstRolls:
    """Set-up: who still rolls for first Leader this round, and this round's totals."""

    contenders: list[int]
    totals: dict[int, int] = field(default_factory=dict)


@dataclass
class Card:
    """The revealed Encounter card, as entered: what the group must do."""

    name: str
    group: int
    check: str | None  # "cards_total" | "of_a_kind" | "dice_total" | "host"; None until tapped in
    target: int | None
    rolls: int | None
    needs: list[str] | None = None  # Location requirements (Locations, repeats allowed); None until tapped in


@dataclass
class Pool:
    """The cards handed in for an Encounter or its Battle, and the dice rolled on them."""

    swapped: bool = False
    cursing: bool = False  # the Leader found a Curse while looking: its effect is asked next
    looked: bool = False  # the Leader has looked and found no more Curses
    no_swap: bool = False  # the Leader chose not to swap
    ability: bool = False  # the Leader's ability was used for this pool: ``extra`` is what it claims
    extra: int = 0  # extra cards claimed (the pool counts one a group member at most)
    curses: int = 0
    revealed_curses: int = 0  # Curses among the revealed cards (the swapped-in card), being resolved
    card_dice: int | None = None
    dice: int = 0
    rolls: list[list[int]] = field(default_factory=list)


@dataclass
class Encounter:
    """One Leader's Encounter, and the Battle its token may bring."""

    card: Card | None = None
    battle: str | None = None  # the Dark Creature being battled, once its token is flipped
    group: list[int] = field(default_factory=list)
    left_out: int | None = None  # Expelliarmus took this player's wand for this Encounter
    short: bool = False  # a Location requirement went unmet because of it: no swap
    ability: str | None = None  # which of the Leader's two abilities is used this turn
    pool: Pool = field(default_factory=Pool)

    @property
    def context(self) -> str:
        return "battle" if self.battle else "encounter"


@dataclass
class Board:
    """The Threat Track, the tokens and the spell cards, for the whole game."""

    phase: str = BEGINNING
    pools: dict[str, list[str]] = field(default_factory=dict)  # face-down tokens per Phase
    filled: dict[str, list[str]] = field(default_factory=dict)  # board spaces filled per Phase
    snake: int = 0
    moved_turn: int | None = None
    penalty_until: int | None = None
    expelliarmus: int | None = None  # who holds the card
    revelio: int | None = None
    skip: int | None = None  # whose next turn Expelliarmus skips


def _revelio(state: UnmaskState) -> int | None:
    return state.board.revelio


@dataclass
class Department:
    """Step 13, before the Department of Magical Law Enforcement."""

    nominator: int
    peeks_allowed: int = 0
    peeks: dict[int, str] = secret(_("Revelio peeks"), owner=_revelio, shown=_over, default_factory=dict)
    nominee: int | None = None
    nominated: list[int] = field(default_factory=list)
    votes: dict[int, bool] = secret(
        _("vote"), per_seat=True, learned=False, summary=("voted", sorted), default_factory=dict
    )
    on_phone: list[int] = field(default_factory=list)  # seats whose vote was cast on their own phone
    last_vote: dict[str, Any] | None = None
    final_leader: int | None = None
    accused: list[int] = field(default_factory=list)
    outcome: str | None = None


@dataclass
class UnmaskState:
    names: list[str]
    cfg: Config
    talk: str
    step: str = FIRST_ROLL
    first: FirstRolls | None = None
    roles: dict[int, str] = field(default_factory=dict)  # each seat's Role card, by Location (face up)
    leader: int = 0  # the Leader once set-up is over
    turn: int = 0
    loyalty: list[str] = secret(_("Loyalty"), per_seat=True, shown=_over, default_factory=list)
    dealt: list[list[str]] = secret(_("Loyalty cards"), per_seat=True, shown=_over, default_factory=list)
    phase2_deck: list[str] = secret(_("Phase 2 Loyalty cards"), default_factory=list)
    board: Board = field(default_factory=Board)
    now: Encounter = field(default_factory=Encounter)
    final: Department | None = None
    story: list[dict[str, Any]] = field(default_factory=list)  # each Encounter's end, in order (public)

    @property
    def players(self) -> int:
        return len(self.names)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def penalty(self) -> bool:
        """The fourth-space penalty is in force (from the move until its Encounter ends)."""
        return self.board.penalty_until is not None

    def card(self) -> Card:
        """The Encounter card of the step in progress (every step after ``encounter`` has one)."""
        if self.now.card is None:
            raise ValueError("no Encounter card has been entered")
        return self.now.card

    def dept(self) -> Department:
        """The Department in the final steps."""
        if self.final is None:
            raise ValueError("the game is not before the Department")
        return self.final

    def leader_seat(self) -> list[int]:
        """Who may act for the Leader (as a move's ``by``)."""
        return [self.leader]

    def tell(self, won: bool) -> None:
        """Add this Encounter's (or Battle's) end to the game's story, told at the end."""
        card = self.now.card
        self.story.append(
            {
                "turn": self.turn,
                "leader": self.leader,
                "card": card.name if card else "",
                "battle": self.now.battle,
                "group": list(self.now.group),
                "won": won,
            }
        )

    def others(self, *excluded: int | None) -> tuple[str, ...]:
        """The names of every player but ``excluded``, in seat order (a prompt's options)."""
        return tuple(n for s, n in enumerate(self.names) if s not in excluded)


def names_of(names: Sequence[str], seats: Sequence[int]) -> Msg | str:
    """Seats said aloud: "Ann, Bob and Cat"."""
    return listing([names[s] for s in seats]) if seats else _("nobody")


def leader_move(
    kind: str, run: Handler[UnmaskState], ask: Asker[UnmaskState] | None = None, **args: ArgSpec
) -> Move[UnmaskState]:
    """A move the Leader makes (or the host for the table): most of a turn's moves."""
    return Move(kind, run, args=args, by=UnmaskState.leader_seat, role=_("Leader"), ask=ask)
