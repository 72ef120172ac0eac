"""Unmask the Death Eaters, a turn's start: the Leader, the Encounter card, the group,
and the moves possible at any time in a turn (Expelliarmus, the Table Talk mode).

The table plays the cards; the box is told what the Encounter card says, by a taught
deck in one go or tapped in one detail at a time on the host page.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import IllegalAction
from engine.args import PICK, ArgSpec, Choice, Number, Opt, Seat, Text, picked
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.unmask_rules import TALK_MODES
from engine.games.unmask_state import (
    ENCOUNTER,
    GROUP,
    IN_TURN,
    POOL,
    Card,
    Encounter,
    UnmaskState,
    leader_move,
    names_of,
)
from engine.steps import Move, Step

# How an Encounter is judged: the card total (no roll), dice alike, a dice total, or by the
# host (any other directive: specific items, Veritaserum...), as tapped -> as stored.
DIRECTIVES = {
    "card total": "cards_total",
    "dice of a kind": "of_a_kind",
    "dice total": "dice_total",
    "host judges": "host",
}
TARGETS = {"cards_total": (1, 99), "of_a_kind": (2, 6), "dice_total": (1, 36)}
TARGET_OPTIONS = {"cards_total": (1, 30), "of_a_kind": (2, 6), "dice_total": (2, 36)}
ROLLED = ("of_a_kind", "dice_total")


def begin_turn(state: UnmaskState) -> list[Effect]:
    """A new Leader's turn: say whose it is and remind the Table Talk mode."""
    state.turn += 1
    state.step = ENCOUNTER
    state.now = Encounter()
    leader = state.names[state.leader]
    effects: list[Effect] = [
        Say(f"{leader}, you are the Leader. Flip your wand face up and reveal an Encounter."),
        Say(f"Table Talk: {TALK_MODES[state.talk]}"),
    ]
    if state.penalty():
        effects.append(Say("The Snake's fourth-space penalty holds for this Encounter and its Battle."))
    return effects


# --- The Encounter card ---------------------------------------------------------------


def _players(state: UnmaskState) -> int:
    return state.players


