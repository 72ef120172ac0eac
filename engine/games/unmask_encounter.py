"""Unmask the Death Eaters, a turn's start: the Leader, the Encounter card, the group,
and the moves possible at any time in a turn (Expelliarmus, the Table Talk mode).

The table plays the cards; the box is told what the Encounter card says, by a taught
deck in one go or tapped in one detail at a time on the host page.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from engine.actions import IllegalAction
from engine.args import ArgSpec, Choice, Either, Items, Number, Opt, Seat, Seats, Text, picked, whole_number
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.unmask_roles import Location, location_of
from engine.games.unmask_rules import LOCATION_NAMES, ROLE_NAMES, SIX_PLUS, TALK_MODES, requirements_met, unmet
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
from engine.messages import Msg, listing, words
from engine.steps import Move, Step

_, _n = words("unmask")

# How an Encounter is judged: the card total (no roll), dice alike, a dice total, or by the
# host (any other directive: specific items, Veritaserum...), as tapped -> as stored.
DIRECTIVES = {
    _("card total"): "cards_total",
    _("dice of a kind"): "of_a_kind",
    _("dice total"): "dice_total",
    _("host judges"): "host",
}
TARGETS = {"cards_total": (1, 30), "of_a_kind": (2, 6), "dice_total": (2, 36)}
"""Each directive's target, as offered and as accepted (one range for both): a card total
up to 30, two to six dice alike (six dice at most), a dice total two to 36."""
TARGET_MOST = max(high for _, high in TARGETS.values())
ROLLS = (1, 6)
"""The rolls an Encounter card may allow, as offered and as accepted."""
SMALLEST_GROUP = 2
"""A group is the Leader and the players who join them ("the number of players needed to
join the group. This group always includes the Leader"): two or more, as offered and as
accepted."""
ROLLED = ("of_a_kind", "dice_total")
NO_NEEDS = _("none")
_DETAIL = {
    "encounter": _("group size"),
    "directive": _("directive"),
    "target": _("target"),
    "rolls": _("rolls"),
    "locations": _("Location requirements"),
    None: _("nothing more"),
}
"""The parts of an Encounter card, as a refusal names them."""


UNNAMED = _("the Encounter")
"""An Encounter card the host did not name."""


def begin_turn(state: UnmaskState) -> list[Effect]:
    """A new Leader's turn: say whose it is (the Table Talk mode is said at the set-up and
    when the host changes it, not every turn: a reminder heard each turn is not heard)."""
    state.turn += 1
    state.step = ENCOUNTER
    state.now = Encounter()
    leader = state.names[state.leader]
    effects: list[Effect] = [
        Say(_("{name}, you are the Leader. Flip your wand face up and reveal an Encounter.", name=leader)),
    ]
    if state.penalty():
        effects.append(Say(_("The Snake's fourth-space penalty holds for this Encounter and its Battle.")))
    return effects


# --- The Encounter card ---------------------------------------------------------------


def _players(state: UnmaskState) -> int:
    return state.players


def enter_encounter(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The revealed Encounter card: a whole card (from a taught deck) or, tapped on the
    host page, just its group size, the directive and its numbers following one by one."""
    if state.now.card is not None:
        raise IllegalAction(_("the Encounter is already revealed: enter its directive, or undo"))
    args = dict(turn.args)
    if args["cards"] is not None:
        args.update(_from_deck(state, args["cards"]))
    if args["choice"] is not None:
        state.now.card = Card(name=UNNAMED, group=args["choice"], check=None, target=None, rolls=None)
        return _encounter_entered(state)
    if args["group"] is None:
        raise IllegalAction(_("say how many players the Encounter's group needs"))
    check = args["check"]
    target = None
    if check in TARGETS:
        low, high = TARGETS[check]
        if args["target"] is None or not low <= args["target"] <= high:
            raise IllegalAction(
                _("target for {check} must be a whole number from {lo} to {hi}", check=check, lo=low, hi=high)
            )
        target = args["target"]
    rolls = (args["rolls"] or state.cfg.encounter_rolls) if check in ROLLED else None
    needs = _checked_needs(args["needs"] or [], args["group"])
    state.now.card = Card(name=args["name"], group=args["group"], check=check, target=target, rolls=rolls, needs=needs)
    return _encounter_entered(state)


