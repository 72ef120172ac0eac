"""Unmask the Death Eaters, step 13: before the Department of Magical Law Enforcement.

Revelio peeks (private to the holder), nomination of the final Leader with the
left-hand succession and the "not previously nominated" rule, the vote, the names
submitted, and the Moment of Truth scored by the rulebook's victory chart.
"""
from __future__ import annotations

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Notice, Say
from engine.games.unmask_rules import LOYALTY_NAMES, NAMES_TO_SUBMIT, VERDICT_SAY, verdict
from engine.games.unmask_state import (
    ACCUSE,
    NOMINATE,
    OVER,
    REVELIO_STEP,
    VOTE,
    UnmaskState,
    bool_arg,
    names_of,
    picked_seats,
    require_actor,
    require_step,
    seat_arg,
)

NO_PEEK = "no one"


def enter_final(state: UnmaskState) -> list[Effect]:
    """The last Token space is filled or the Snake reached the end: go to the Department."""
    effects: list[Effect] = [Say("Before the Department of Magical Law Enforcement! Time to unmask the Death Eaters.")]
    state.nominator = state.leader
    if state.revelio is None:
        return effects + begin_nomination(state)
    holder = state.names[state.revelio]
    state.peeks_allowed = state.cfg.revelio_peeks[state.snake]
    if state.peeks_allowed == 0:
        effects.append(Say(f"{holder} casts Revelio, but with the Snake on space {state.snake} it shows no one."))
        return effects + begin_nomination(state)
    state.step = REVELIO_STEP
    plural = "player" if state.peeks_allowed == 1 else "players"
    effects.append(Say(f"{holder} casts Revelio: on your phone, choose up to {state.peeks_allowed} {plural} whose Loyalty you will see."))
    return effects


def peek(state: UnmaskState, action: Action) -> list[Effect]:
    """The Revelio holder looks at up to the allowed number of Loyalty cards, privately
    (``{"choices": [...]}``, ``{"choice": p}``, or ``{"choice": "no one"}``).

    The spoken line is the same whoever and however many were chosen, so nothing leaks."""
    require_step(state, action, REVELIO_STEP)
    require_actor(state, action, state.revelio, "Revelio")
    seats = [] if action.data.get("choice") == NO_PEEK else picked_seats(state, action)
    if len(seats) > state.peeks_allowed:
        raise IllegalAction(f"Revelio shows at most {state.peeks_allowed} Loyalty cards here")
    if state.revelio in seats:
        raise IllegalAction("Revelio is cast on other players, not yourself")
    state.peeks = {s: state.loyalty[s] for s in seats}
    return [Say("Revelio has been cast.")] + begin_nomination(state)


def _eligible(state: UnmaskState) -> list[int]:
    return [s for s in range(state.players) if s != state.nominator and s not in state.nominated]


def begin_nomination(state: UnmaskState) -> list[Effect]:
    """Ask the current nominator for a nominee.

    The rulebook is silent on a table that has nominated everyone; rather than deadlock,
    the "not previously nominated" list is cleared then (with a notice to the host)."""
    state.step = NOMINATE
    effects: list[Effect] = []
    if not _eligible(state):
        state.nominated = []
        effects.append(Notice("Everyone has been nominated once: anyone may be nominated again."))
    name = state.names[state.nominator]
    effects.append(Say(f"{name}, nominate the final Leader: another player who has not been nominated yet."))
    return effects


def nominate(state: UnmaskState, action: Action) -> list[Effect]:
    require_step(state, action, NOMINATE)
    require_actor(state, action, state.nominator, "nominating")
    nominee = seat_arg(state, action.data.get("choice"), "choice")
    if nominee == state.nominator:
        raise IllegalAction("you cannot nominate yourself: nominate another player")
    if nominee in state.nominated:
        raise IllegalAction(f"{state.names[nominee]} was already nominated: choose someone not nominated before")
    state.nominee = nominee
    state.nominated.append(nominee)
    state.votes = {}
    state.step = VOTE
    who = state.names[state.nominator]
    return [Say(f"{who} nominates {state.names[nominee]} as the final Leader. "
                "Everyone vote: thumbs up or thumbs down, on three. Three, two, one.")]


def vote(state: UnmaskState, action: Action) -> list[Effect]:
    """One seat's vote ``{"vote": bool}`` (its own, or entered by the host with ``seat``);
    the tally when all are in.  Votes stay hidden until then, like thumbs held in fists."""
    require_step(state, action, VOTE)
    if action.seat is None:
        voter = seat_arg(state, action.data.get("seat"))
    else:
        voter = action.seat
        if "seat" in action.data and seat_arg(state, action.data["seat"]) != voter:
            raise IllegalAction("you can only cast your own vote")
    state.votes[voter] = bool_arg(action.data.get("vote"), "vote")
    if len(state.votes) < state.players:
        return []
    return _tally(state)


def _tally(state: UnmaskState) -> list[Effect]:
    yes = sorted(s for s, v in state.votes.items() if v)
    no = sorted(s for s, v in state.votes.items() if not v)
    state.last_vote = {"nominee": state.nominee, "yes": yes, "no": no}
    state.votes = {}
    nominee = state.names[state.nominee]
    if len(yes) > len(no):
        state.final_leader = state.nominee
        state.step = ACCUSE
        low, high = NAMES_TO_SUBMIT[state.players]
        return [Say(f"{nominee} is elected final Leader, {len(yes)} to {len(no)}. Flip your wand face up. "
                    f"Listen to the table, then submit {low} or {high} names, never your own.")]
    state.nominator = state.left_of(state.nominator)
    return [Say(f"The nomination of {nominee} fails, {len(yes)} to {len(no)}.")] + begin_nomination(state)


def accuse(state: UnmaskState, action: Action) -> list[Effect]:
    """The final Leader's names, then the Moment of Truth and the verdict by the chart."""
    require_step(state, action, ACCUSE)
    require_actor(state, action, state.final_leader, "final Leader")
    seats = picked_seats(state, action)
    low, high = NAMES_TO_SUBMIT[state.players]
    if not low <= len(seats) <= high:
        raise IllegalAction(f"with {state.players} players the final Leader submits {low} or {high} names")
    if state.final_leader in seats:
        raise IllegalAction("the final Leader cannot choose themselves")
    state.accused = seats
    state.outcome = verdict(state.loyalty, seats)
    state.step = OVER
    effects: list[Effect] = [
        Say(f"{names_of(state, seats)} go before the Department of Magical Law Enforcement."),
        Say("The Moment of Truth. One at a time, reveal your Loyalty."),
    ]
    effects += [Say(f"{name}: {LOYALTY_NAMES[side]}.") for name, side in zip(state.names, state.loyalty)]
    effects.append(Say(VERDICT_SAY[state.outcome]))
    return effects
