"""A Harry Potter Clue table with real cards, played truthfully, and a check of every
notepad against the truth.

The box never sees the real deal, so the table here keeps one (``Truth``) and answers
as honest players would: the host enters The Burrow, some players enter their hands,
the first holder to the suggester's left shows a card (and the suggester ticks it, now
and then), an accuser reads the envelope right.  Everything else is a random answer to
the game's own prompts.  Not tests themselves."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.effects import Expect
from engine.games.clue_mystery import NOBODY, RIGHT, WRONG
from engine.games.clue_notepad import ON
from engine.games.clue_rules import BURROW
from engine.games.clue_state import ClueState
from support.clue import Play, page_action, random_prompt

ENVELOPE, IN_BURROW = -2, -1
ANSWERED = ("burrow", "hand", "answer", "verdict", "notepad", "tick", "seen")
"""Prompts the truthful table answers itself (the rest are answered at random)."""


@dataclass
class Truth:
    """Where each Mystery card really is: a seat, The Burrow or the envelope."""

    where: dict[str, int]

    @classmethod
    def deal(cls, s: ClueState, r: random.Random) -> Truth:
        """The rulebook's deal: one of each kind to the envelope, the rest evenly, the
        extras face up to The Burrow."""
        piles = [list(s.suspects), list(s.items), list(s.locations)]
        for pile in piles:
            r.shuffle(pile)
        where = {pile.pop(): ENVELOPE for pile in piles}
        rest = [c for pile in piles for c in pile]
        r.shuffle(rest)
        each = len(rest) // s.players
        where |= {card: i // each if i < each * s.players else IN_BURROW for i, card in enumerate(rest)}
        return cls(where)

    @classmethod
    def of(cls, s: ClueState) -> Truth:
        """The box's own deal (digital cards)."""
        where = {c: ENVELOPE for c in s.envelope} | {c: IN_BURROW for c in s.burrow}
        return cls(where | {c: seat for seat, hand in enumerate(s.hands) for c in hand})

    def at(self, place: int) -> list[str]:
        return sorted(c for c, w in self.where.items() if w == place)

    def envelope(self, s: ClueState) -> list[str]:
        """The envelope's suspect, item and location, in that order."""
        return [next(c for c in kind if self.where[c] == ENVELOPE) for kind in (s.suspects, s.items, s.locations)]


def false_ticks(play: Play, truth: Truth) -> list[str]:
    """Every notepad line, on every phone, that claims more than the truth."""
    s, wrong = play.s, []
    for seat in range(s.players):
        for line in play.seen_by(seat)["notepad"]:
            card, why, real = line["card"], line["why"], truth.where[line["card"]]
            claim = getattr(why, "msgid", "")
            holder = {"your card": seat, "in The Burrow": IN_BURROW}.get(claim)
            if claim == "held by {name}":
                holder = s.names.index(why.params["name"])
            ok = {
                "in the envelope": real == ENVELOPE and not line["ticked"],
                "ticked by you": real != ENVELOPE,
                "": not line["ticked"],
            }.get(claim, holder == real)
            if not ok:
                wrong.append(f"seat {seat}: {card} {claim or 'ticked'} {why.params if claim else ''} (really {real})")
    return wrong


class Honest:
    """The truthful table's answers; ``enters`` says which seats enter their hands."""

    def __init__(self, play: Play, truth: Truth, r: random.Random) -> None:
        self.play, self.truth, self.r = play, truth, r
        self.enters = {seat: r.random() < 0.7 for seat in range(play.s.players)}
        self.helped: set[int] = set()
        self.pending: Action | None = None
        self.seen: str | None = None  # the card last shown, for the suggester's one-tap tick

    def action(self, accuse: float) -> Action:
        """The next action: a truthful answer where one is asked, else a random one."""
        if self.pending is not None:
            pending, self.pending = self.pending, None
            return pending
        expects = self.play.table.expects()
        for expect in expects:
            mine = self._answer(expect)
            if mine is not None:
                return mine
        others = [e for e in expects if e.action not in ANSWERED]
        expect = random_prompt(self.play.table, self.r, accuse) if not others else self.r.choice(others)
        return self._steer(expect, page_action(expect, self.r))

    def _answer(self, expect: Expect) -> Action | None:
        s, seat = self.play.s, expect.seat
        if expect.action == "burrow":
            return Action("burrow", {"choices": self.truth.at(IN_BURROW)})
        if expect.action == "hand" and seat is not None and self.enters[seat]:
            return Action("hand", {"choices": self.truth.at(seat)}, seat)
        if expect.action == "notepad" and seat is not None and seat not in self.helped:
            self.helped.add(seat)
            return Action("notepad", {"choice": ON}, seat)
        if expect.action == "seen" and seat is not None and self.seen is not None:
            seen, self.seen = self.seen, None
            return Action("seen", {"choice": seen}, seat)
        if expect.action == "answer":
            return Action("answer", {"choice": self._shower(s)})
        if expect.action == "verdict":
            right = sorted(s.naming) == self.truth.at(ENVELOPE)  # the accuser reads the envelope right
            return Action("verdict", {"choice": RIGHT if right else WRONG}, s.current)
        return None

    def _shower(self, s: ClueState) -> str:
        """The first player to the suggester's left holding a named card (or nobody)."""
        record = s.suggestions[-1]
        named = {record["suspect"], record["item"], record["location"]}
        for seat in s.left_of(record["by"]):
            held = sorted(c for c in named if self.truth.where[c] == seat)
            if held:
                self._tick_later(record["by"], seat, self.r.choice(held))
                return s.names[seat]
        return NOBODY

    def _tick_later(self, asker: int, holder: int, card: str) -> None:
        """The suggester saw ``card``: they tick it in one tap when asked, or on their
        notepad (saying who showed it, or not), or now and then not at all."""
        self.seen, way = None, self.r.random()
        if way < 0.5:
            self.seen = card
        elif way < 0.8 and card not in self.play.s.ticks.get(asker, {}):
            by: dict[str, Any] = {"by": holder} if self.r.random() < 0.5 else {}
            self.pending = Action("tick", {"choice": card, **by}, asker)

    def _steer(self, expect: Expect, action: Action) -> Action:
        """The Burrow when moving, the envelope's card when accusing, now and then."""
        s, wanted = self.play.s, None
        if expect.action == "move" and BURROW in expect.options and self.r.random() < 0.2:
            wanted = BURROW
        accusing = s.step == "burrow" or (s.step in ("item", "place") and s.purpose == "accuse")
        if accusing and expect.action in ("suspect", "item", "place") and self.r.random() < 0.5:
            wanted = self.truth.envelope(s)[("suspect", "item", "place").index(expect.action)]
        if wanted is None:
            return action
        return Action(action.kind, {**action.data, "choice": wanted}, action.seat)