ENCOUNTER_DATA = ("card", "group", "check", "target", "rolls", "needs", "six_plus")
"""What a taught Encounter deck stores with each card (the card reader's per-card data):
``{"group": 6, "check": "cards_total", "target": 9, "needs": ["ministry"], "six_plus": true}``."""


def _from_deck(state: UnmaskState, cards: list[dict[str, Any]]) -> dict[str, Any]:
    """The Encounter card as the camera read it from a taught Encounter deck: its name and
    the data taught with it fill group size, directive, target, rolls and Locations at once."""
    if len(cards) != 1:
        raise IllegalAction(_("show one Encounter card at a time"))
    data = cards[0]
    if not isinstance(data, dict) or "group" not in data or set(data) - set(ENCOUNTER_DATA):
        raise IllegalAction(_("that is not a card of a taught Encounter deck: tap the Encounter in instead"))
    if data.get("six_plus") is True and state.players < SIX_PLUS:
        raise IllegalAction(
            _("this Encounter is marked 6+: with {count} players it goes back in the box", count=state.players)
        )
    check = data.get("check", "host")
    if check not in TARGETS and check != "host":
        raise IllegalAction(
            _("the taught card's directive must be one of: {checks}", checks=listing([*TARGETS, "host"], "or"))
        )
    return {
        "name": card_name(data.get("card")) or UNNAMED,
        "group": whole_number(data["group"], SMALLEST_GROUP, state.players, _("the taught card's group size")),
        "check": check,
        "target": None
        if data.get("target") is None
        else whole_number(data["target"], 1, TARGET_MOST, _("the taught card's target")),
        "rolls": None
        if data.get("rolls") is None
        else whole_number(data["rolls"], *ROLLS, _("the taught card's rolls")),
        "needs": [location_of(loc) for loc in data.get("needs") or []],
        "choice": None,
    }


def card_name(raw: Any) -> str | None:
    """A card's name as a taught deck reports it: text (trimmed, at most 60 characters),
    or none given; anything else (an object, a number) is refused, not dropped."""
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.isprintable():
        raise IllegalAction(_("a card's name must be printable text, not {value!r}", value=str(raw)[:40]))
    return " ".join(raw.split())[:60] or None


def _checked_needs(needs: list[str], group: int) -> list[str]:
    if len(needs) > group:
        raise IllegalAction(
            _("a group of {count} cannot meet more Location requirements than it has players", count=group)
        )
    return needs


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
    if card.needs is None:
        return "locations"
    return None


def encounter_detail(state: UnmaskState, turn: Turn) -> list[Effect]:
    """One tapped detail of the Encounter: its directive, its target, or its rolls."""
    missing = encounter_missing(state)
    if missing != turn.kind:
        raise IllegalAction(
            _(
                "the Encounter needs its {missing} now, not its {given}",
                missing=_DETAIL[missing],
                given=_DETAIL[turn.kind],
            )
        )
    card = state.card()
    if turn.kind == "directive":
        card.check = DIRECTIVES[turn.args["choice"]]
    elif turn.kind == "target":
        low, high = TARGETS[card.check or ""]
        if not low <= turn.args["choice"] <= high:
            raise IllegalAction(_("target must be a whole number from {lo} to {hi}", lo=low, hi=high))
        card.target = turn.args["choice"]
    elif turn.kind == "locations":
        chosen = turn.args["choices"] if turn.args["choices"] is not None else []
        if turn.args["choice"] is not None and turn.args["choice"] != NO_NEEDS:
            chosen = [location_of(turn.args["choice"])]
        card.needs = _checked_needs(chosen, card.group)
    else:
        card.rolls = turn.args["choice"]
    return _encounter_entered(state)


