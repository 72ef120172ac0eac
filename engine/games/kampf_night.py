"""Kampf gegen die dunklen Mächte: the night, call by call, and with digital cards every
night action carried out on the phones.

A call wakes the seats dealt its role (ONUW: even if the card has been taken since;
a card moved to another player does not wake that player).  What a call shows without
being asked (the other Death Eater, the twin, McGonagall's own card) is put on the
phones as it begins; what it may or must do is a secret prompt to those seats alone,
taken at any moment of the call's fixed time.  Answering says nothing and changes
nothing anyone else can see; a call's time never depends on it.  A swap the rulebook
makes compulsory (Sirius, Dumbledore once he has looked, Neville, Ron) that is still
not made when the time runs out is made by the box at random and the seat is told:
the night must still be the rulebook's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.actions import IllegalAction
from engine.args import ArgSpec, Choice, Items, Opt, Text
from engine.effects import TIMER_DONE, Effect, Expect
from engine.game import Turn
from engine.games import kampf_calls as calls
from engine.games.kampf_day import dawn
from engine.games.kampf_roles import (
    CENTRE,
    CENTRE_NAME,
    DEATH_EATER,
    DUMBLEDORE,
    HARRY,
    HERMIONE,
    MCGONAGALL,
    NEVILLE,
    RON,
    SIRIUS,
    SPELL,
    TWINS,
)
from engine.games.kampf_state import NIGHT, NIGHT_TIMER, KampfState
from engine.messages import Msg, listing, words
from engine.steps import Move, Step

_, _n = words("kampf")

Meaning = tuple[Any, ...]
"""What an option means: ("seat", s), ("centre", i), ("pair", i, j), ("look",), ("none",)."""


class Option(NamedTuple):
    """One option of a night prompt: ``value`` is what a page sends back, a fixed word or
    ``"seat N"``, never a player's name, so a player called "Nothing" or "My own card"
    cannot hide an option; ``label`` is what the phone shows."""

    value: str
    label: str
    meaning: Meaning


Offer = list[Option]
"""A prompt's options."""

LONE = "lone"
LOOK = "look"
SWAP = "swap"
GIVE = "give"
SIRIUS_LOOK = "sirius_look"
STAGES = {
    DEATH_EATER: LONE,
    HERMIONE: HERMIONE,
    SIRIUS: SWAP,
    DUMBLEDORE: LOOK,
    NEVILLE: NEVILLE,
    RON: RON,
    HARRY: HARRY,
}
"""The prompt each call opens on its seats' phones (the others only show)."""
FORCED = {SWAP, GIVE, NEVILLE, RON}
"""Stages whose swap the rulebook makes compulsory."""

PROMPT: dict[str, Msg] = {
    LONE: _("You are the only Death Eater: you may look at one card in the middle."),
    HERMIONE: _("{spell} You may look at another player's card or at two cards in the middle.", spell=SPELL[HERMIONE]),
    SWAP: _("{spell} Swap your card with another player's card.", spell=SPELL[SIRIUS]),
    LOOK: _("{spell} You may look at one card in the middle.", spell=SPELL[DUMBLEDORE]),
    GIVE: _("Exchange that card, without looking, for another player's card or your own."),
    NEVILLE: _("{spell} Swap the cards of two other players.", spell=SPELL[NEVILLE]),
    RON: _("{spell} Swap your card with a card in the middle, without looking.", spell=SPELL[RON]),
    HARRY: _("{spell} You may turn another player's card face up for the day.", spell=SPELL[HARRY]),
    SIRIUS_LOOK: _("You may look at your new card."),
}
"""Each stage's prompt, with the role card's spell as printed."""
NOTHING = _("nothing")
NONE = "nothing"
LOOK_VALUE = "look"
PAIRS = ((0, 1), (0, 2), (1, 2))
PAIR_NAME = (
    _("the left and the middle card in the middle"),
    _("the left and the right card in the middle"),
    _("the middle and the right card in the middle"),
)


def start(state: KampfState, turn: Turn) -> list[Effect]:
    state.step, state.call = NIGHT, -1
    return calls.falls() + _next(state)


def _next(state: KampfState) -> list[Effect]:
    state.call += 1
    if state.call >= len(state.calls):
        return dawn(state)
    call = state.calls[state.call]
    if state.digital:
        _wake(state, call)
    return calls.wake(call, state.digital)