def enter_encounter(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The revealed Encounter card: a whole card (from a taught deck) or, tapped on the
    host page, just its group size, the directive and its numbers following one by one."""
    if state.now.card is not None:
        raise IllegalAction("the Encounter is already revealed: enter its directive, or undo")
    args = turn.args
    if args["choice"] is not None:
        state.now.card = Card(name="the Encounter", group=args["choice"], check=None, target=None, rolls=None)
        return _encounter_entered(state)
    if args["group"] is None:
        raise IllegalAction("say how many players the Encounter's group needs")
    check = args["check"]
    target = None
    if check in TARGETS:
        low, high = TARGETS[check]
        if args["target"] is None or not low <= args["target"] <= high:
            raise IllegalAction(f"target for {check} must be a whole number from {low} to {high}")
        target = args["target"]
    rolls = (args["rolls"] or state.cfg.encounter_rolls) if check in ROLLED else None
    state.now.card = Card(name=args["name"], group=args["group"], check=check, target=target, rolls=rolls)
    return _encounter_entered(state)


def encounter_missing(state: UnmaskState) -> str | None:
    """Which part of the Encounter the host still has to tap in, if any."""
    card = state.now.card
    if card is None:
        return "encounter"
    if card.check is None:
        return "directive"
    if card.check in TARGETS and card.target is None:
        return "target"
    if card.check in ROLLED and card.rolls is None:
        return "rolls"
    return None


def encounter_detail(state: UnmaskState, turn: Turn) -> list[Effect]:
    """One tapped detail of the Encounter: its directive, its target, or its rolls."""
    missing = encounter_missing(state)
    if missing != turn.kind:
        raise IllegalAction(f"the Encounter needs its {missing or 'nothing more'} now, not its {turn.kind}")
    card = state.card()
    if turn.kind == "directive":
        card.check = DIRECTIVES[turn.args["choice"]]
    elif turn.kind == "target":
        low, high = TARGETS[card.check or ""]
        if not low <= turn.args["choice"] <= high:
            raise IllegalAction(f"target must be a whole number from {low} to {high}")
        card.target = turn.args["choice"]
    else:
        card.rolls = turn.args["choice"]
    return _encounter_entered(state)


def _encounter_entered(state: UnmaskState) -> list[Effect]:
    """Once the Encounter is complete, say it and move on to gathering the group."""
    if encounter_missing(state) is not None:
        return []
    card = state.card()
    state.step = GROUP
    return [
        Say(
            f"Encounter: {card.name}. {_directive(card)} "
            f"{state.names[state.leader]}, gather a group of {group_size(state)}, yourself included, "
            "meeting its Location requirements."
        )
    ]


def _directive(card: Card) -> str:
    if card.check == "cards_total":
        return f"The revealed cards must total {card.target} or more."
    if card.check == "of_a_kind":
        return f"Roll {card.target} of a kind, in up to {rolls_said(card.rolls or 0)}."
    if card.check == "dice_total":
        return f"Roll a total of {card.target} or more, in up to {rolls_said(card.rolls or 0)}."
    return "Follow the card's directive."


def rolls_said(count: int) -> str:
    return f"{count} {'roll' if count == 1 else 'rolls'}"


def _ask_encounter(state: UnmaskState) -> list[Expect]:
    """The Encounter card, tapped in a detail at a time (a taught deck sends it whole)."""
    missing, seat, leader = encounter_missing(state), state.leader, state.names[state.leader]
    if missing == "encounter":
        sizes = tuple(str(n) for n in range(2, state.players + 1))
        return [
            Expect.choice(
                "encounter",
                f"{leader}: reveal an Encounter. How many players in its group, Leader included?",
                sizes,
                seat=seat,
            )
        ]
    if missing == "directive":
        return [Expect.choice("directive", "How is this Encounter won?", tuple(DIRECTIVES), seat=seat)]
    if missing == "target":
        check = state.card().check or ""
        low, high = TARGET_OPTIONS[check]
        asked = {
            "cards_total": "What card total is needed?",
            "of_a_kind": "How many dice alike?",
            "dice_total": "What dice total is needed?",
        }
        return [Expect.choice("target", asked[check], tuple(str(n) for n in range(low, high + 1)), seat=seat)]
    if missing == "rolls":
        return [
            Expect.choice("rolls", "How many rolls does the card allow?", tuple(str(n) for n in range(1, 6)), seat=seat)
        ]
    return []


# --- The group ------------------------------------------------------------------------


def group_size(state: UnmaskState) -> int:
    """Players the group needs: the card's number, or everyone available if fewer (FAQ)."""
    available = state.players - (1 if state.now.left_out is not None else 0)
    return min(state.card().group, available)


def eligible_for_group(state: UnmaskState) -> list[int]:
    """Who the Leader may pick to join them (not themselves, not a player left out)."""
    return [s for s in range(state.players) if s not in (state.leader, state.now.left_out)]


def gather_group(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The Leader's group, picked on the page.  The Leader is always in it, so picking
    only the others is enough (the Leader is added)."""
    seats = picked(turn.args)
    if state.leader not in seats:
        seats = [state.leader] + seats
    left_out = state.now.left_out
    if left_out is not None and left_out in seats:
        raise IllegalAction(f"{state.names[left_out]} was left out by Expelliarmus")
    need = group_size(state)
    if len(seats) != need:
        raise IllegalAction(f"this Encounter needs a group of exactly {need}")
    state.now.group = seats
    state.step = POOL
    return [
        Say(
            f"The group: {names_of(state.names, seats)}. Each of you hands the Leader one card face down. "
            "Leader, shuffle them, look, and reveal any Curse at once."
        )
    ]


def _ask_group(state: UnmaskState) -> list[Expect]:
    """The Leader picks the others; a group of one (the Leader alone) is just confirmed."""
    others = group_size(state) - 1
    leader = state.names[state.leader]
    if others == 0:
        return [Expect("confirm", "group", f"{leader} faces this Encounter alone", seat=state.leader)]
    options = tuple(state.names[s] for s in eligible_for_group(state))
    return [
        Expect.choice(
            "group",
            f"{leader}: choose {others} {'player' if others == 1 else 'players'} to join you",
            options,
            seat=state.leader,
            count=others,
        )
    ]


# --- At any time in a turn ------------------------------------------------------------


def cast_expelliarmus(state: UnmaskState, turn: Turn) -> list[Effect]:
    """Expelliarmus (kinds ``skip_turn`` and ``leave_out``): skip a player's next turn as
    Leader, or leave a player out of this Encounter.  The card is used up either way.

    The rulebook does not say when it may be cast: the box allows it during any turn,
    a leave-out only before the group is gathered, and never on the Leader whose turn
    is already under way."""
    holder_seat, target = state.board.expelliarmus, turn.args["choice"]
    if target == holder_seat:
        raise IllegalAction("Expelliarmus is cast on another player")
    if target == state.leader:
        raise IllegalAction("the Leader's turn is already under way: choose another player")
    holder, name = state.names[holder_seat or 0], state.names[target]
    if turn.kind == "leave_out":
        if state.step not in (ENCOUNTER, GROUP):
            raise IllegalAction("a player can only be left out before the group is gathered")
        state.now.left_out = target
        said = f"Expelliarmus! {holder} takes {name}'s wand: {name} sits out this Encounter."
    else:
        state.board.skip = target
        said = f"Expelliarmus! {holder} takes {name}'s wand: {name} will miss their next turn as Leader."
    state.board.expelliarmus = None
    return [Say(said)]


def _expelliarmus_possible(state: UnmaskState) -> bool:
    return state.step in IN_TURN and state.board.expelliarmus is not None


def _expelliarmus_not_now(state: UnmaskState) -> str:
    if state.board.expelliarmus is None:
        return "no one holds the Expelliarmus card"
    return "Expelliarmus can only be cast during a turn"


def _ask_expelliarmus(kind: str, what: str) -> Callable[[UnmaskState], list[Expect]]:
    def ask(state: UnmaskState) -> list[Expect]:
        holder = state.board.expelliarmus
        if holder is None or state.step not in (ENCOUNTER, GROUP):
            return []
        others = state.others(holder, state.leader)
        return [Expect.choice(kind, f"{state.names[holder]}: Expelliarmus, {what} (optional)", others, seat=holder)]

    return ask


def _expelliarmus(kind: str, what: str) -> Move[UnmaskState]:
    return Move(
        kind,
        cast_expelliarmus,
        args={"choice": Seat()},
        by=lambda s: [s.board.expelliarmus],
        role="Expelliarmus holder",
        ask=_ask_expelliarmus(kind, what),
        when=_expelliarmus_possible,
        not_now=_expelliarmus_not_now,
    )


def set_talk(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The host changes the Table Talk mode."""
    state.talk = turn.args["choice"]
    return [Say(f"Table Talk: {TALK_MODES[state.talk]}")]


ANYTIME = (
    _expelliarmus("skip_turn", "skip a player's next turn"),
    _expelliarmus("leave_out", "leave a player out of this Encounter"),
    Move[UnmaskState]("talk", set_talk, args={"choice": Choice(tuple(TALK_MODES))}),
)


CARD: dict[str, ArgSpec] = {
    "choice": Opt(Number(1, _players)),
    "name": Opt(Text(60), "the Encounter"),
    "group": Opt(Number(1, _players)),
    "check": Opt(Choice((*DIRECTIVES.values(),)), "host"),
    "target": Opt(Number(1, 99)),
    "rolls": Opt(Number(1, 6)),
}

ENCOUNTER_STEP = Step[UnmaskState](
    ENCOUNTER,
    "the Leader is revealing an Encounter",
    (
        leader_move("encounter", enter_encounter, _ask_encounter, **CARD),
        leader_move("directive", encounter_detail, None, choice=Choice(tuple(DIRECTIVES))),
        leader_move("target", encounter_detail, None, choice=Number(1, 99)),
        leader_move("rolls", encounter_detail, None, choice=Number(1, 6)),
    ),
)

GROUP_STEP = Step[UnmaskState](
    GROUP, "the Leader is gathering the group", (leader_move("group", gather_group, _ask_group, **PICK),)
)