def _encounter_entered(state: UnmaskState) -> list[Effect]:
    """Once the Encounter is complete, say it and move on to gathering the group."""
    if encounter_missing(state) is not None:
        return []
    card = state.card()
    state.step = GROUP
    needs = (
        _("It needs players from: {locations}.", locations=listing([LOCATION_NAMES[loc] for loc in card.needs]))
        if card.needs
        else _("It has no Location requirements.")
    )
    said = dict(directive=_directive(card), name=state.names[state.leader], count=group_size(state), needs=needs)
    if card.name == UNNAMED:  # "Encounter: the Encounter" says nothing twice
        return [Say(_("{directive} {name}, gather a group of {count}, yourself included. {needs}", **said))]
    return [
        Say(
            _(
                "Encounter: {card}. {directive} {name}, gather a group of {count}, yourself included. {needs}",
                card=card.name,
                **said,
            )
        )
    ]


def _directive(card: Card) -> Msg:
    if card.check == "cards_total":
        return _("The revealed cards must total {target} or more.", target=card.target or 0)
    if card.check == "of_a_kind":
        return _(
            "Roll {target} of a kind, in up to {rolls}.", target=card.target or 0, rolls=rolls_said(card.rolls or 0)
        )
    if card.check == "dice_total":
        return _(
            "Roll a total of {target} or more, in up to {rolls}.",
            target=card.target or 0,
            rolls=rolls_said(card.rolls or 0),
        )
    return _("Follow the card's directive.")


def rolls_said(count: int) -> Msg:
    return _n("{count} roll", "{count} rolls", count)


def _ask_encounter(state: UnmaskState) -> list[Expect]:
    """The Encounter card, tapped in a detail at a time (a taught deck sends it whole)."""
    missing, seat, leader = encounter_missing(state), state.leader, state.names[state.leader]
    if missing == "encounter":
        sizes = tuple(str(n) for n in range(SMALLEST_GROUP, state.players + 1))
        shown = _("{name}: show the Encounter card to the camera (a taught Encounter deck)", name=leader)
        return [
            Expect.choice(
                "encounter",
                _("{name}: reveal an Encounter. How many players in its group, Leader included?", name=leader),
                sizes,
                seat=seat,
            ),
            Expect("cards", "encounter", shown, seat=seat, count=1),
        ]
    if missing == "directive":
        return [Expect.choice("directive", _("How is this Encounter won?"), tuple(DIRECTIVES), seat=seat)]
    if missing == "target":
        check = state.card().check or ""
        low, high = TARGETS[check]
        asked = {
            "cards_total": _("What card total is needed?"),
            "of_a_kind": _("How many dice alike?"),
            "dice_total": _("What dice total is needed?"),
        }
        return [Expect.choice("target", asked[check], tuple(str(n) for n in range(low, high + 1)), seat=seat)]
    if missing == "rolls":
        return [
            Expect.choice(
                "rolls",
                _("How many rolls does the card allow?"),
                tuple(str(n) for n in range(ROLLS[0], ROLLS[1] + 1)),
                seat=seat,
            )
        ]
    if missing == "locations":
        return _ask_locations(state)
    return []


def _ask_locations(state: UnmaskState) -> list[Expect]:
    """No requirement, or one prompt per number of required Locations (the card shows up
    to three; a Location needed twice is sent through the API as a list)."""
    seat, most = state.leader, min(3, state.card().group)
    names = tuple(LOCATION_NAMES.values())
    asked = [
        Expect.choice("locations", _("Does the card require players from certain Locations?"), (NO_NEEDS,), seat=seat)
    ]
    for count in range(1, most + 1):
        prompt = _n(
            "The card requires a player from {count} Location: which?",
            "The card requires players from {count} Locations: which?",
            count,
        )
        asked.append(Expect.choice("locations", prompt, names, seat=seat, count=count))
    return asked


# --- The group ------------------------------------------------------------------------


def group_size(state: UnmaskState) -> int:
    """Players the group needs: the card's number, or everyone available if fewer (FAQ)."""
    available = state.players - (1 if state.now.left_out is not None else 0)
    return min(state.card().group, available)


def eligible_for_group(state: UnmaskState) -> list[int]:
    """Who the Leader may pick to join them (not themselves, not a player left out)."""
    return [s for s in range(state.players) if s not in (state.leader, state.now.left_out)]


def _met(state: UnmaskState, seats: list[int]) -> int:
    return requirements_met(state.card().needs or [], [state.roles[s] for s in seats])


