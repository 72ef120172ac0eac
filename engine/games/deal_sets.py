"""Monopoly Deal Wizarding World: item collections, complete sets and the win.

A player may own several sets of one colour, and a set is never over its size, so
the box does not keep sets as piles: it counts a colour's items and derives how many
complete sets they make.  A set needs ``size`` items, and the every-colour wild
cannot make one alone (RULEBOOK: "You may not make a complete item set using only
these cards"), while two-colour wilds can ("You may make a complete item set using
only these cards").  So a colour with ``n`` items of which ``real`` are not
every-colour wilds makes ``min(n // size, real)`` complete sets.  An item "in a
complete set" is one whose leaving would break one.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.deal_state import DealState, Placed
from engine.messages import words

_, _n = words("deal")

SETS_TO_WIN = 3
"""RULEBOOK: "Be the first player to collect three complete sets of magical items.\""""


def in_colour(state: DealState, items: Sequence[Placed], colour: str) -> list[Placed]:
    return [p for p in items if p.colour == colour]


def complete_in(state: DealState, items: Sequence[Placed], colour: str) -> int:
    """How many complete sets of ``colour`` the items make."""
    mine = in_colour(state, items, colour)
    real = sum(not state.spec(p.card).every_colour for p in mine)
    return min(len(mine) // state.deck.colours[colour].size, real)


def complete_colours(state: DealState, seat: int) -> list[str]:
    """The colours in which ``seat`` has at least one complete set, in the deck's order."""
    items = state.items[seat]
    return [c for c in state.deck.colours if complete_in(state, items, c) > 0]


def won(state: DealState, seat: int) -> bool:
    """RULEBOOK: "three complete sets of magical items. Each set must be a different color.\""""
    return len(complete_colours(state, seat)) >= SETS_TO_WIN


def breaks_a_set(state: DealState, seat: int, index: int) -> bool:
    """Whether taking ``seat``'s item at ``index`` would break a complete set."""
    items = state.items[seat]
    colour = items[index].colour
    rest = items[:index] + items[index + 1 :]
    return complete_in(state, rest, colour) < complete_in(state, items, colour)


def loose(state: DealState, seat: int) -> list[int]:
    """The indexes of ``seat``'s items that are in no complete set (distinct cards only)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for index, placed in enumerate(state.items[seat]):
        key = (placed.card, placed.colour)
        if key not in seen and not breaks_a_set(state, seat, index):
            seen.add(key)
            out.append(index)
    return out


def accio_count(state: DealState, seat: int, colour: str) -> int:
    """How many items of ``colour`` an Accio counts: the fullest set's, so at most its size."""
    # Monopoly Deal: with two sets of a colour, rent is charged for one of them.
    return min(len(in_colour(state, state.items[seat], colour)), state.deck.colours[colour].size)


def accio_points(state: DealState, seat: int, colour: str) -> int:
    """RULEBOOK: "collect points based on the number of items you have in that color"."""
    count = accio_count(state, seat, colour)
    return state.deck.colours[colour].accio[count - 1] if count else 0


def take_set(state: DealState, seat: int, colour: str) -> list[Placed]:
    """One complete set of ``colour`` taken from ``seat``: the cards whose leaving keeps the
    most of the owner's other sets complete (every-colour wilds go with it only if needed)."""
    items = state.items[seat]
    size = state.deck.colours[colour].size
    mine = [i for i, p in enumerate(items) if p.colour == colour]
    wild = [i for i in mine if state.spec(items[i].card).every_colour]
    real = [i for i in mine if i not in wild]
    best: list[int] = []
    best_left = -1
    for wilds in range(min(len(wild), size - 1) + 1):
        if size - wilds > len(real):
            continue
        taken = wild[:wilds] + real[: size - wilds]
        left = complete_in(state, [p for i, p in enumerate(items) if i not in taken], colour)
        if left > best_left:
            best, best_left = taken, left
    moved = [items[i] for i in best]
    state.items[seat] = [p for i, p in enumerate(items) if i not in best]
    return moved


def sets_view(state: DealState, seat: int) -> list[dict[str, object]]:
    """A player's collection by colour for the pages: items, size, complete sets."""
    out: list[dict[str, object]] = []
    for key, colour in state.deck.colours.items():
        mine = in_colour(state, state.items[seat], key)
        if mine:
            complete = complete_in(state, state.items[seat], key)
            out.append(
                {
                    "colour": colour.name,
                    "items": [p.card for p in mine],
                    "size": colour.size,
                    "complete": complete,
                }
            )
    return out
