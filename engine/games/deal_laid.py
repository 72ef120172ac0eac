"""Monopoly Deal Wizarding World: a card read where it lies on the table.

RULEBOOK: a player adds to their Bank "by placing Point or Spell cards in front of
you, faceup", adds an item "by placing it faceup in front of you, separate from your
Bank", and plays a Spell "by reading it aloud" (then discards it).  So where a card
lies says how it is played: a Spell laid in its player's Bank is banked, one laid
outside it is cast.  The box's camera reports each card's place (``seat`` and, when
the areas are divided, ``zone``: ``bank`` or ``items``); a place the rules forbid is
refused with what to do, and changes nothing.  A two-colour wild counts as the
colour on top as its owner sees it (``upright``: the deck file lists first the colour
printed at the top of the card as taught); the every-colour wild's colour is asked.  A
card reported without a place (no
areas set up, or the host typing it) is played by whoever's turn it is, and a Spell
is then asked about.

The prompt for the next card lists every card the box already places (Banks, items,
character cards, a Petrificus Totalus), so the box answers it only with a card newly
laid, never with the table it already knows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import IllegalAction
from engine.effects import Effect
from engine.game import Turn
from engine.games import deal_spells as spells
from engine.games import deal_turns as turns
from engine.games.deal_deck import ITEM, POINT, SPELL, WILD
from engine.games.deal_state import COLOUR, HOW, DealState
from engine.messages import words

_, _n = words("deal")

BANK, ITEMS = "bank", "items"


@dataclass(frozen=True)
class Seen:
    """A card as the camera reads it: its name and where it lies (None: not known)."""

    card: str
    seat: int | None = None
    zone: str | None = None
    upright: bool | None = None  # the card's top away from its owner, as they read it


def seen_arg(item: Any) -> Seen:
    """A card of a ``play``: its name (:func:`deal_turns.card_arg`) and, from the camera,
    its ``seat`` and ``zone``."""
    name = turns.card_arg(item)
    seat = item.get("seat") if isinstance(item, dict) else None
    zone = item.get("zone") if isinstance(item, dict) else None
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat < 0):
        raise IllegalAction(_("a card's seat is the number of the player whose area it lies in"))
    if zone not in (None, BANK, ITEMS):
        raise IllegalAction(_("a card lies in a player's bank or items"))
    upright = item.get("upright") if isinstance(item, dict) else None
    if upright is not None and not isinstance(upright, bool):
        raise IllegalAction(_("a card lies upright or upside down: true or false"))
    return Seen(name, seat, zone, upright)


def on_table(state: DealState) -> tuple[tuple[str, int, str | None], ...]:
    """Every card the box places in a player's area, with the zone it lies in."""
    out: list[tuple[str, int, str | None]] = [(c, seat, BANK) for seat, bank in enumerate(state.banks) for c in bank]
    out += [(p.card, seat, ITEMS) for seat, items in enumerate(state.items) for p in items]
    out += [(str(name), seat, None) for seat, name in enumerate(state.characters) if name]
    out += [(card, seat, None) for seat, card in state.petrified.items()]
    return tuple(out)


def play(state: DealState, turn: Turn) -> list[Effect]:
    """A card from the hand, laid where the camera saw it (see the module's docstring)."""
    laid = (turn.args.get("cards") or [None])[0]
    if laid is not None:
        _check_place(state, laid)
    effects = turns.play(state, turn)
    if laid is not None and state.step == COLOUR and laid.upright is not None:
        wild = state.spec(str(state.card))
        if not wild.every_colour:  # RULEBOOK: "flip it so the color you'd like it to represent is on top"
            return turns.place_wild(state, wild.colours[0 if laid.upright else 1])  # answers the question asked
    if laid is None or laid.zone is None or state.step != HOW:
        return effects
    if laid.zone == BANK:
        return effects + turns.bank_it(state)
    return effects + spells.cast(state, turn)


def _check_place(state: DealState, laid: Seen) -> None:
    """Refuse a card whose place the rules forbid, before anything moves."""
    name = state.deck.find(laid.card)
    if name is None:
        return  # the play itself says there is no such card
    card, who = state.spec(name), state.names[state.turn]
    if laid.seat is not None and laid.seat >= state.players:
        raise IllegalAction(_("{card} lies in an area where no player of this game sits", card=name))
    if laid.seat is not None and laid.seat != state.turn:
        raise IllegalAction(
            _(
                "{card} lies in {owner}'s area, and it is {name}'s turn: lay it in your own area",
                card=name,
                owner=state.names[laid.seat],
                name=who,
            )
        )
    if laid.zone == BANK and card.kind in (ITEM, WILD):
        raise IllegalAction(_("items never go in the Bank: lay {card} among your items", card=name))
    if laid.zone == ITEMS and card.kind == POINT:
        raise IllegalAction(_("Point cards go in the Bank: lay {card} in your Bank", card=name))
    if laid.zone == ITEMS and card.kind == SPELL and not spells.castable(state, name):
        raise IllegalAction(_("{card} can do nothing now: lay it in your Bank", card=name))
