"""Harry Potter Clue with real Mystery cards: what the box is told of the deal.

The table deals its own cards, so the box knows only what it is told: the host enters
the cards face up in The Burrow (public: everyone sees them) before the characters are
chosen, and each player may enter their own hand on their phone, tick cards on their
notepad, and tick the card just shown to them in one tap.  Hands and ticks are the
player's own input, kept for their notepad alone (``entered``, ``ticks``): private
moves, so the host's undo passes over them and no other page learns they were made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice, Items, Opt, Seat
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


def tick(state: ClueState, turn: Turn) -> list[Effect]:
    """Real cards: a player ticks a card on their own notepad (``by``: who showed it, if
    they say), or unticks it with a second tap; their phone only."""
    seat, card = turn.seat, turn.args["choice"]
    if seat is None:
        raise IllegalAction(_("only a player can do that, on their own phone"))
    ticks = dict(state.ticks.get(seat, {}))
    if card in ticks:
        del ticks[card]
    else:
        ticks[card] = turn.args["by"]
    state.ticks = {**state.ticks, seat: ticks}
    return []


def _ask_tick(state: ClueState) -> list[Expect]:
    """Each phone's notepad, open to ticks (every card both ways, so the prompt says
    nothing of what is ticked; optional, as the game never waits on it)."""
    prompt = _("Tick or untick a card on your notepad")
    cards = tuple(state.cards())
    return [
        Expect.choice("tick", prompt, cards, seat=s, secret=True, optional=True, glanceable=True)
        for s in range(state.players)
    ]


TICK_MOVE = Move[ClueState](
    "tick",
    tick,
    args={"choice": Choice(lambda s: s.cards()), "by": Opt(Seat())},
    by=lambda s: range(s.players),
    host=False,
    ask=_ask_tick,
    when=lambda s: s.physical and not over(s),
    private=True,
)


def shown_to_me(state: ClueState) -> tuple[int, int, list[str]] | None:
    """Real cards: the last suggestion, if a card was shown for it: (suggester, holder,
    the three cards named), so the suggester can tick the one they saw in one tap."""
    if not state.physical or not state.suggestions or over(state):
        return None
    last = state.suggestions[-1]
    if last["shown_by"] is None:
        return None
    return last["by"], last["shown_by"], [last["suspect"], last["item"], str(last["location"])]


def seen(state: ClueState, turn: Turn) -> list[Effect]:
    """The suggester ticks the card they were shown, held by the player who showed it."""
    shown = shown_to_me(state)
    if shown is None or turn.seat != shown[0]:
        raise IllegalAction(_("only the player who was shown a card can do that, on their own phone"))
    state.ticks = {**state.ticks, shown[0]: {**state.ticks.get(shown[0], {}), turn.args["choice"]: shown[1]}}
    return []


def _ask_seen(state: ClueState) -> list[Expect]:
    """Asked of the suggester until they tick one of the three as held by the shower."""
    shown = shown_to_me(state)
    if shown is None:
        return []
    asker, holder, named = shown
    if any(state.ticks.get(asker, {}).get(card) == holder for card in named):
        return []
    prompt = _("Which card did {name} show you? (for your notepad)", name=state.names[holder])
    return [Expect.choice("seen", prompt, tuple(named), seat=asker, secret=True, optional=True, glanceable=True)]


SEEN_MOVE = Move[ClueState](
    "seen",
    seen,
    args={"choice": Choice(lambda s: (shown_to_me(s) or (0, 0, []))[2])},
    by=lambda s: [shown[0]] if (shown := shown_to_me(s)) else [],
    host=False,
    ask=_ask_seen,
    when=lambda s: shown_to_me(s) is not None,
    private=True,
)