def _best(state: UnmaskState, excluded: int | None) -> int:
    """The most Location requirements any group of the right size can meet, when the
    player ``excluded`` (left out by Expelliarmus) cannot join."""
    others = [s for s in range(state.players) if s not in (state.leader, excluded)]
    size = min(state.card().group, len(others) + 1)
    return max(_met(state, [state.leader, *more]) for more in combinations(others, size - 1))


def legal_groups(state: UnmaskState) -> list[list[int]]:
    """Every group the Leader may gather: the right size, and "matching these requirements
    when possible": as many requirements met as any group of that size could meet."""
    others, leader = eligible_for_group(state), state.leader
    groups = [[leader, *more] for more in combinations(others, group_size(state) - 1)]
    best = _best(state, state.now.left_out)
    return [g for g in groups if _met(state, g) == best]


def _group_label(state: UnmaskState, group: list[int]) -> Msg | str:
    """A suggested group on its button: the players joining the Leader."""
    return names_of(state.names, group[1:])


def _suggestions(state: UnmaskState) -> tuple[str, ...]:
    if state.step != GROUP or not state.card().needs or len(state.roles) < state.players:
        return ()
    return tuple(_group_label(state, g) for g in legal_groups(state))


def _picked_group(state: UnmaskState, turn: Turn) -> list[int]:
    """The group as sent: a suggested group's label, a player, or a list of players."""
    choice = turn.args["choice"]
    if isinstance(choice, str):
        return next(g for g in legal_groups(state) if _group_label(state, g) == choice)
    seats = picked(turn.args)
    return seats if state.leader in seats else [state.leader] + seats


