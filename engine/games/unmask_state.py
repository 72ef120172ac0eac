"""Unmask the Death Eaters: the state the box keeps, and how actions name seats and values.

The table keeps the physical board, cards and dice; the box keeps what it must know to
narrate, check and decide: the Leader, the Snake, tokens placed, the current Encounter
or Battle, every Loyalty (secret) and the final vote.  Seats are listed clockwise, so
"the player to the left" is the next seat.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, IllegalAction
from engine.games.unmask_rules import BEGINNING, Config

# Steps, in the order a game goes through them.
FIRST_ROLL = "first_roll"  # each player rolls two dice for the first Leader
ENCOUNTER = "encounter"  # the Leader reveals an Encounter card (host enters it)
GROUP = "group"  # the Leader gathers the group
POOL = "pool"  # cards handed in: curses, optional swap, then the revealed cards
ROLL = "roll"  # the Leader rolls (and keeps and re-rolls) the dice
RESULT = "result"  # an Encounter only the host can judge (items, specific cards)
TOKEN = "token"  # after a success: which token was flipped
REVELIO_STEP = "revelio"  # the Revelio holder peeks
NOMINATE = "nominate"  # a Leader nominates the final Leader
VOTE = "vote"  # everyone votes on the nomination
ACCUSE = "accuse"  # the final Leader submits names
OVER = "over"  # the Moment of Truth has been told

IN_TURN = (ENCOUNTER, GROUP, POOL, ROLL, RESULT, TOKEN)
FINAL = (REVELIO_STEP, NOMINATE, VOTE, ACCUSE)


@dataclass
class Encounter:
    """The revealed Encounter card, as entered: what the group must do."""

    name: str
    group: int
    check: str | None  # "cards_total" | "of_a_kind" | "dice_total" | "host"; None until tapped in
    target: int | None
    rolls: int | None


@dataclass
class UnmaskState:
    names: list[str]
    cfg: Config
    talk: str
    step: str = FIRST_ROLL
    # first Leader: who still rolls this round, and this round's totals
    contenders: list[int] = field(default_factory=list)
    first_rolls: dict[int, int] = field(default_factory=dict)
    leader: int | None = None
    turn: int = 0
    # secrets: never in public_view until the Moment of Truth
    loyalty: list[str] = field(default_factory=list)
    dealt: list[list[str]] = field(default_factory=list)
    phase2_deck: list[str] = field(default_factory=list)
    # the board
    phase: str = BEGINNING
    pools: dict[str, list[str]] = field(default_factory=dict)
    filled: dict[str, list[str]] = field(default_factory=dict)
    snake: int = 0
    moved_turn: int | None = None
    penalty_until: int | None = None
    expelliarmus: int | None = None
    revelio: int | None = None
    left_out: int | None = None
    skip: int | None = None
    # the Encounter or Battle in progress
    encounter: Encounter | None = None
    context: str = "encounter"  # or "battle"
    creature: str | None = None
    group: list[int] = field(default_factory=list)
    short: bool = False
    swapped: bool = False
    curses: int = 0
    card_dice: int | None = None
    dice: int = 0
    rolls: list[list[int]] = field(default_factory=list)
    # before the Department of Magical Law Enforcement
    peeks_allowed: int = 0
    peeks: dict[int, str] = field(default_factory=dict)
    nominator: int | None = None
    nominee: int | None = None
    nominated: list[int] = field(default_factory=list)
    votes: dict[int, bool] = field(default_factory=dict)
    last_vote: dict[str, Any] | None = None
    final_leader: int | None = None
    accused: list[int] = field(default_factory=list)
    outcome: str | None = None

    @property
    def players(self) -> int:
        return len(self.names)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def penalty(self) -> bool:
        """The fourth-space penalty is in force (from the move until its Encounter ends)."""
        return self.penalty_until is not None


def seat_arg(state: UnmaskState, raw: Any, what: str = "seat") -> int:
    """A seat named by its number or its exact name (the host page may send either)."""
    if isinstance(raw, str):
        for seat, name in enumerate(state.names):
            if name.casefold() == raw.strip().casefold():
                return seat
        raise IllegalAction(f"no player called {raw!r}")
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < state.players:
        raise IllegalAction(f"{what} must be a seat number from 0 to {state.players - 1} or a player's name")
    return raw


def seats_arg(state: UnmaskState, raw: Any, what: str = "seats") -> list[int]:
    """Distinct seats from a list of numbers or names."""
    if not isinstance(raw, list):
        raise IllegalAction(f"{what} must be a list of players")
    seats = [seat_arg(state, r, what) for r in raw]
    if len(set(seats)) != len(seats):
        raise IllegalAction(f"{what} names a player twice")
    return seats


def choice_arg(action: Action, options: tuple[str, ...]) -> str:
    """A one-option answer, ``{"choice": option}`` as the host page and phones send it."""
    raw = action.data.get("choice")
    text = str(raw).strip().lower() if isinstance(raw, (str, int)) and not isinstance(raw, bool) else None
    if text not in options:
        raise IllegalAction(f"choose one of: {', '.join(options)}")
    return text


def picked_seats(state: UnmaskState, action: Action) -> list[int]:
    """Players picked on a page: ``{"choices": [...]}`` for several, ``{"choice": p}`` for one."""
    if "choices" in action.data:
        return seats_arg(state, action.data["choices"], "choices")
    if "choice" in action.data:
        return [seat_arg(state, action.data["choice"], "choice")]
    return []


def bool_arg(raw: Any, what: str) -> bool:
    if not isinstance(raw, bool):
        raise IllegalAction(f"{what} must be true or false")
    return raw


def require_step(state: UnmaskState, action: Action, *steps: str) -> None:
    """Refuse an action out of its step, saying what the table is doing instead."""
    if state.step not in steps:
        raise IllegalAction(f"{action.kind!r} is not possible now: the game is at step {state.step!r}")


def require_actor(state: UnmaskState, action: Action, seat: int | None, role: str) -> None:
    """Only the host (seat None) or ``seat`` itself may take this action."""
    if action.seat is not None and action.seat != seat:
        who = state.names[seat] if seat is not None else "the host"
        raise IllegalAction(f"only {who} ({role}) or the host can do that")


def names_of(state: UnmaskState, seats: list[int]) -> str:
    """Seats said aloud: "Ann, Bob and Cat"."""
    names = [state.names[s] for s in seats]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
