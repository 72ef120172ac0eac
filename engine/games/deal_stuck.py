"""Monopoly Deal Wizarding World: a game that can no longer go on.

Cards laid in a Bank or among the items never return to a hand or a pile: only Spells
cast, cards discarded down to the hand limit and points discarded to end Petrificus
Totalus reach the discard pile, which becomes the next draw pile (``deal_turns.draw``).
So a long game can reach a table where nothing is left to draw, no hand holds a card and
no pile ever fills again: every turn would then say "draw 0 cards" for ever.  Neither
the rulebook nor the original Monopoly Deal rules say what then; the box says that the
game cannot go on and ends it without a winner, but only when no move left could still
win it: a Petrificus that could be ended puts points back into play, and a player whose
wilds could be recoloured into a third complete set may still win on their turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from engine.games import deal_bank as bank
from engine.games.deal_deck import WILD
from engine.games.deal_sets import SETS_TO_WIN
from engine.games.deal_state import DealState

Pairs = Mapping[tuple[str, ...], int]


def cannot_go_on(state: DealState) -> bool:
    """Whether no card can ever move again and nobody can still win."""
    if state.draw or state.discard or any(state.hands) or state.card is not None:
        return False
    if any(bank.releasable(state, seat) for seat in state.petrified):
        return False
    return not any(could_win(state, seat) for seat in range(state.players))


def could_win(state: DealState, seat: int) -> bool:
    """Whether ``seat``'s items, its wilds recoloured at will, make three complete sets of
    different colours.  A set needs its size in items, one of them not the every-colour
    wild (``deal_sets.complete_in``); the every-colour wilds fill any gap."""
    fixed: Counter[str] = Counter()
    pairs: Counter[tuple[str, ...]] = Counter()
    every = 0
    for placed in state.items[seat]:
        card = state.spec(placed.card)
        if card.kind != WILD:
            fixed[placed.colour] += 1
        elif card.every_colour:
            every += 1
        else:
            pairs[card.colours] += 1
    sizes = {key: colour.size for key, colour in state.deck.colours.items()}
    return any(_fills(triple, sizes, fixed, pairs, every) for triple in combinations(sizes, SETS_TO_WIN))


def _fills(triple: Sequence[str], sizes: Mapping[str, int], fixed: Counter[str], pairs: Pairs, every: int) -> bool:
    """Whether some way of placing the two-colour wilds in ``triple`` completes all three."""
    for real in _placings(triple, fixed, pairs):
        if all(real[c] >= 1 for c in triple) and sum(max(0, sizes[c] - real[c]) for c in triple) <= every:
            return True
    return False


def _placings(triple: Sequence[str], fixed: Counter[str], pairs: Pairs) -> Iterator[Counter[str]]:
    """Each count of real (not every-colour) items by colour the two-colour wilds allow:
    a wild with one colour in ``triple`` goes there; with both, the copies split."""
    placings = [Counter({c: fixed[c] for c in triple})]
    for colours, copies in pairs.items():
        inside = [c for c in colours if c in triple]
        grown = []
        for counted in placings:
            if len(inside) < 2:
                grown.append(counted + Counter({c: copies for c in inside}))
                continue
            for first in range(copies + 1):
                grown.append(counted + Counter({inside[0]: first, inside[1]: copies - first}))
        placings = grown
    return iter(placings)
