"""Kampf gegen die dunklen Mächte: what a seat did or saw at night, in words.

One sentence per note, naming the seat, so the same line serves the seat's own phone
during the day and the night's record read out at the end.
"""

from __future__ import annotations

from engine.games.kampf_roles import CENTRE, CENTRE_NAME, ROLE_NAME
from engine.games.kampf_state import KampfState, Note
from engine.messages import Msg, words

_, _n = words("kampf")


def place(state: KampfState, at: int) -> str:
    """A card's position in words: a player's card, or one of the middle's three."""
    if at < state.players:
        return _("{name}'s card", name=state.names[at])
    return CENTRE_NAME[CENTRE[at - state.players]]


def said(state: KampfState, note: Note) -> Msg:
    """One note as a sentence."""
    kind, name = note["kind"], state.names[note["seat"]]
    other = state.names[note["with"]] if "with" in note else ""
    role = ROLE_NAME[note["role"]] if "role" in note else ""
    where = place(state, note["at"]) if "at" in note else ""
    if kind == "partner":
        return _("{name} saw the other Death Eater: {other}.", name=name, other=other)
    if kind == "alone":
        return _("{name} was the only Death Eater awake.", name=name)
    if kind == "twin":
        return _("{name} saw the twin: {other}.", name=name, other=other)
    if kind == "twin_alone":
        return _("{name} woke alone: the other twin's card is in the middle.", name=name)
    if kind == "looked":
        return _("{name} looked at {where}: {role}.", name=name, where=where, role=role)
    if kind == "new_card":
        return _("{name} looked at the new card: {role}.", name=name, role=role)
    if kind == "took":
        return _("{name} swapped cards with {other}.", name=name, other=other)
    if kind == "exchanged" and note["with"] == note["seat"]:
        return _("{name} swapped their own card with {where}.", name=name, where=where)
    if kind == "exchanged":
        return _(
            "{name} exchanged {where} with {other}'s card, without looking at it.", name=name, where=where, other=other
        )
    if kind == "neville":
        return _(
            "{name} swapped the cards of {first} and {second} without looking.",
            name=name,
            first=state.names[note["first"]],
            second=state.names[note["second"]],
        )
    if kind == "ron":
        return _("{name} swapped their card with {where} without looking.", name=name, where=where)
    if kind == "revealed":
        return _("{name} turned {where} face up for the day: {role}.", name=name, where=where, role=role)
    if kind == "turned_back":
        return _("{name} turned {where} over: a Death Eater, so it was turned back.", name=name, where=where)
    if kind == "mine":
        return _("{name} looked at their own card again: {role}.", name=name, role=role)
    if kind == "forced":
        return _("Time ran out, so the box chose for {name}.", name=name)
    return _("{name} did nothing.", name=name)
