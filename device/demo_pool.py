"""The demo's made-up Wizarding World cards, for a simulated Unmask Leader.

A simulated Leader has no cards in hand, so it makes up the pool its group hands in:
one card a member (plus the extra a Leader ability allowed), each drawn from the deck's
mix, and then answers the pool's questions in the rulebook's order from that pool: a
Curse found (resolved, or stopping the group), a swap (the card drawn unseen may be a
Curse), and the revealed cards' dice values.  So a Curse turns up about as often as the
deck holds them, not every turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine.effects import Expect
from engine.games.unmask_state import UnmaskState

DECK_MIX = {"curse": 14, 0: 16, 1: 30, 2: 26, 3: 14}
"""Cards per hundred.  The rulebook counts 100 Wizarding World cards but does not list
them; this estimate gives a Curse in about one pool in three (groups of 2-4) and pools
of about 1.5 dice a card, so dice Encounters are won and lost."""
CURSE_STOPS = 0.3
"""How often a Curse found stops the group (the rest are resolved: a lost wand, a
discarded card)."""
SWAPS = 0.2
"""How often a simulated Leader swaps a card."""
POOL_ACTIONS = frozenset({"look", "curse", "swap", "reveal", "resolve"})


def draw(rng: random.Random) -> str:
    """One card off the deck: ``"curse"`` or its dice value, as the host types it."""
    card = rng.choices(list(DECK_MIX), weights=list(DECK_MIX.values()))[0]
    return str(card)


@dataclass
class MadeUpPool:
    """One Encounter's (or Battle's) pool, as the simulated Leader made it up."""

    cards: list[str]
    unseen: list[str] = field(default_factory=list)  # the swapped-in card, not looked at

    def answer(self, expect: Expect, rng: random.Random) -> dict[str, Any]:
        """The Leader's answer to one of the pool's prompts."""
        if expect.action == "look":
            return {"choice": "a Curse" if "curse" in self.cards else "no Curse"}
        if expect.action == "curse":
            self.cards.remove("curse")
            return {"choice": "stops" if rng.random() < CURSE_STOPS else "resolved"}
        if expect.action == "swap":
            if self.cards and rng.random() < SWAPS:
                self.cards.remove(rng.choice(self.cards))
                self.unseen.append(draw(rng))
                return {"choice": "swap one card"}
            return {"choice": "no swap"}
        if expect.action == "resolve":  # the swapped-in Curse: almost always dealt with
            return {"choice": rng.choices(expect.options, weights=[6, 3, 1][: len(expect.options)])[0]}
        return {"cards": (self.cards + self.unseen)[: expect.count]}


class MadeUpPools:
    """The pools of one demo, made up afresh for each Encounter and Battle."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._pools: dict[tuple[Any, ...], MadeUpPool] = {}

    def answer(self, key: tuple[Any, ...], size: int, expect: Expect) -> dict[str, Any]:
        """``key`` names the pool (game, turn, Battle); ``size`` is how many cards it holds."""
        if key not in self._pools:
            self._pools = {key: MadeUpPool([draw(self.rng) for _ in range(size)])}
        return self._pools[key].answer(expect, self.rng)


def pool_key(game: int, state: UnmaskState) -> tuple[Any, ...]:
    """Which pool is being handed in: the game, the turn, and the Battle if any."""
    return (game, state.turn, state.now.battle)
