"""Monopoly Deal Wizarding World: the game's story, one line per turn, told at the end.

Each turn's public facts are kept in the state as they happen (a card banked or laid, a
Spell cast and on whom, a Protego, what was paid, an item or a set taken, the win), so
the story is part of the fold of the action log: undo, which replays the log, takes a
fact back with its action.  Only what lies face up is told: a card is named once it is
laid, cast or paid; cards drawn or discarded from a hand are only counted (how many
cards a hand holds is public, which ones is not).  Facts are kept as seats, card names
and colour keys, and said in the table's language only when a page asks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.games.deal_bank import named
from engine.games.deal_state import DealState
from engine.messages import Msg, listing, words

_, _n = words("deal")

CAST = "cast"


def begin(state: DealState, seat: int) -> None:
    """A new line: ``seat``'s turn begins (the turns are numbered from the first)."""
    state.story.append({"turn": len(state.story) + 1, "seat": seat, "events": []})


def tell(state: DealState, what: str, **facts: Any) -> None:
    """One public fact of the turn being played (``what`` says how it is told)."""
    if state.story:  # nothing is laid before the first turn (the host's set-up is not told)
        state.story[-1]["events"].append({"what": what, **facts})


def discarded(state: DealState, count: int) -> None:
    """Cards discarded down to the hand limit, counted together however many answers
    it took (one card a tap on a phone)."""
    events = state.story[-1]["events"] if state.story else []
    if events and events[-1]["what"] == "discard":
        events[-1]["count"] += count
    else:
        tell(state, "discard", count=count)


def spell(state: DealState, **facts: Any) -> None:
    """What the Spell being cast is cast for and on, added as its caster answers, so
    the story tells the Spell in one clause however many questions it asked."""
    events = state.story[-1]["events"] if state.story else []
    cast = next((e for e in reversed(events) if e["what"] == CAST), None)
    if cast is not None:
        cast.update(facts)


def lines(state: DealState) -> list[Msg]:
    """The story so far, one line per turn, in order."""
    return [_line(state, told) for told in state.story]


def _line(state: DealState, told: dict[str, Any]) -> Msg:
    said = dict(turn=told["turn"], name=state.names[told["seat"]])
    events = [TOLD[e["what"]](state, e) for e in told["events"]]
    if not events:
        return _("Turn {turn}, {name}: no card played", **said)
    joined = events[0]
    for event in events[1:]:
        joined = _("{told}; {then}", told=joined, then=event)
    return _("Turn {turn}, {name}: {events}", events=joined, **said)


def _cast(state: DealState, e: dict[str, Any]) -> Msg:
    """A Spell with what its caster chose: the colour an Accio collects for, its target."""
    said = _("casts {card}", card=e["card"])
    if e.get("colour"):
        colour = state.deck.colour_name(e["colour"])
        said = _n(
            "{cast} for {colour}, one point",
            "{cast} for {colour}, {count} points",
            e["amount"],
            cast=said,
            colour=colour,
        )
    if e.get("every"):
        return _("{cast}, on everyone", cast=said)
    if e.get("on") is not None:
        return _("{cast}, on {name}", cast=said, name=state.names[e["on"]])
    return said


def _took(state: DealState, e: dict[str, Any]) -> Msg:
    said = dict(name=state.names[e["seat"]], other=state.names[e["other"]], card=e["card"])
    if e.get("given"):
        return _("{name} swaps {given} for {other}'s {card}", given=e["given"], **said)
    return _("{name} takes {card} from {other}", **said)


def _moved(state: DealState, e: dict[str, Any]) -> Msg:
    if e["area"] == "bank":
        return _("the host moves {card} to {name}'s Bank", card=e["card"], name=state.names[e["seat"]])
    return _("the host moves {card} to {name}'s items", card=e["card"], name=state.names[e["seat"]])


def _colours(state: DealState, keys: list[str]) -> Msg | str:
    return listing([state.deck.colour_name(c) for c in keys])


TOLD: dict[str, Callable[[DealState, dict[str, Any]], Msg]] = {
    "bank": lambda s, e: _("banks {card}", card=e["card"]),
    "item": lambda s, e: _("lays {card} as {colour}", card=e["card"], colour=s.deck.colour_name(e["colour"])),
    "recolour": lambda s, e: _("turns {card} to {colour}", card=e["card"], colour=s.deck.colour_name(e["colour"])),
    "release": lambda s, e: _(
        "discards {cards} from the Bank to free {character}", cards=named(e["cards"]), character=e["character"]
    ),
    "discard": lambda s, e: _n("discards one card", "discards {count} cards", e["count"]),
    CAST: _cast,
    "protego": lambda s, e: _("{name} casts Protego", name=s.names[e["seat"]]),
    "blocked": lambda s, e: _("{name} is not touched", name=s.names[e["seat"]]),
    "nothing": lambda s, e: _("{name} has nothing to pay with", name=s.names[e["seat"]]),
    "pay": lambda s, e: _n(
        "{name} pays {other} one point: {cards}",
        "{name} pays {other} {count} points: {cards}",
        e["points"],
        name=s.names[e["seat"]],
        other=s.names[e["other"]],
        cards=named(e["cards"]),
    ),
    "petrified": lambda s, e: _("{character} is petrified", character=e["character"]),
    "take_set": lambda s, e: _(
        "{name} takes {other}'s complete {colour} set",
        name=s.names[e["seat"]],
        other=s.names[e["other"]],
        colour=s.deck.colour_name(e["colour"]),
    ),
    "take": _took,
    "correct": _moved,
    "stuck": lambda s, e: _("no card is left to draw or to play: the game ends without a winner"),
    "won": lambda s, e: _("{name} wins with {sets}", name=s.names[e["seat"]], sets=_colours(s, e["colours"])),
}
"""How each kind of fact is told: one clause of its turn's line."""
