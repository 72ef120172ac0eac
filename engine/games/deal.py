"""Monopoly Deal Wizarding World (2-5 players) as the box plays it.

The table lays its cards face up; the box keeps every player's Bank and item
collection, whose turn it is and how many plays are left, asks for what each Spell
needs, proposes each payment, runs the Protego chains and announces the win the
moment a player has three complete sets of different colours.  With the digital
deck the box also deals, and each phone shows its own hand.  Where the rulebook is
silent Monopoly Deal's official rules apply, marked ``# Monopoly Deal:``.  The cards
are data (:mod:`engine.games.deal_deck`).

The moves (``choice`` an option as offered; cards by name, as the card reader or the
host gives them):

============  ==============================================  ============================
kind          data                                            who (besides the host)
============  ==============================================  ============================
youngest      {"choice": player}                              host only
character     {"choice": character card}                      the player choosing
play          {"choice": card} | {"cards": [card]}            the player whose turn it is
              (a card: its name, or {"card", "seat", "zone"}
              as the camera saw it lie, see deal_laid)
how           {"choice": "cast it" | "bank it"}               the player whose turn it is
colour        {"choice": colour}  (a wild laid)               the player whose turn it is
recolour      {"choice": "card: from A to B"}                 the player whose turn it is
release       {"choice": offer} | {"cards": [card...]}        the player whose turn it is
end           {}                                              the player whose turn it is
discard       {"choice": card} | {"cards": [card...]} | {}    the player whose turn it is
accio         {"choice": colour}                              the caster
target        {"choice": player}                              the caster
take, give    {"choice": item or colour}                      the caster
protego       {}  (at any time a Spell waits for an answer)   the one answering
let           {}                                              the one answering
pay           {"choice": offer} | {"cards": [card...]}        the payer
correct       {"card", "owner", "to", "area", "colour"}       host only (a placement fixed)
============  ==============================================  ============================

Final steps (undo stops at them, see engine.table): with the digital deck, every step
after which a phone was dealt or drew cards (the end of a turn, a discard that ends
it, a Spell that draws); and the end of the game.  Plays from a hand show nothing new
and may be undone.  The correction ``correct`` moves a card laid in the wrong place
(a misread, a slip) without undoing what came after.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.display import card, reveal
from engine.effects import Effect
from engine.game import Turn
from engine.games import deal_bank as bank
from engine.games import deal_sets as sets
from engine.games import deal_setup as setup
from engine.games import deal_spells as spells
from engine.games import deal_story as story
from engine.games import deal_turns as turns
from engine.games.deal_deck import ITEM, POINT, SPELL, WILD, Deck, packaged
from engine.games.deal_state import OVER, PAY, PLAY, RESPOND, DealState
from engine.games.deal_steps import CORRECT, PROTEGO, STEPS
from engine.messages import listing, words
from engine.steps import StepGame

_, _n = words("deal")


KINDS = {POINT: _("Point card"), ITEM: _("magical item"), WILD: _("wild item"), SPELL: _("Spell card")}


class Deal(StepGame[DealState]):
    """Monopoly Deal Wizarding World, with the deck of ``deck`` (the packaged file by default)."""

    name = "deal"
    title = _("Monopoly Deal Wizarding World")
    min_seats = 2
    max_seats = 5
    option_choices = setup.OPTION_CHOICES
    option_names, option_words = setup.OPTION_NAMES, setup.OPTION_WORDS
    labels = {
        "status": _("Now"),
        "players": _("Players"),
        "plays_left": _("Plays left"),
        "draw_pile": _("Draw pile"),
        "discard": _("Discard pile"),
        "hand_sizes": _("Cards in hand"),
        "hand": _("Your hand"),
        "turn_name": _("Whose turn"),
        "winner_name": _("Winner"),
        "banks": _("Banks"),
        "items": _("Items"),
        "characters": _("Characters"),
        "petrified": _("Petrificus Totalus on"),
        "debts": _("Debts"),
        "pending": _("Spell being cast"),
        "name": _("Name"),
        "character": _("Character"),
        "ability": _("Ability"),
        "bank_total": _("Bank total"),
        "sets": _("Item sets"),
        "complete_colours": _("Complete sets"),
        "colour": _("Colour"),
        "size": _("Set size"),
        "complete": _("Complete"),
        "card": _("Card"),
        "kind": _("Kind"),
        "value": _("Value"),
        "story": _("The story of the game"),
    }
    steps = STEPS
    anytime = (PROTEGO, CORRECT)
    corrections = {CORRECT.kind: _("the host moves a card laid in the wrong place (a correction)")}

    def __init__(self, deck: Deck | None = None) -> None:
        self.deck = deck

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[DealState, list[Effect]]:
        return setup.new_state(self.deck or packaged(), options, turn)

    def is_over(self, state: DealState) -> bool:
        return state.step == OVER

    def describe(self, public: DealState) -> dict[str, Any]:
        """The host page: every player's Bank total and sets (complete ones counted),
        whose turn it is, how many plays are left, the story so far, and at the end the
        reveal."""
        return {
            "status": _status(public),
            "turn_name": public.names[public.turn],
            "plays_left": max(0, turns.plays_allowed(public) - public.plays) if public.step == PLAY else None,
            "players": [_player(public, seat) for seat in range(public.players)],
            "winner_name": public.names[public.winner] if public.winner is not None else None,
            "story": story.lines(public),  # the lines, not the facts the state keeps
            **_ending(public),
        }

    def present(self, public: DealState, seat: int, mine: dict[str, Any]) -> dict[str, Any]:
        """A seat's own hand (the digital deck), each card with its kind and value."""
        hand = [c for c in mine.get("hands") or [] if c in public.deck.cards]
        character = public.character(seat)
        return {
            "card": card(
                character.name if character else _("Your hand"),
                "gold",
                character.ability if character else "",
                icon="diamond",
                history=sorted(hand),
            ),
            "hand": [
                {"card": c, "kind": KINDS[public.spec(c).kind], "value": public.spec(c).value} for c in sorted(hand)
            ],
        }