def call_over(state: KampfState, turn: Turn) -> list[Effect]:
    """The call's time has run out: compulsory swaps not made are made, eyes close."""
    call = state.calls[state.call]
    if state.digital:
        for seat in sorted(state.stage):
            _finish(state, seat, turn)
        state.stage = {}
    return calls.sleep(call) + _next(state)


def _wake(state: KampfState, call: str) -> None:
    """What the call shows its seats at once, and the prompt it opens for each."""
    seats = state.awake(call)
    # ONUW: "lone" is by the cards dealt: a Death Eater whose partner's card is in the
    # middle (nothing has moved before call 1).
    if call == DEATH_EATER and len(seats) == 2:
        for seat in seats:
            state.note(seat, kind="partner", **{"with": next(s for s in seats if s != seat)})
        return
    if call == TWINS:
        for seat in seats:
            twin = [s for s in seats if s != seat]
            if twin:
                state.note(seat, kind="twin", **{"with": twin[0]})
            else:
                state.note(seat, kind="twin_alone")
        return
    if call == MCGONAGALL:
        for seat in seats:
            state.note(seat, kind="mine", role=state.cards[seat])
        return
    for seat in seats:
        state.stage[seat] = STAGES[call]


def options(state: KampfState, seat: int) -> Offer:
    """What ``seat``'s prompt offers now."""
    stage = state.stage.get(seat)
    centre = [Option(c, CENTRE_NAME[c], ("centre", i)) for i, c in enumerate(CENTRE)]
    others = [_player(state, s) for s in state.others(seat)]
    nothing = [Option(NONE, NOTHING, ("none",))]
    pairs = [Option(f"{CENTRE[i]}+{CENTRE[j]}", PAIR_NAME[k], ("pair", i, j)) for k, (i, j) in enumerate(PAIRS)]
    offered: dict[str | None, Offer] = {
        LONE: centre + nothing,
        HERMIONE: others + pairs + nothing,
        SWAP: others,
        SIRIUS_LOOK: [
            Option(LOOK_VALUE, _("look at my new card"), ("look",)),
            Option(NONE, _("do not look"), ("none",)),
        ],
        LOOK: centre + nothing,
        GIVE: others + [Option(_seat_value(seat), _("my own card"), ("seat", seat))],
        NEVILLE: others,
        RON: centre,
        HARRY: others + nothing,
    }
    return offered.get(stage, [])


def _seat_value(seat: int) -> str:
    return f"seat {seat}"


def _player(state: KampfState, seat: int) -> Option:
    return Option(_seat_value(seat), state.names[seat], ("seat", seat))


def ask(state: KampfState) -> list[Expect]:
    """Each awake seat's own prompt, shown on its phone alone."""
    return [_prompt(state, seat, stage) for seat, stage in sorted(state.stage.items())]


def _prompt(state: KampfState, seat: int, stage: str) -> Expect:
    """The prompt's options are their values; the phone shows their labels."""
    offered = options(state, seat)
    values = tuple(o.value for o in offered)
    asked = Expect.choice("act", PROMPT[stage], values, seat=seat, count=2 if stage == NEVILLE else 1, secret=True)
    return dataclasses.replace(asked, labels=tuple(o.label for o in offered))


ARGS: dict[str, ArgSpec] = {"choice": Opt(Text()), "choices": Opt(Items(str, 2))}


def act(state: KampfState, turn: Turn) -> list[Effect]:
    """A seat's answer to its night prompt.  Says nothing: the table must not hear it."""
    seat = turn.seat
    if seat is None or seat not in state.stage:
        raise IllegalAction(_("there is nothing for you to do now"))
    picked = _picked(state, seat, turn.args)
    _do(state, seat, state.stage.pop(seat), picked)
    return []


def _picked(state: KampfState, seat: int, args: Mapping[str, Any]) -> list[Meaning]:
    offered = options(state, seat)
    wanted = 2 if state.stage[seat] == NEVILLE else 1
    raw = args["choices"] if args.get("choices") is not None else [args["choice"]] if args.get("choice") else []
    meanings = [_match(offered, text) for text in raw]
    if len(meanings) != wanted or len(set(meanings)) != wanted:
        raise IllegalAction(_n("choose one option", "choose {count} different options", wanted))
    return meanings


