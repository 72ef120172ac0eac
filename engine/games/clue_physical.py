"""Harry Potter Clue with real Mystery cards: what the box is told of the deal.

The table deals its own cards, so the box knows only what it is told: the host enters
the cards face up in The Burrow (public: everyone sees them) before the characters are
chosen, and each player may enter their own hand on their phone.  A hand is the
player's own input, kept for their notepad alone (``entered``): a private move, so the
host's undo passes over it and no other page learns that it was made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import IllegalAction
from engine.args import Items, Opt
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.clue_state import ClueState, over
from engine.messages import listing, words
from engine.steps import Move

_, _n = words("clue")

ENTER_HAND = _("Enter your own Mystery cards on your phone, so your notepad knows them.")
DEALT = 18
"""The Mystery cards dealt out: 21 less the envelope's three."""


def burrow_size(state: ClueState) -> int:
    """How many cards lie face up in The Burrow: what is left after an even deal."""
    return DEALT % state.players


def hand_size(state: ClueState) -> int:
    return DEALT // state.players


def burrow_missing(state: ClueState) -> bool:
    """Real cards whose Burrow the host has not entered yet (the notepad cannot know it)."""
    return state.physical and len(state.burrow) < burrow_size(state)


def named(raw: Sequence[Any], count: int, allowed: Sequence[str]) -> list[str]:
    """``count`` distinct Mystery cards from ``allowed``, matched as typed (any case)."""
    by_fold = {card.casefold(): card for card in allowed}
    cards = [by_fold.get(" ".join(str(c).split()).casefold()) for c in raw]
    if any(c is None for c in cards) or len(set(cards)) != len(cards) or len(cards) != count:
        raise IllegalAction(
            _n("name {count} different Mystery card", "name {count} different Mystery cards", count, count=count)
        )
    return sorted(c for c in cards if c is not None)


def _picked(turn: Turn) -> list[Any]:
    return list(turn.args.get("choices") or turn.args.get("cards") or [])


def burrow(state: ClueState, turn: Turn) -> list[Effect]:
    """The host enters The Burrow's face-up cards (tapped, typed or read by the camera)."""
    if not burrow_missing(state):
        raise IllegalAction(_("The Burrow's cards are already entered"))
    state.burrow = named(_picked(turn), burrow_size(state), state.cards())
    return [
        Say(_("Face up in The Burrow: {cards}.", cards=listing(state.burrow))),
        Say(ENTER_HAND),
    ]


def hand(state: ClueState, turn: Turn) -> list[Effect]:
    """A player enters (or corrects) their own hand, on their own phone only."""
    seat = turn.seat
    if seat is None:
        raise IllegalAction(_("only a player can do that, on their own phone"))
    free = [c for c in state.cards() if c not in state.burrow]
    state.entered = {**state.entered, seat: named(_picked(turn), hand_size(state), free)}
    return []


def _ask_burrow(state: ClueState) -> list[Expect]:
    if not burrow_missing(state):
        return []
    count = burrow_size(state)
    prompt = _n(
        "Which {count} card lies face up in The Burrow?",
        "Which {count} cards lie face up in The Burrow?",
        count,
        count=count,
    )
    return [Expect.choice("burrow", prompt, tuple(state.cards()), count=count)]


def _ask_hand(state: ClueState) -> list[Expect]:
    """Each phone that has not entered its hand is offered to (optional: the game never
    waits on it; the options are public, so the prompt shows openly)."""
    count, free = hand_size(state), tuple(c for c in state.cards() if c not in state.burrow)
    prompt = _n("Tap the {count} Mystery card you hold", "Tap the {count} Mystery cards you hold", count, count=count)
    return [
        Expect.choice("hand", prompt, free, seat=s, count=count, secret=True, optional=True, glanceable=True)
        for s in range(state.players)
        if s not in state.entered
    ]


CARDS_ARGS = {"choices": Opt(Items(str, DEALT)), "cards": Opt(Items(str, DEALT))}
"""Cards tapped on a page (``choices``) or read by the camera (``cards``)."""

BURROW_MOVE = Move[ClueState]("burrow", burrow, args=CARDS_ARGS, ask=_ask_burrow)
HAND_MOVE = Move[ClueState](
    "hand",
    hand,
    args=CARDS_ARGS,
    by=lambda s: range(s.players),
    host=False,
    ask=_ask_hand,
    when=lambda s: s.physical and not burrow_missing(s) and not over(s),
    private=True,
)