def _ending(state: DealState) -> dict[str, Any]:
    """At the end: each player as a card with their complete sets and Bank (the winner
    gold), the outcome and the story of every turn."""
    if state.step != OVER:
        return {}
    cards = ((state.names[s], _seat_card(state, s)) for s in range(state.players))
    return {"reveal": reveal(cards, outcome=_status(state), story=story.lines(state))}


def _seat_card(state: DealState, seat: int) -> dict[str, Any]:
    """A player at the end: how many complete sets, of which colours, and the Bank."""
    complete = sets.complete_colours(state, seat)
    word = _n("{count} complete set", "{count} complete sets", len(complete))
    total = bank.bank_total(state, seat)
    detail = (
        _n(
            "{sets}; Bank: {count} point",
            "{sets}; Bank: {count} points",
            total,
            sets=listing([state.deck.colour_name(c) for c in complete]),
        )
        if complete
        else _n("Bank: {count} point", "Bank: {count} points", total)
    )
    won = seat == state.winner
    return card(word, "gold" if won else "grey", detail, icon="crown" if won else "house")


def _player(state: DealState, seat: int) -> dict[str, Any]:
    character = state.character(seat)
    return {
        "name": state.names[seat],
        "character": character.name if character else None,
        "ability": character.ability if character else None,
        "petrified": seat in state.petrified,
        "bank_total": bank.bank_total(state, seat),
        "sets": sets.sets_view(state, seat),
        "complete_colours": [state.deck.colour_name(c) for c in sets.complete_colours(state, seat)],
    }


def _status(state: DealState) -> str:
    name = state.names[state.turn]
    if state.step == OVER and state.winner is not None:
        return _("Game over: {name} won with three complete sets.", name=state.names[state.winner])
    if state.step == OVER:
        return _("Game over: no card was left to play, and nobody won.")
    if state.step == PAY and state.debts:
        debt = state.debts[0]
        return _n(
            "{name} owes {other} one point.",
            "{name} owes {other} {count} points.",
            debt.amount,
            name=state.names[debt.payer],
            other=state.names[debt.receiver],
        )
    if state.step == RESPOND and state.pending:
        return _("{card}: waiting for {name}.", card=state.pending.card, name=state.names[spells.answering(state)])
    if state.step == PLAY:
        left = max(0, turns.plays_allowed(state) - state.plays)
        return _n("{name}'s turn: one play left.", "{name}'s turn: {count} plays left.", left, name=name)
    return _("{name}: {doing}", name=name, doing=_DOING[state.step])


_DOING = {step.name: step.doing for step in STEPS}