def gather_group(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The Leader's group, picked on the page.  The Leader is always in it, so picking
    only the others is enough (the Leader is added).  Every Role must be known, and the
    group must meet the Location requirements as far as any group could; when
    Expelliarmus is the reason one goes unmet, the Leader may not swap (the FAQ)."""
    missing = [state.names[s] for s in range(state.players) if s not in state.roles]
    if missing:
        raise IllegalAction(_("record every Role before the group is gathered: {names}", names=listing(missing)))
    seats = _picked_group(state, turn)
    left_out = state.now.left_out
    if left_out is not None and left_out in seats:
        raise IllegalAction(_("{name} was left out by Expelliarmus", name=state.names[left_out]))
    need = group_size(state)
    if len(seats) != need:
        raise IllegalAction(_("this Encounter needs a group of exactly {count}", count=need))
    needs = state.card().needs or []
    if _met(state, seats) < _best(state, left_out):
        lacking = listing([ROLE_NAMES[loc] for loc in unmet(needs, [state.roles[s] for s in seats])])
        raise IllegalAction(_("the group must meet the Location requirements it can: it lacks {roles}", roles=lacking))
    state.now.group = seats
    state.step = POOL
    effects: list[Effect] = [
        Say(
            _(
                "The group: {names}. Each of you hands the Leader one card face down. "
                "Leader, shuffle them, look, and reveal any Curse at once.",
                names=names_of(state.names, seats),
            )
        )
    ]
    if left_out is not None and _met(state, seats) < len(needs) and _best(state, None) > _met(state, seats):
        state.now.short = True
        effects.append(
            Say(_("A Location requirement cannot be met because of Expelliarmus: the Leader may not swap a card."))
        )
    return effects


def _ask_group(state: UnmaskState) -> list[Expect]:
    """The Leader picks the others (at least one joins: :data:`SMALLEST_GROUP`).  Nothing
    is asked until every Role is in (the Role prompts come first)."""
    if len(state.roles) < state.players:
        return []
    others = group_size(state) - 1
    leader = state.names[state.leader]
    suggested = _suggestions(state)
    if suggested:
        prompt = _("{name}: choose your group (each meets the Location requirements as far as possible)", name=leader)
        return [Expect.choice("group", prompt, suggested, seat=state.leader)]
    options = tuple(state.names[s] for s in eligible_for_group(state))
    return [
        Expect.choice(
            "group",
            _n(
                "{name}: choose {count} player to join you",
                "{name}: choose {count} players to join you",
                others,
                name=leader,
            ),
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
        raise IllegalAction(_("Expelliarmus is cast on another player"))
    if target == state.leader:
        raise IllegalAction(_("the Leader's turn is already under way: choose another player"))
    holder, name = state.names[holder_seat or 0], state.names[target]
    if turn.kind == "leave_out":
        if state.step not in (ENCOUNTER, GROUP):
            raise IllegalAction(_("a player can only be left out before the group is gathered"))
        state.now.left_out = target
        said = _(
            "Expelliarmus! {holder} takes {name}'s wand: {name} sits out this Encounter.", holder=holder, name=name
        )
    else:
        state.board.skip = target
        said = _(
            "Expelliarmus! {holder} takes {name}'s wand: {name} will miss their next turn as Leader.",
            holder=holder,
            name=name,
        )
    state.board.expelliarmus = None
    return [Say(said)]


def _expelliarmus_possible(state: UnmaskState) -> bool:
    return state.step in IN_TURN and state.board.expelliarmus is not None


def _expelliarmus_not_now(state: UnmaskState) -> str:
    if state.board.expelliarmus is None:
        return _("no one holds the Expelliarmus card")
    return _("Expelliarmus can only be cast during a turn")


def _ask_expelliarmus(kind: str, what: Msg) -> Callable[[UnmaskState], list[Expect]]:
    def ask(state: UnmaskState) -> list[Expect]:
        holder = state.board.expelliarmus
        if holder is None or state.step not in (ENCOUNTER, GROUP):
            return []
        others = state.others(holder, state.leader)
        prompt = _("{name}: Expelliarmus, {what} (optional)", name=state.names[holder], what=what)
        return [Expect.choice(kind, prompt, others, seat=holder, optional=True)]

    return ask


def _expelliarmus(kind: str, what: Msg) -> Move[UnmaskState]:
    return Move(
        kind,
        cast_expelliarmus,
        args={"choice": Seat()},
        by=lambda s: [s.board.expelliarmus],
        role=_("Expelliarmus holder"),
        ask=_ask_expelliarmus(kind, what),
        when=_expelliarmus_possible,
        not_now=_expelliarmus_not_now,
    )


def set_talk(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The host changes the Table Talk mode."""
    state.talk = turn.args["choice"]
    return [Say(_("Table Talk: {mode}", mode=TALK_MODES[state.talk]))]


ANYTIME = (
    _expelliarmus("skip_turn", _("skip a player's next turn")),
    _expelliarmus("leave_out", _("leave a player out of this Encounter")),
    Move[UnmaskState]("talk", set_talk, args={"choice": Choice(tuple(TALK_MODES))}),
)


CARD: dict[str, ArgSpec] = {
    "choice": Opt(Number(SMALLEST_GROUP, _players)),
    "name": Opt(Text(60), UNNAMED),
    "group": Opt(Number(SMALLEST_GROUP, _players)),
    "check": Opt(Choice((*DIRECTIVES.values(),)), "host"),
    "target": Opt(Number(1, TARGET_MOST)),
    "rolls": Opt(Number(*ROLLS)),
    "needs": Opt(Items(location_of, 8)),
    "cards": Opt(Items(lambda item: item, 1)),
}

ENCOUNTER_STEP = Step[UnmaskState](
    ENCOUNTER,
    _("the Leader is revealing an Encounter"),
    (
        leader_move("encounter", enter_encounter, _ask_encounter, **CARD),
        leader_move("directive", encounter_detail, None, choice=Choice(tuple(DIRECTIVES))),
        leader_move("target", encounter_detail, None, choice=Number(1, TARGET_MOST)),
        leader_move("rolls", encounter_detail, None, choice=Number(*ROLLS)),
        leader_move(
            "locations",
            encounter_detail,
            None,
            choice=Opt(Either((Choice((NO_NEEDS,)), Location()))),
            choices=Opt(Items(location_of, 8)),
        ),
    ),
)

GROUP_STEP = Step[UnmaskState](
    GROUP,
    _("the Leader is gathering the group"),
    (
        leader_move(
            "group",
            gather_group,
            _ask_group,
            choice=Opt(Either((Choice(_suggestions), Seat()))),
            choices=Opt(Seats()),
        ),
    ),
)
