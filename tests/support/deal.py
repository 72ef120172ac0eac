"""Drivers shared by the Monopoly Deal Wizarding World tests: a scripted table, rigging
for rule tests (cards put where a rule needs them, taken from the draw pile so every
card stays accounted for), a small test deck, and a random player that answers only
what the game's own prompts offer.

Not tests themselves.  Everything goes through ``engine.table.Table`` as the box does."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.actions import Action
from engine.effects import Expect
from engine.games.deal import Deal
from engine.games.deal_deck import Deck, packaged, parse
from engine.games.deal_state import UNSEEN, DealState, Placed
from engine.table import Table
from support.table import Scripted, sent

ABILITIES = """
[[character]]
name = "Drawer"
ability = "Draw one more card at the start of your turn."
effect = "extra_draw"
amount = 1

[[character]]
name = "Player"
ability = "Play one more card a turn."
effect = "extra_play"
amount = 1

[[character]]
name = "Keeper"
ability = "Keep two more cards at the end of your turn."
effect = "hand_limit"
amount = 2

[[character]]
name = "Reader"
ability = "Read the rules aloud."
effect = "table"

[[character]]
name = "Helper"
ability = "Help."
effect = "table"
"""


def ability_deck() -> Deck:
    """The shipped deck with characters whose abilities the box applies."""
    from importlib import resources

    text = resources.files("engine.games").joinpath("deal_deck.toml").read_text(encoding="utf-8")
    return parse(text.split("\n[[character]]")[0] + ABILITIES)


class Play(Scripted):
    """A table playing the game, through to the first turn unless ``start`` is False."""

    def __init__(
        self,
        players: int = 2,
        seed: int = 0,
        cards: Deck | None = None,
        start: bool = True,
        characters: list[str] | None = None,
        **options: Any,
    ) -> None:
        super().__init__(Deal(cards or ability_deck()), players, seed, options)
        if start:
            self.act("youngest", choice=0)
            chosen = characters or [c.name for c in self.s.deck.characters[3:] + self.s.deck.characters[:3]]
            for seat in range(players):
                self.act("character", by=seat, choice=chosen[seat])

    @property
    def s(self) -> DealState:
        return self.table.current.state

    # --- rigging ---------------------------------------------------------------------------

    def _take(self, name: str) -> str:
        """A copy of ``name`` from the draw pile, else the discards, else another seat's
        hand (which gets the draw pile's bottom card instead, keeping its size)."""
        s = self.s
        if not s.digital and UNSEEN in s.draw:  # the physical deck: an unseen card becomes it
            s.draw.remove(UNSEEN)
            return name
        for pile in (s.draw, s.discard):
            if name in pile:
                pile.remove(name)
                return name
        for hand in s.hands:
            if name in hand:
                hand[hand.index(name)] = s.draw.pop(0)
                return name
        raise AssertionError(f"no {name} left to rig")

    def hand(self, seat: int, *names: str) -> None:
        """``seat``'s hand is exactly ``names`` (its old cards go back under the draw pile)."""
        s = self.s
        s.draw[:0] = s.hands[seat]
        s.hands[seat] = []
        s.hands[seat] = [self._take(n) for n in names]

    def bank(self, seat: int, *names: str) -> None:
        self.s.banks[seat] += [self._take(n) for n in names]

    def items(self, seat: int, *cards: str | tuple[str, str]) -> None:
        """Items laid: a name (its own colour) or (wild, colour)."""
        for card in cards:
            name, colour = card if isinstance(card, tuple) else (card, self.s.spec(card).colour)
            self.s.items[seat].append(Placed(self._take(name), str(colour)))

    def top(self, *names: str) -> None:
        """The next cards drawn, in order."""
        for name in reversed(names):
            self.s.draw.append(self._take(name))

    # --- scripted play -------------------------------------------------------------------

    def play(self, card: str, *answers: Any, by: int | None = None) -> None:
        seat = self.s.turn if by is None else by
        self.act("play", by=seat, choice=card)
        for answer in answers:
            self.answer(answer)

    def answer(self, answer: Any) -> None:
        """Answer the one prompt open now with ``answer``."""
        expect = self.table.expects()[0]
        self.act(expect.action, by=expect.seat, choice=answer)

    def cast(self, card: str, *answers: Any) -> None:
        self.play(card, "cast it", *answers)

    def offered(self, action: str) -> tuple[str, ...]:
        """The options of the open prompt for ``action`` (none: not asked)."""
        return next((e.options for e in self.table.expects() if e.action == action), ())

    def pay(self, *names: str) -> None:
        """The payer pays the named cards, or with none named the payment proposed."""
        payer = self.s.debts[0].payer
        if names:
            self.act("pay", by=payer, cards=list(names))
        else:
            self.act("pay", by=payer, choice=self.offered("pay")[0])

    def end(self) -> None:
        self.act("end", by=self.s.turn)

    def let(self) -> None:
        self.act("let", by=_answering(self.s))

    def protego(self, by: int) -> None:
        self.act("protego", by=by)


def _answering(s: DealState) -> int:
    from engine.games.deal_spells import answering

    return answering(s)


def page_action(expect: Expect, r: random.Random) -> Action:
    """What a page sends for a prompt, built from the prompt alone (any option it offers)."""
    data: dict[str, Any] = {}
    if expect.kind == "choice":
        data = {"choice": r.choice(_preferred(expect) if r.random() < 0.8 else expect.options)}
    elif expect.kind == "cards":
        data = {"cards": [laid_at_random(expect, r)]}
    return sent(expect, data, r)


def laid_at_random(expect: Expect, r: random.Random) -> dict[str, Any]:
    """A card as the camera reads it: without a place (no areas set up), or in a zone of
    an area, mostly the one the rules want and the player's own, now and then not."""
    deck = packaged()
    name = r.choice(sorted(deck.cards))
    if r.random() < 0.6:
        return {"card": name}
    card = deck.cards[name]
    cast = card.kind == "spell" and r.random() < 0.8  # a player who means to win casts (see _preferred)
    fitting = "items" if card.kind in ("item", "wild") or cast else "bank"
    zone = fitting if r.random() < 0.95 else r.choice(("bank", "items"))
    seat = expect.seat if r.random() < 0.95 or expect.seat is None else expect.seat + 1
    return {"card": name, "seat": seat, "zone": zone}


def _preferred(expect: Expect) -> tuple[str, ...]:
    """A player who means to win: lays items and casts Spells rather than banking them."""
    deck = packaged()
    if expect.action == "play":
        items = tuple(o for o in expect.options if o in deck.cards and deck.cards[o].kind in ("item", "wild"))
        return items or expect.options
    if expect.action == "how" and len(expect.options) > 1:
        return expect.options[:1]
    return expect.options


def random_prompt(table: Table, r: random.Random) -> Expect:
    """One of the prompts open now; ending a turn only now and then, so cards get played."""
    expects = table.expects()
    others = [e for e in expects if e.action not in ("end", "recolour")]
    if others and r.random() < 0.85:
        return r.choice(others)
    return r.choice(expects)


def accounted(s: DealState) -> Counter[str]:
    """Every card somewhere: draw pile, hands, Banks, items, discards, characters, in play."""
    where = Counter(s.draw) + Counter(c for h in s.hands for c in h)
    where += Counter(c for b in s.banks for c in b) + Counter(p.card for i in s.items for p in i)
    where += Counter(s.discard) + Counter(s.petrified.values())
    if s.card:
        where[s.card] += 1
    if s.pending and s.pending.card:
        where[s.pending.card] += 1
    return where