def _match(offered: Offer, text: str) -> Meaning:
    """The option ``text`` names: its value (what a page sends; a value always wins), else
    a label that names that option alone; a label two options share (Dumbledore's "my own
    card" at a table with a player called "My own card") is refused, never taken as either."""
    wanted = " ".join(text.split()).casefold()
    by_value = [o for o in offered if o.value == wanted]
    by_label = by_value or [o for o in offered if " ".join(o.label.split()).casefold() == wanted]
    if len(by_label) == 1:
        return by_label[0].meaning
    listed = listing([_("{value} ({label})", value=o.value, label=o.label) for o in offered], "or")
    if by_label:
        raise IllegalAction(
            _("{text!r} names more than one option: send one of {options}", text=text[:40], options=listed)
        )
    raise IllegalAction(_("choose one of: {options}", options=listed))


def _do(state: KampfState, seat: int, stage: str, picked: list[Meaning]) -> None:
    """Carry out one answer (``picked`` as offered) on the cards, and tell the seat."""
    first = picked[0]
    if first == ("none",):
        if stage != SIRIUS_LOOK:  # Sirius has swapped: not looking is no "nothing"
            state.note(seat, kind="nothing")
        return
    # ONUW: Dumbledore (the Witch) sees only the middle card he picked; the card he
    # takes from a player goes to that place face down, unseen.
    if stage == LONE or stage == LOOK:
        at = state.centre(first[1])
        state.note(seat, kind="looked", at=at, role=state.cards[at])
        if stage == LOOK:
            state.stage[seat] = GIVE
    elif stage == HERMIONE:
        places = [first[1]] if first[0] == "seat" else [state.centre(i) for i in first[1:]]
        for at in places:
            state.note(seat, kind="looked", at=at, role=state.cards[at])
    elif stage == SWAP:
        _swap(state, seat, first[1])
        state.note(seat, kind="took", **{"with": first[1]})
        state.stage[seat] = SIRIUS_LOOK
    elif stage == SIRIUS_LOOK:
        state.note(seat, kind="new_card", role=state.cards[seat])
    elif stage == GIVE:
        at = next(n["at"] for n in reversed(state.notes[seat]) if n["kind"] == "looked")
        _swap(state, at, first[1])
        state.note(seat, kind="exchanged", at=at, **{"with": first[1]})
    elif stage == NEVILLE:
        _swap(state, first[1], picked[1][1])
        state.note(seat, kind="neville", first=first[1], second=picked[1][1])
    elif stage == RON:
        _swap(state, seat, state.centre(first[1]))
        state.note(seat, kind="ron", at=state.centre(first[1]))
    elif stage == HARRY:
        _reveal(state, seat, first[1])


def _swap(state: KampfState, a: int, b: int) -> None:
    state.cards[a], state.cards[b] = state.cards[b], state.cards[a]


def _reveal(state: KampfState, seat: int, target: int) -> None:
    """Harry's card stays face up for the day, unless it is a Death Eater: then only
    Harry has seen it."""
    role = state.cards[target]
    if role == DEATH_EATER:
        state.note(seat, kind="turned_back", at=target, role=role)
        return
    state.face_up[target] = role
    state.note(seat, kind="revealed", at=target, role=role)


def _finish(state: KampfState, seat: int, turn: Turn) -> None:
    """A seat's time is up: a compulsory swap is made at random, an optional one skipped."""
    stage = state.stage[seat]
    if stage not in FORCED:
        _do(state, seat, stage, [("none",)])
        return
    offered = [o.meaning for o in options(state, seat)]
    chosen = turn.random("forced", state.call, seat).sample(offered, 2 if stage == NEVILLE else 1)
    state.note(seat, kind="forced")
    _do(state, seat, stage, chosen)


def _phones(state: KampfState) -> list[int | None]:
    """Every seat may send a night answer (refused alike unless it is awake), so no
    refusal tells anyone who holds a role."""
    return list(range(state.players)) if state.digital else []


NIGHT_STEP = Step[KampfState](
    NIGHT,
    _("it is night: eyes closed"),
    (
        Move("act", act, args=ARGS, by=_phones, host=False, ask=ask),
        Move(TIMER_DONE, call_over, args={"name": Choice([NIGHT_TIMER])}),
    ),
)
