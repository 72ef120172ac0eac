"""Monopoly Deal Wizarding World: the host corrects a placement.

The camera may misread a card, or a card may be laid in the wrong area: the host moves
it where it belongs, within what the rules allow (items only in a collection, Point and
Spell cards only in a Bank, a wild as one of its colours), and the win is checked again.
"""

from __future__ import annotations

from engine.actions import IllegalAction
from engine.effects import Effect, Say
from engine.game import Turn
from engine.games import deal_story as story
from engine.games.deal_deck import ITEM, WILD
from engine.games.deal_state import OVER, DealState, Placed
from engine.games.deal_turns import check_win, colour_options
from engine.messages import words

_, _n = words("deal")

AREAS = ("bank", "items")


def correct(state: DealState, turn: Turn) -> list[Effect]:
    """The host moves a card laid in the wrong place (a misread, a slip): from ``owner``'s
    Bank or items to ``to``'s Bank or items, where the rules let it lie."""
    owner, to, area = turn.args["owner"], turn.args["to"], turn.args["area"]
    name = state.deck.find(turn.args["card"])
    card = state.spec(name) if name else None
    if name is None or card is None:
        raise IllegalAction(_("there is no card called {card!r} in this deck", card=turn.args["card"][:60]))
    if (area == "items") != (card.kind in (ITEM, WILD)):
        raise IllegalAction(_("items lie only in a collection, and Point and Spell cards only in a Bank"))
    colour = _wild_colour(state, name, turn.args["colour"]) if card.kind == WILD else card.colour
    if name in state.banks[owner]:
        state.banks[owner].remove(name)
    else:
        index = next((i for i, p in enumerate(state.items[owner]) if p.card == name), None)
        if index is None:
            raise IllegalAction(_("{name} has no {card} laid", name=state.names[owner], card=name))
        state.items[owner].pop(index)
    if area == "bank":
        state.banks[to].append(name)
    else:
        state.items[to].append(Placed(name, str(colour)))
    story.tell(state, "correct", card=name, seat=to, area=area)
    said = _("The host moves {card} to {name}'s {area}.", card=name, name=state.names[to], area=AREA_NAMES[area])
    return [Say(said)] + (check_win(state) if state.step != OVER else [])


AREA_NAMES = {"bank": _("Bank"), "items": _("items")}


def _wild_colour(state: DealState, name: str, given: str | None) -> str:
    options = colour_options(state, name)
    found = next((key for shown, key in options.items() if given and shown.casefold() == given.casefold()), None)
    if found is None:
        raise IllegalAction(_("say which colour {card} represents: {colours}", card=name, colours=", ".join(options)))
    return found
