"""Monopoly Deal Wizarding World: Banks and paying debts.

RULEBOOK: "You choose how you want to pay, not the player you're paying. Never pay
with cards from your hand. If you don't have enough in your Bank, then you must pay
with your items!"  "There's no change in this game" and "If you don't have enough
points or items, just pay what you can."  So a payment is legal when it is

* everything payable, if that does not reach the debt;
* otherwise cards worth at least the debt, none of which could be left out (a card
  more than needed is a gift, not a payment; "no change" means the last card may
  overshoot), with items only when the Bank alone cannot cover the debt.

The every-colour wild is never payable ("This card can't be used as points").  The
box proposes the cheapest legal payment (the least overpaid, then the fewest items
given up) and the payer accepts it or names another.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.actions import IllegalAction
from engine.games.deal_deck import ITEM, WILD
from engine.games.deal_state import DealState
from engine.messages import listing, words

_, _n = words("deal")


@dataclass(frozen=True)
class Offer:
    """Cards a payer may give: where each is (``"bank"`` or ``"items"``) and its index."""

    area: str
    index: int
    card: str
    value: int


RELEASE = 10
"""RULEBOOK: Petrificus Totalus holds "until the player discards an equivalent of 10 points"."""


def bank_total(state: DealState, seat: int) -> int:
    return sum(state.spec(c).value for c in state.banks[seat])


def releasable(state: DealState, seat: int) -> bool:
    """Whether ``seat`` is under Petrificus Totalus and could end it from its Bank."""
    return seat in state.petrified and bank_total(state, seat) >= RELEASE


def payable(state: DealState, seat: int, bank_only: bool = False) -> list[Offer]:
    """What ``seat`` could pay with: its Bank, then its items (never an every-colour wild)."""
    offers = [Offer("bank", i, c, state.spec(c).value) for i, c in enumerate(state.banks[seat])]
    if not bank_only:
        for i, placed in enumerate(state.items[seat]):
            card = state.spec(placed.card)
            if not card.every_colour:
                offers.append(Offer("items", i, placed.card, card.value))
    return offers


def _candidates(state: DealState, seat: int, amount: int, bank_only: bool) -> list[Offer]:
    """The cards a legal payment may use: the Bank alone when it covers the debt."""
    covers = bank_total(state, seat) >= amount
    return payable(state, seat, bank_only=bank_only or covers)


def cheapest(state: DealState, seat: int, amount: int, bank_only: bool = False) -> list[Offer]:
    """The legal payment the box proposes: least overpaid, then fewest items, then fewest cards."""
    offers = _candidates(state, seat, amount, bank_only)
    if sum(o.value for o in offers) <= amount:
        return offers
    # best[total] = (items given, cards given, the offers) over subsets, smallest first
    best: dict[int, tuple[int, int, tuple[int, ...]]] = {0: (0, 0, ())}
    for k, offer in enumerate(offers):
        for total, (items, cards, chosen) in list(best.items()):
            if total >= amount:
                continue  # a covering payment gains nothing from one more card
            grown = (items + (offer.area == "items"), cards + 1, (*chosen, k))
            key = total + offer.value
            if key not in best or grown[:2] < best[key][:2]:
                best[key] = grown
    total = min(t for t in best if t >= amount)
    return [offers[k] for k in best[total][2]]


def check(state: DealState, seat: int, amount: int, names: Sequence[str], bank_only: bool = False) -> list[Offer]:
    """The named cards as a payment of ``amount`` by ``seat``, or a refusal saying why."""
    offers = _candidates(state, seat, amount, bank_only)
    everything = payable(state, seat, bank_only)
    chosen = _pick(state, seat, names, everything)
    total = sum(o.value for o in chosen)
    if sum(o.value for o in everything) <= amount:
        if len(chosen) != len(everything):
            raise IllegalAction(_("that is not enough: with less than is owed, everything is paid"))
        return chosen
    if any(o.area == "items" for o in chosen) and not any(o.area == "items" for o in offers):
        raise IllegalAction(_("your Bank covers it: items are paid only when the Bank is short"))
    if total < amount:
        raise IllegalAction(
            _n(
                "that is one point, short of the {amount} owed",
                "that is {count} points, short of the {amount} owed",
                total,
                amount=amount,
            )
        )
    if any(total - o.value >= amount for o in chosen):
        raise IllegalAction(_("that is more than owed: leave out a card and it still covers the debt"))
    return chosen


def _pick(state: DealState, seat: int, names: Sequence[str], offers: list[Offer]) -> list[Offer]:
    """The offers ``names`` denote (each card once, as many copies as named)."""
    left = list(offers)
    chosen = []
    for name in names:
        found = state.deck.find(name)
        card = state.spec(found) if found else None
        if card is not None and card.every_colour:
            raise IllegalAction(_("{card} can't be used as points", card=card.name))
        match = next((o for o in left if o.card == found), None)
        if match is None:
            raise IllegalAction(_("{card} is not in your Bank or items", card=name[:60]))
        left.remove(match)
        chosen.append(match)
    if not chosen and offers:
        raise IllegalAction(_("name the cards you pay with"))
    return chosen


def transfer(state: DealState, payer: int, receiver: int, paid: Sequence[Offer]) -> None:
    """Bank cards go to the receiver's Bank, items to the receiver's collection, keeping
    the colour they represent (RULEBOOK: "Items never go in the Bank!")."""
    state.banks[receiver] += _taken(state.banks[payer], {o.index for o in paid if o.area == "bank"})
    state.items[receiver] += _taken(state.items[payer], {o.index for o in paid if o.area == "items"})


T = TypeVar("T")


def _taken(cards: list[T], indexes: set[int]) -> list[T]:
    """The cards at ``indexes``, in their order, removed from ``cards``."""
    taken = [card for i, card in enumerate(cards) if i in indexes]
    cards[:] = [card for i, card in enumerate(cards) if i not in indexes]
    return taken


def discard_from_bank(state: DealState, seat: int, paid: Sequence[Offer]) -> None:
    state.discard += _taken(state.banks[seat], {o.index for o in paid})


def described(offers: Sequence[Offer]) -> str:
    """A payment as one option text: its cards, largest first ("nothing" when empty)."""
    return named([o.card for o in offers])


def named(cards: Sequence[str]) -> str:
    """Cards said as one list, each name once with how many ("nothing" when empty): how
    a payment is offered and how the story tells it."""
    if not cards:
        return _("nothing")
    names = Counter(cards)
    parts = [name if n == 1 else _("{count} × {card}", count=n, card=name) for name, n in sorted(names.items())]
    return listing(parts)


def is_item(state: DealState, name: str) -> bool:
    return state.spec(name).kind in (ITEM, WILD)
