"""Unmask the Death Eaters: the Role cards (each seat's Location) and the Leader abilities.

Set-up step 1: "Players must choose a Role from one of the stacks with the most
remaining Cards."  The box records each seat's Role (on its phone, or by the host for
it) while the first Leader is rolled for; the Role cards lie face up, so Roles are
public, and the group cannot be gathered until every Role is in.

"The Leader is the only player who may use an ability and they choose only one of their
two abilities to use per turn."  The abilities themselves are printed on the Role
cards, not in the rulebook, so the box records which of the two the Leader uses (once a
turn, the Leader only) and applies the one effect the rulebook names: an ability that
"allows them to turn in an extra card" raises the pool's size by what the host enters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice, Number, Opt, Seat, Where
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.unmask_rules import LOCATION_NAMES, LOCATIONS, ROLE_NAMES, open_stacks
from engine.games.unmask_state import ENCOUNTER, FIRST_ROLL, GROUP, POOL, UnmaskState
from engine.messages import listing, words
from engine.steps import Move

_, _n = words("unmask")

ROLE_STEPS = (FIRST_ROLL, ENCOUNTER, GROUP)
"""Roles are recorded during set-up; one still missing can be entered until the group is gathered."""
ABILITY_STEPS = (ENCOUNTER, GROUP, POOL)
ABILITIES = (_("first ability"), _("second ability"))


def location_of(raw: Any) -> str:
    """A Location named by its key, its Location name or its Role card's name."""
    text = str(raw).strip().casefold() if isinstance(raw, str) else ""
    for loc in LOCATIONS:
        if text in (loc, LOCATION_NAMES[loc].casefold(), ROLE_NAMES[loc].casefold()):
            return loc
    raise IllegalAction(_("choose a Location: {options}", options=listing(list(LOCATION_NAMES.values()), "or")))


@dataclass(frozen=True)
class Location:
    """An argument naming one Location (see :func:`location_of`)."""

    def parse(self, raw: Any, where: Where, what: str) -> str:
        return location_of(raw)


def without_role(state: UnmaskState) -> list[int]:
    return [s for s in range(state.players) if s not in state.roles]


def take_role(state: UnmaskState, turn: Turn) -> list[Effect]:
    """One seat's Role, one some order of taking from the fullest stacks allows (see
    :func:`roles_possible`); the host names the seat."""
    seat = turn.own_seat(_("you can only record your own Role"), _("say whose Role this is: seat"))
    name = state.names[seat]
    if seat in state.roles:
        raise IllegalAction(_("{name} already has a Role: {role}", name=name, role=ROLE_NAMES[state.roles[seat]]))
    loc, stacks = turn.args["choice"], open_stacks(list(state.roles.values()), state.players)
    if loc not in stacks:
        roles = listing([ROLE_NAMES[s] for s in stacks], "or")
        raise IllegalAction(
            _(
                "each Role came from a stack with the most cards left: with the Roles already recorded, "
                "{name} took {roles}",
                name=name,
                roles=roles,
            )
        )
    state.roles[seat] = loc
    return [Say(_("{name} takes the {role} card.", name=name, role=ROLE_NAMES[loc]))]


def _ask_role(state: UnmaskState) -> list[Expect]:
    options = tuple(ROLE_NAMES[loc] for loc in open_stacks(list(state.roles.values()), state.players))
    return [
        Expect.choice("role", _("{name}: which Role card did you take?", name=state.names[s]), options, seat=s)
        for s in without_role(state)
    ]


def roles_missing(state: UnmaskState) -> bool:
    return state.step in ROLE_STEPS and bool(without_role(state))


