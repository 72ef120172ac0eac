"""Drivers shared by the Kampf gegen die dunklen Mächte tests: a table with a clock (the
night's calls end on their timers), rigging of the deal for rule tests, and a random
player that answers only what the game's own prompts offer.

Not tests themselves.  Everything goes through ``engine.table.Table`` as the box does."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action
from engine.effects import TIMER_DONE, Effect, Expect, Say, StartTimer
from engine.games.kampf import Kampf
from engine.games.kampf_state import DAY, DAY_TIMER, NIGHT, NIGHT_TIMER, READY, KampfState
from engine.table import Entry
from support.table import Scripted

T0 = 1_800_000_000.0


class Play(Scripted):
    """A table playing Kampf, with a wall clock that moves only when a timer must run out,
    keeping every effect in order (for the narration tests)."""

    def __init__(self, players: int | list[str] = 5, seed: int = 0, **options: Any) -> None:
        self.now = T0
        self.effects: list[Effect] = []
        super().__init__(Kampf(), players, seed, options)

    @property
    def s(self) -> KampfState:
        return self.table.current.state

    def submit(self, action: Action) -> list[Effect]:
        seed = self.rng.randrange(1 << 32)
        effects = self.table.apply(action, seed, at=self.now)
        self.entries.append(Entry(len(self.entries), action, seed, self.now))
        self.said += [e.text for e in effects if isinstance(e, Say)]
        self.effects += effects
        return effects

    # --- rigging (rule tests only: the deal as if the shuffle came out so) --------------

    def deal(self, *cards: str) -> None:
        """The cards by position: one per seat in seat order, then the middle's three."""
        assert len(cards) == self.s.players + 3 and sorted(cards) == sorted(self.s.roles), cards
        self.s.cards, self.s.dealt = list(cards), list(cards[: self.s.players])

    # --- the night ------------------------------------------------------------------------

    def timer_runs_out(self, name: str = NIGHT_TIMER) -> list[Effect]:
        self.now = self.table.current.timers[name].deadline or self.now
        return self.act(TIMER_DONE, name=name)

    def until(self, call: str) -> None:
        """Start the night if need be and let the calls before ``call`` pass."""
        if self.s.step == READY:
            self.act("start")
        while self.s.calls[self.s.call] != call:
            self.timer_runs_out()

    def do(self, seat: int, *picked: str | int) -> list[Effect]:
        """``seat`` answers its night prompt (one pick, or two for Neville)."""
        if len(picked) == 1:
            return self.act("act", by=seat, choice=str(picked[0]))
        return self.act("act", by=seat, choices=[str(p) for p in picked])

    def dawn(self) -> None:
        """The rest of the night passes."""
        if self.s.step == READY:
            self.act("start")
        while self.s.step == NIGHT:
            self.timer_runs_out()

    def vote(self, *targets: int) -> list[Effect]:
        """Every seat points, in seat order (the night and the discussion passed first)."""
        self.dawn()
        if self.s.step == DAY:
            self.timer_runs_out(DAY_TIMER)
        effects: list[Effect] = []
        for seat, target in enumerate(targets):
            effects += self.act("vote", by=seat, choice=target)
        return effects

    def seen(self, seat: int) -> list[str]:
        return list(self.table.private_view(seat)["view"]["tonight"])


def narration(effects: list[Effect]) -> list[tuple[str, str, float]]:
    """What the table hears and how long each part lasts: every line with its pause, and
    every timer with its length, in order."""
    out = []
    for e in effects:
        if isinstance(e, Say):
            out.append(("say", str(e.text), e.then_wait))
        elif isinstance(e, StartTimer):
            out.append(("timer", e.name, e.seconds))
    return out


def page_action(expect: Expect, r: random.Random) -> Action:
    """What a page sends for a prompt, built from the prompt alone (any option it offers)."""
    if expect.kind == "choice" and (expect.count or 1) > 1:
        data: dict[str, Any] = {"choices": r.sample(list(expect.options), expect.count or 1)}
    elif expect.kind == "choice":
        data = {"choice": r.choice(expect.options)}
    else:
        data = {}
    if expect.seat is not None and (expect.secret or r.random() < 0.5):
        return Action(expect.action, data, expect.seat)
    return Action(expect.action, {**data, **({"seat": expect.seat} if expect.seat is not None else {})})
