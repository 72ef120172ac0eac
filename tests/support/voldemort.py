"""Drivers shared by the Secret Voldemort tests: a scripted table, rigging for rule tests,
and a random player that answers only what the game's own prompts offer.

Not tests themselves.  Everything goes through ``engine.table.Table`` as the box does."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.actions import Action
from engine.effects import Expect
from engine.games.voldemort import Voldemort
from engine.games.voldemort_rules import DARK_ARTS, ORDER
from engine.games.voldemort_state import VoldemortState
from engine.table import Table
from support.table import Scripted, sent

LABEL = {ORDER: "Order", DARK_ARTS: "Dark Arts"}


class Play(Scripted):
    """A table playing Secret Voldemort, keeping its log (with seeds) and all it said."""

    def __init__(self, players: int = 5, seed: int = 0, **options: Any) -> None:
        super().__init__(Voldemort(), players, seed, options)

    @property
    def s(self) -> VoldemortState:
        return self.table.current.state

    # --- rigging (rule tests only: the state is set as if the deal came out so) --------

    def rig(
        self, minister: int | None = None, top: list[str] | None = None, dark_arts: int = 0, order: int = 0
    ) -> None:
        """The next Minister, the top of the draw pile, policies already on the tracks
        (taken from the draw pile, so all 17 stay accounted for)."""
        s = self.s
        for kind, count in ((DARK_ARTS, dark_arts), (ORDER, order)):
            for _ in range(count):
                s.draw.remove(kind)
                s.enacted.append(kind)
        s.dark_arts += dark_arts
        s.order += order
        if minister is not None:
            s.minister = s.rotation = minister
        if top is not None:
            rest = list(s.draw)
            for kind in top:
                rest.remove(kind)
            s.draw = list(top) + rest

    # --- scripted steps ------------------------------------------------------------------

    def nominate(self, headmaster: int) -> None:
        self.act("nominate", by=self.s.minister, choice=headmaster)

    def votes(self, yes: bool | list[bool]) -> None:
        living = self.s.living()
        each = yes if isinstance(yes, list) else [yes] * len(living)
        for seat, vote in zip(living, each, strict=True):
            self.act("vote", by=seat, vote=vote)

    def elect(self, headmaster: int | None = None, yes: bool = True) -> int:
        safe = [x for x in self.s.eligible() if self.s.roles[x] != "voldemort"]
        chosen = safe[0] if headmaster is None else headmaster
        self.nominate(chosen)
        self.votes(yes)
        return chosen

    def fail(self) -> None:
        self.elect(yes=False)

    def legislate(self, discard: str, enact: str) -> None:
        self.act("discard", by=self.s.minister, choice=LABEL[discard])
        self.act("enact", by=self.s.headmaster, choice=LABEL[enact])

    def pass_policy(self, kind: str, headmaster: int | None = None) -> None:
        """A government elected and enacting ``kind`` (the top three rigged to it)."""
        if self.s.draw.count(kind) < 3:
            self.s.draw = self.s.draw + self.s.discard  # only rigging: keep 17 accounted for
            self.s.discard = []
        self.rig(top=[kind] * 3)
        self.elect(headmaster)
        self.legislate(kind, kind)


def page_action(expect: Expect, r: random.Random) -> Action:
    """What a page sends for a prompt, built from the prompt alone (any option it offers)."""
    if expect.kind == "choice":
        data: dict[str, Any] = {"choice": r.choice(expect.options)}
    elif expect.kind == "vote":
        data = {"vote": r.random() < 0.6}
    elif expect.kind == "cards":
        data = {"cards": [{"card": r.choice(["Order Policy", "Dark Arts Policy"])}]}
    else:
        data = {}
    return sent(expect, data, r)


def random_prompt(table: Table, r: random.Random) -> Expect:
    """One of the prompts open now; a show of hands only now and then (it ends the vote)."""
    expects = table.expects()
    votes = [e for e in expects if e.action != "hands"]
    if votes and r.random() < 0.9:
        return r.choice(votes)
    return r.choice(expects)


def seats_with(s: VoldemortState, role: str) -> list[int]:
    return [x for x, r in enumerate(s.roles) if r == role]


def accounted(s: VoldemortState) -> int:
    """Every policy card somewhere: the piles, a hand, the tracks."""
    held = sum(len(h) for h in s.hands.values())
    return len(s.draw) + len(s.discard) + held + s.order + s.dark_arts


def seeded(players: int, wanted: Callable[[VoldemortState], bool], **options: Any) -> Play:
    """The first seed whose deal is ``wanted`` (roles are never rigged: ``known`` follows them)."""
    for seed in range(500):
        play = Play(players, seed, **options)
        if wanted(play.s):
            return play
    raise AssertionError("no seed deals that")