def use_ability(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The Leader uses one of their two abilities, once a turn; ``extra`` is how many extra
    cards it lets the group hand in (the only effect the rulebook itself names).  The
    ability serves the pool in progress (the Encounter's, or the Battle's if used then):
    a Battle after it starts a pool without extras."""
    if state.now.ability is not None:
        raise IllegalAction(_("the Leader uses only one of their two abilities per turn"))
    which, extra = turn.args["choice"], turn.args["extra"]
    _check_extra(state, extra)
    state.now.ability = which
    state.now.pool.ability, state.now.pool.extra = True, extra
    name, role = state.names[state.leader], ROLE_NAMES[state.roles[state.leader]]
    said = _("{name} uses a Leader ability: the {which} of the {role} card.", name=name, which=which, role=role)
    if extra:
        said = _n(
            "{name} uses a Leader ability: the {which} of the {role} card; the group may hand in {count} extra card.",
            "{name} uses a Leader ability: the {which} of the {role} card; the group may hand in {count} extra cards.",
            extra,
            name=name,
            which=which,
            role=role,
        )
    return [Say(said)]


def handed_in(state: UnmaskState, extra: int | None = None) -> int:
    """The cards handed in to the pool in progress: "one Wizarding World card" from each
    group member, "unless a Leader ability allows them to turn in an extra card": at
    most one extra a member, so an extra claimed before the group was known counts only
    as far as the group can hand it in.  ``extra``: as if that many were claimed."""
    members = len(state.now.group)
    return members + min(state.now.pool.extra if extra is None else extra, members)


def _check_extra(state: UnmaskState, extra: int) -> None:
    """At most one extra card a member; and never fewer cards than the Curses already
    discarded from the pool (those were handed in)."""
    limit = len(state.now.group) if state.now.group else state.players
    if extra > limit:
        raise IllegalAction(_("each group member hands in at most one extra card"))
    curses = state.now.pool.curses
    if state.now.group and handed_in(state, extra) < curses:
        raise IllegalAction(
            _n(
                "{count} Curse was already discarded from this pool: the group handed in at least that many cards",
                "{count} Curses were already discarded from this pool: the group handed in at least that many cards",
                curses,
            )
        )


def extra_cards(state: UnmaskState, turn: Turn) -> list[Effect]:
    """How many extra cards the Leader's ability let the group hand in, entered once the
    group is known (the host page's way to say it)."""
    extra = turn.args["choice"]
    _check_extra(state, extra)
    state.now.pool.extra = extra
    return [Say(_n("The pool takes {count} extra card.", "The pool takes {count} extra cards.", extra))]


def _extra_possible(state: UnmaskState) -> bool:
    pool = state.now.pool
    return state.step == POOL and pool.ability and pool.card_dice is None


def _ask_extra(state: UnmaskState) -> list[Expect]:
    """The extras the engine takes: one a member at most, never fewer cards than the Curses discarded."""
    curses = state.now.pool.curses
    options = tuple(str(n) for n in range(1, len(state.now.group) + 1) if handed_in(state, n) >= curses)
    prompt = _("Did the Leader ability let the group hand in extra cards? How many? (optional)")
    return [Expect.choice("extra_cards", prompt, options, seat=state.leader, optional=True)]


def _ability_possible(state: UnmaskState) -> bool:
    return (
        state.step in ABILITY_STEPS
        and state.now.ability is None
        and state.leader in state.roles
        and state.now.pool.card_dice is None
    )


def _ask_ability(state: UnmaskState) -> list[Expect]:
    prompt = _(
        "{name}: use a Leader ability of your {role} card? (optional, one per turn)",
        name=state.names[state.leader],
        role=ROLE_NAMES[state.roles[state.leader]],
    )
    return [Expect.choice("ability", prompt, ABILITIES, seat=state.leader, optional=True)]


def _ability_not_now(state: UnmaskState) -> str:
    if state.now.ability is not None:
        return _("the Leader uses only one of their two abilities per turn")
    return _("a Leader ability is used during the Leader's turn, before the cards are revealed")


ROLE_MOVES = (
    Move[UnmaskState](
        "role",
        take_role,
        args={"choice": Location(), "seat": Opt(Seat())},
        by=without_role,
        role=_("choosing a Role"),
        ask=_ask_role,
        when=roles_missing,
        not_now=_("every Role is already recorded"),
    ),
    Move[UnmaskState](
        "ability",
        use_ability,
        args={"choice": Choice(ABILITIES), "extra": Opt(Number(0, lambda s: s.players), 0)},
        by=UnmaskState.leader_seat,
        role=_("Leader"),
        ask=_ask_ability,
        when=_ability_possible,
        not_now=_ability_not_now,
    ),
    Move[UnmaskState](
        "extra_cards",
        extra_cards,
        args={"choice": Number(0, lambda s: s.players)},
        by=UnmaskState.leader_seat,
        role=_("Leader"),
        ask=_ask_extra,
        when=_extra_possible,
        not_now=_("extra cards are entered after a Leader ability used for this pool, before the cards are revealed"),
    ),
)
