"""Monopoly Deal Wizarding World, set-up: the youngest player, the characters, the deal.

RULEBOOK: "Remove the five character cards from the deck. Each player chooses one
Hogwarts student", "Shuffle the rest of the cards and deal five to each player" and
"The youngest player goes first, and play moves to the left."  The box cannot tell
ages, so the host names the youngest; the characters are chosen in play order from
the youngest.  With the digital deck the box deals to the phones; with the physical
deck the table deals and the box counts the cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import IllegalAction
from engine.effects import Effect, Say
from engine.game import Turn
from engine.games.deal_deck import Deck
from engine.games.deal_state import CHARACTER, UNSEEN, DealState
from engine.games.deal_turns import begin_turn
from engine.messages import words

_, _n = words("deal")

HAND = 5
DIGITAL, PHYSICAL = "digital", "physical"
OPTION_CHOICES: dict[str, tuple[str, ...]] = {"deck": (DIGITAL, PHYSICAL)}
OPTION_NAMES = {"deck": _("Deck")}
"""The new-game form's names for the options, and (below) for their values."""
OPTION_WORDS = {"deck": {DIGITAL: _("shuffled by the box"), PHYSICAL: _("the table's own cards")}}


def new_state(deck: Deck, options: Mapping[str, Any], turn: Turn) -> tuple[DealState, list[Effect]]:
    mode = options.get("deck", DIGITAL)
    if mode not in OPTION_CHOICES["deck"]:
        raise IllegalAction(_("deck must be digital or physical"))
    players = len(turn.seats)
    state = DealState(names=list(turn.seats), deck_id=deck.id, digital=mode == DIGITAL)
    state.characters = [None] * players
    state.banks, state.items = [[] for _s in range(players)], [[] for _s in range(players)]
    state.hands, state.drawn = [[] for _s in range(players)], [[] for _s in range(players)]
    if state.digital:
        state.draw = list(deck.order)
        turn.random("deck", 0).shuffle(state.draw)
    else:
        state.draw = [UNSEEN] * len(deck.order)
    return state, [Say(_("Monopoly Deal Wizarding World. Who is the youngest player? They go first."))]


def youngest(state: DealState, turn: Turn) -> list[Effect]:
    seat = turn.args["choice"]
    state.first = state.turn = seat
    state.step = CHARACTER
    return [Say(_("{name} goes first. Choose your characters, starting with {name}.", name=state.names[seat]))]


def free_characters(state: DealState) -> list[str]:
    return [c.name for c in state.deck.characters if c.name not in state.characters]


def choose_character(state: DealState, turn: Turn) -> list[Effect]:
    name = turn.args["choice"]
    character = next(c for c in state.deck.characters if c.name == name)
    seat = state.turn
    state.characters[seat] = name
    said: list[Effect] = [
        Say(
            _(
                "{name} chooses {character}: {ability}",
                name=state.names[seat],
                character=name,
                ability=character.ability,
            )
        )
    ]
    state.turn = state.left_of(seat)
    if state.turn != state.first:
        return said
    return said + deal(state, turn)


def deal(state: DealState, turn: Turn) -> list[Effect]:
    """Five cards each, one at a time round the table from the first player."""
    for _round in range(HAND):
        for seat in [state.first, *state.others(state.first)]:
            card = state.draw.pop()
            state.hands[seat].append(card)
            if card != UNSEEN:
                state.drawn[seat].append(card)
    said = (
        _("Your five cards are on your phone: keep them secret.")
        if state.digital
        else _("Put the other character cards back in the box. Shuffle the deck and deal five cards to each player.")
    )
    return [Say(said), *begin_turn(state, turn, state.first)]
