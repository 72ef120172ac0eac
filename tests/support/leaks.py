"""Secret-leak audits derived from the engine's secret marks (engine.secrets), for any game.

The check is non-interference: take the state, change every secret that an observer
does not hold and the game has not shown (the seats' per-seat secrets are passed round
among the *other* seats; everyone's lists, such as a deck, are reversed), and demand
that nothing the observer is given changes:

* the observer's view (the public view for the host page and anyone, a seat's private
  view for that seat);
* whether the observer's own next answer is accepted;
* for the whole table: what the box says and shows (``Say`` lines and their pauses,
  ``Notice`` texts), unless the public view after the action differs too (the game
  revealed something on purpose, such as an enacted policy);
* a seat's glanceable prompts (shown openly on its phone, where a neighbour may read
  them) depend on no secret at all, not even the seat's own.

A value merely *appearing* somewhere is no test (a role's name is in the rules' lines);
a view that stays the same however the hidden secrets are dealt cannot carry them.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Notice, Say
from engine.secrets import marked, plain
from engine.table import GameFault, Table


def _rotate(items: list[Any]) -> list[Any]:
    return items[1:] + items[:1] if len(items) > 1 else items


def hide_from(state: Any, seats: int, observer: int | None) -> Any:
    """A copy of a game state with every secret ``observer`` (None: the whole table) does
    not hold and has not been shown changed; the state itself is left alone."""
    twin = copy.deepcopy(state)
    others = [s for s in range(seats) if s != observer]
    for node, f, mark in list(marked(twin)):
        if mark.shown is not None and mark.shown(state):
            continue
        value = getattr(node, f.name)
        if mark.per_seat:
            setattr(node, f.name, _pass_round(value, others))
        elif mark.owner is None or mark.owner(state) != observer:
            if isinstance(value, list):
                setattr(node, f.name, value[::-1])
            elif isinstance(value, tuple):
                setattr(node, f.name, value[::-1])
    return twin


def _pass_round(value: Any, others: list[int]) -> Any:
    """Each other seat's entry handed to the next other seat (the observer's stays).  When
    the entries are lists (hands), their items are passed round instead and each seat
    keeps its count: how many cards a hand holds is public in most games (a summary)."""
    if isinstance(value, Mapping):
        keys = [k for k in others if k in value]
        moved = dict(value)
        for k, v in zip(keys, _shifted([value[k] for k in keys]), strict=True):
            moved[k] = v
        return type(value)(moved) if not isinstance(value, dict) else moved
    if isinstance(value, list):
        keys = [k for k in others if k < len(value)]
        moved = list(value)
        for k, v in zip(keys, _shifted([value[k] for k in keys]), strict=True):
            moved[k] = v
        return moved
    return value


def _shifted(entries: list[Any]) -> list[Any]:
    """Whole entries rotated; lists' items rotated across the entries, counts kept."""
    if not entries or not all(isinstance(e, list) for e in entries):
        return _rotate(entries)
    pool = _rotate([item for entry in entries for item in entry])
    out, at = [], 0
    for entry in entries:
        out.append(pool[at : at + len(entry)])
        at += len(entry)
    return out


def twin_table(table: Table, state: Any) -> Table:
    """A shallow twin of ``table`` whose game state is ``state`` (views and attempts only)."""
    twin = copy.copy(table)
    twin.current = dataclasses.replace(table.current, state=state)
    return twin


def view_of(table: Table, observer: int | None) -> Any:
    return plain(table.public_view() if observer is None else table.private_view(observer))


def glanceable(table: Table, seat: int) -> list[Any]:
    """The prompts ``seat``'s phone shows openly although they are secret (its answer is)."""
    return [plain(e) for e in table.private_view(seat)["expects"] if e["glanceable"]]


def spoken(effects: list[Effect]) -> list[Any]:
    """What the table hears and the host's screen shows, with each line's pause."""
    return [(type(e).__name__, e.text, getattr(e, "then_wait", 0.0)) for e in effects if isinstance(e, (Say, Notice))]


def _attempt(table: Table, action: Action, seed: int) -> list[Effect] | str | None:
    """The action's effects, or the refusal's words (which the actor reads); None when the
    game's code failed, which a changed state may cause (a deal no real shuffle makes)."""
    try:
        return table.attempt(action, seed).effects
    except GameFault:
        return None
    except IllegalAction as exc:
        return str(exc)


def audit_step(table: Table, action: Action, seed: int) -> list[str]:
    """Every leak about to happen at this point of a game, as readable findings; counts
    one check per observer view, one for the actor's acceptance, one for narration and
    one per seat for its glanceable prompts."""
    findings: list[str] = []
    state, seats = table.current.state, len(table.current.seats)
    for observer in [None, *range(seats)]:
        hidden = twin_table(table, hide_from(state, seats, observer))
        if view_of(table, observer) != view_of(hidden, observer):
            who = "the table" if observer is None else f"seat {observer}"
            findings.append(f"{who}'s view depends on secrets it does not hold")
    actor = twin_table(table, hide_from(state, seats, action.seat))
    done, done_hidden = _attempt(table, action, seed), _attempt(actor, action, seed)
    if done is None or done_hidden is None:
        pass
    elif isinstance(done, str) != isinstance(done_hidden, str):
        findings.append(f"whether {action.kind} by {action.seat} is taken depends on secrets it does not hold")
    elif isinstance(done, str) and done != done_hidden:
        findings.append(f"the refusal of {action.kind} by {action.seat} depends on secrets it does not hold")
    everyone = twin_table(table, hide_from(state, seats, None))
    findings += [
        f"seat {seat}'s glanceable prompt depends on a secret"
        for seat in range(seats)
        if glanceable(table, seat) != glanceable(everyone, seat)
    ]
    try:
        outcome, twin_outcome = table.attempt(action, seed), everyone.attempt(action, seed)
    except IllegalAction:  # refused in one world (a hand the player holds), or a GameFault
        return findings
    same_public = view_of(twin_table(table, outcome.state.state), None) == view_of(
        twin_table(table, twin_outcome.state.state), None
    )
    if same_public and spoken(outcome.effects) != spoken(twin_outcome.effects):
        findings.append(f"what the box says after {action.kind} depends on secrets nobody holds")
    return findings
