"""Drivers shared by the Harry Potter Clue tests: a scripted table, rigging for rule
tests, and a random player that answers only what the game's own prompts offer.

Not tests themselves.  Everything goes through ``engine.table.Table`` as the box does."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action
from engine.effects import Expect
from engine.games.clue import Clue
from engine.games.clue_state import ClueState
from engine.table import Table
from support.table import Scripted, sent

WHEELS = {
    "gringotts": {"notches": 4, "dark_marks": [2]},
    "hogwarts-castle": {"notches": 6, "dark_marks": [1, 4]},
    "hogs-head": {"notches": 5, "dark_marks": [3]},
    "ministry-of-magic": {"notches": 3, "dark_marks": []},
}
"""A board's wheels as a host would enter them (made up: the rulebook gives none)."""


class Play(Scripted):
    """A table playing Harry Potter Clue, keeping its log (with seeds) and all it said."""

    def __init__(self, players: int = 3, seed: int = 0, **options: Any) -> None:
        options.setdefault("wheels", WHEELS)
        super().__init__(Clue(), players, seed, options)

    @property
    def s(self) -> ClueState:
        return self.table.current.state

    # --- scripted steps ------------------------------------------------------------------

    def choose_all(self, first: int = 0) -> None:
        """Every player takes the first free character; the host names the first player."""
        for seat in range(self.s.players):
            free = [e for e in self.table.expects() if e.action == "identity" and e.seat == seat][0]
            self.act("identity", by=seat, choice=free.options[0])
        self.act("first", choice=first)

    def roll(self, green: int, black: str) -> None:
        self.act("roll", by=self.s.current, dice=[green, black])

    def move(self, where: str) -> None:
        self.act("move", by=self.s.current, choice=where)

    def walk_to(self, where: str, black: str = "star") -> None:
        """A roll with no Dark Mark, then a walk into ``where``."""
        self.roll(6, black)
        self.move(where)

    def suggest(self, suspect: str, item: str) -> None:
        self.act("suspect", by=self.s.current, choice=suspect)
        self.act("item", by=self.s.current, choice=item)

    def accuse(self, suspect: str, item: str, place: str) -> None:
        self.act("suspect", by=self.s.current, choice=suspect)
        self.act("item", by=self.s.current, choice=item)
        self.act("place", by=self.s.current, choice=place)

    def end_turn(self) -> None:
        self.act("end_turn", by=self.s.current)

    def seen_by(self, seat: int) -> dict[str, Any]:
        return self.table.private_view(seat)["view"]


def rig_hands(s: ClueState, hands: list[list[str]], envelope: list[str]) -> None:
    """Hands and envelope as if the deal came out so (rule tests only); the rest of the
    cards go to The Burrow so all 21 stay accounted for."""
    s.hands, s.envelope = [sorted(h) for h in hands], list(envelope)
    dealt = {c for h in hands for c in h} | set(envelope)
    s.burrow = sorted(set(s.cards()) - dealt)


def page_action(expect: Expect, r: random.Random) -> Action:
    """What a page sends for a prompt, built from the prompt alone (any option it offers)."""
    if expect.kind == "choice" and (expect.count or 1) > 1:
        data: dict[str, Any] = {"choices": r.sample(expect.options, expect.count or 1)}
    elif expect.kind == "choice":
        data = {"choice": r.choice(expect.options)}
    elif expect.kind == "dice":
        black = r.choice(["gringotts", "hogwarts-castle", "hogs-head", "ministry-of-magic", "dark-mark", "star"])
        data = {"dice": [r.randint(1, 6), black]}
    else:
        data = {}
    return sent(expect, data, r)


def random_prompt(table: Table, r: random.Random, accuse: float = 0.15) -> Expect:
    """One of the prompts open now; the optional ones (the notepad switch, a tick, a hand
    entered) only now and then, and an accusation only sometimes (so games run long
    enough to show cards)."""
    expects = [e for e in table.expects() if not e.optional or r.random() < 0.05]
    state = table.current.state
    if state.step == "burrow" and r.random() > accuse:
        expects = [e for e in expects if e.action != "suspect"] or expects
    return r.choice(expects)


def accounted(s: ClueState) -> list[str]:
    """Every Mystery card where it is: the envelope, the hands, The Burrow."""
    return sorted([*s.envelope, *(c for h in s.hands for c in h), *s.burrow])
