"""Monopoly Deal Wizarding World: a turn, from the draw to the hand limit.

RULEBOOK: "Draw two cards. If you ever start your turn with no cards, draw five
instead."  "Take actions by playing up to three cards of any type."  "At the end of
your turn, you may have up to seven cards in your hand."  A card played is laid in
the Bank, in the player's items, or cast; "Once you play a card, you can't put it
back in your hand", so once named it is laid, and only how it is laid is asked.
Wilds are recoloured on their owner's turn, free.  The win is checked after every
change and announced at once.
"""

from __future__ import annotations

from typing import Any

from engine.actions import IllegalAction
from engine.effects import Effect, Say
from engine.game import Turn
from engine.games import deal_bank as bank
from engine.games import deal_story as story
from engine.games import deal_stuck as stuck
from engine.games.deal_deck import ITEM, POINT, WILD
from engine.games.deal_sets import complete_colours, won
from engine.games.deal_state import COLOUR, DISCARD, HOW, OVER, PLAY, UNSEEN, DealState, Placed
from engine.messages import words

_, _n = words("deal")

DRAW = 2
EMPTY_DRAW = 5
PLAYS = 3
HAND_LIMIT = 7
CAST, TO_BANK = _("cast it"), _("bank it")


def plays_allowed(state: DealState) -> int:
    return PLAYS + state.ability(state.turn, "extra_play")


def hand_limit(state: DealState) -> int:
    return HAND_LIMIT + state.ability(state.turn, "hand_limit")


def draw(state: DealState, turn: Turn, seat: int, count: int) -> list[Effect]:
    """``count`` cards from the draw pile into ``seat``'s hand, the discards reshuffled
    into a new draw pile when it runs out."""
    effects: list[Effect] = []
    for _card in range(count):
        if not state.draw:
            if not state.discard:
                break
            # Monopoly Deal: when the draw pile runs out, the discards are shuffled into a new one.
            state.shuffles += 1
            state.draw = [c if state.digital else UNSEEN for c in state.discard]
            state.discard = []
            turn.random("deck", state.shuffles).shuffle(state.draw)
            effects.append(Say(_("The draw pile is empty: shuffle the discard pile to make a new one.")))
        card = state.draw.pop()
        state.hands[seat].append(card)
        if card != UNSEEN:
            state.drawn[seat].append(card)
    return effects


def begin_turn(state: DealState, turn: Turn, seat: int) -> list[Effect]:
    """``seat``'s turn: it draws what the piles still hold; when no card is left to draw
    and nothing can ever fill the piles again, the game ends (:mod:`deal_stuck`)."""
    state.step, state.turn, state.plays = PLAY, seat, 0
    story.begin(state, seat)
    count = (EMPTY_DRAW if not state.hands[seat] else DRAW) + state.ability(seat, "extra_draw")
    held = len(state.hands[seat])
    effects = draw(state, turn, seat, count)
    count = len(state.hands[seat]) - held
    name = state.names[seat]
    if count == 0:
        if stuck.cannot_go_on(state):
            return _stuck(state)
        return [Say(_("{name}'s turn: no card is left to draw.", name=name)), *effects]
    said = _n("{name}'s turn: draw one card.", "{name}'s turn: draw {count} cards.", count, name=name)
    return [Say(said), *effects]


def _stuck(state: DealState) -> list[Effect]:
    """The end of a game that cannot go on: no winner."""
    state.step, state.winner = OVER, None
    story.tell(state, "stuck")
    return [Say(STUCK)]


STUCK = _(
    "No card is left to draw or to play, and nobody can complete three sets: "
    "the game cannot go on, and ends without a winner."
)


def check_win(state: DealState) -> list[Effect]:
    """Any player with three complete sets of different colours wins, whoever's turn it is."""
    for seat in [state.turn, *state.others(state.turn)]:
        if won(state, seat):
            if state.pending is not None and state.pending.card:
                state.discard.append(state.pending.card)  # the Spell is done, and so is the game
            state.step, state.winner, state.pending, state.debts = OVER, seat, None, []
            story.tell(state, "won", seat=seat, colours=complete_colours(state, seat))
            return [Say(_("{name} has three complete sets of different colours and wins!", name=state.names[seat]))]
    return []


def card_arg(item: Any) -> str:
    """A card as read by the card reader (``{"card": name, ...}`` with the taught deck's
    data, which the box takes from its own deck file instead) or as typed."""
    name = item.get("card") if isinstance(item, dict) else item
    if not isinstance(name, str) or not name.strip():
        raise IllegalAction(_("each card is its name, as taught to the card reader"))
    return name.strip()[:60]


def _named(state: DealState, turn: Turn) -> str:
    given = turn.args.get("choice") or (turn.args.get("cards") or [None])[0]
    raw = getattr(given, "card", given)  # a card read where it lies (deal_laid.Seen) or a name
    if raw is None:
        raise IllegalAction(_("name the card you play"))
    found = state.deck.find(str(raw))
    if found is None:
        raise IllegalAction(_("there is no card called {card!r} in this deck", card=str(raw)[:60]))
    return found


def on_table(state: DealState, name: str) -> int:
    """Copies of ``name`` the box has seen laid: Banks, items, discards, characters, in play."""
    laid = sum(b.count(name) for b in state.banks) + sum(p.card == name for i in state.items for p in i)
    laid += state.discard.count(name) + list(state.petrified.values()).count(name)
    laid += state.card == name
    return laid + (state.pending is not None and state.pending.card == name)


def from_hand(state: DealState, seat: int, name: str) -> None:
    """Take ``name`` from ``seat``'s hand: the card itself, or (physical deck) a card the
    box had not seen, as long as the deck has a copy not yet laid."""
    hand = state.hands[seat]
    if state.digital:
        if name not in hand:
            raise IllegalAction(_("{card} is not in your hand", card=name))
        hand.remove(name)
        return
    if UNSEEN not in hand:
        raise IllegalAction(_("{name} has no cards in hand", name=state.names[seat]))
    if on_table(state, name) >= state.spec(name).count:
        raise IllegalAction(_("every {card} of the deck is already on the table", card=name))
    hand.remove(UNSEEN)


def play(state: DealState, turn: Turn) -> list[Effect]:
    """A card from the hand: a Point card goes to the Bank, an item to the items (a wild
    asks for its colour), a Spell is cast or banked as its player says."""
    if state.plays >= plays_allowed(state):
        raise IllegalAction(_n("only one card a turn", "only {count} cards a turn", plays_allowed(state)))
    name = _named(state, turn)
    from_hand(state, state.turn, name)
    state.plays += 1
    card, who = state.spec(name), state.names[state.turn]
    if card.kind == POINT:
        state.banks[state.turn].append(name)
        story.tell(state, "bank", card=name)
        return [Say(_("{name} banks {card}.", name=who, card=name))]
    if card.kind == ITEM:
        state.items[state.turn].append(Placed(name, str(card.colour)))
        story.tell(state, "item", card=name, colour=str(card.colour))
        return [Say(_("{name} adds {card} to their items.", name=who, card=name))] + check_win(state)
    state.card = name
    if card.kind == WILD:
        state.step = COLOUR
        return [Say(_("{name} lays {card}: which colour does it represent?", name=who, card=name))]
    state.step = HOW
    return [Say(_("{name} plays {card}: cast it, or bank it?", name=who, card=name))]


def bank_it(state: DealState) -> list[Effect]:
    """RULEBOOK: "Once you place a Spell card in your Bank, think of it as a Point card.\""""
    name = str(state.card)
    state.banks[state.turn].append(name)
    state.card, state.step = None, PLAY
    story.tell(state, "bank", card=name)
    return [
        Say(
            _n(
                "{name} banks {card} as one point.",
                "{name} banks {card} as {count} points.",
                state.spec(name).value,
                name=state.names[state.turn],
                card=name,
            )
        )
    ]


def colour_options(state: DealState, name: str) -> dict[str, str]:
    """A wild's colours, by the colour's printed name."""
    return {state.deck.colour_name(c): c for c in state.spec(name).colours}


def lay_wild(state: DealState, turn: Turn) -> list[Effect]:
    return place_wild(state, colour_options(state, str(state.card))[turn.args["choice"]])


def place_wild(state: DealState, colour: str) -> list[Effect]:
    """The wild being laid joins its player's items as ``colour``."""
    name = str(state.card)
    state.items[state.turn].append(Placed(name, colour))
    state.card, state.step = None, PLAY
    story.tell(state, "item", card=name, colour=colour)
    said = _("{card} counts as {colour}.", card=name, colour=state.deck.colour_name(colour))
    return [Say(said)] + check_win(state)


def recolour_options(state: DealState) -> dict[str, tuple[int, str]]:
    """Each wild of the player whose turn it is, as each other colour it could represent."""
    out: dict[str, tuple[int, str]] = {}
    for index, placed in enumerate(state.items[state.turn]):
        card = state.spec(placed.card)
        if card.kind != WILD:
            continue
        for colour in card.colours:
            if colour != placed.colour:
                option = _(
                    "{card}: from {old} to {new}",
                    card=placed.card,
                    old=state.deck.colour_name(placed.colour),
                    new=state.deck.colour_name(colour),
                )
                out.setdefault(option, (index, colour))
    return out


def recolour(state: DealState, turn: Turn) -> list[Effect]:
    """RULEBOOK: "you can always change which color you'd like them to represent later in
    the game, as long as you do so during your turn" and it "does not count as one of
    your three actions"."""
    index, colour = recolour_options(state)[turn.args["choice"]]
    placed = state.items[state.turn][index]
    placed.colour = colour
    story.tell(state, "recolour", card=placed.card, colour=colour)
    said = _("{card} now counts as {colour}.", card=placed.card, colour=state.deck.colour_name(colour))
    return [Say(said)] + check_win(state)


def release_offer(state: DealState) -> list[bank.Offer]:
    return bank.cheapest(state, state.turn, bank.RELEASE, bank_only=True)


def can_release(state: DealState) -> bool:
    return bank.releasable(state, state.turn)


def release(state: DealState, turn: Turn) -> list[Effect]:
    """RULEBOOK: the ability "will remain blocked until the player discards an equivalent
    of 10 points during their turn (discarding points does not count towards the three
    cards)".  Points are discarded from the Bank, without change."""
    if not can_release(state):
        raise IllegalAction(_("only a player under Petrificus Totalus with 10 points in the Bank can do that"))
    names, offer = [str(c) for c in turn.args.get("cards") or []], release_offer(state)
    if turn.args.get("choice") is not None and turn.args["choice"] != bank.described(offer):
        raise IllegalAction(_("discard {cards}, or name the cards", cards=bank.described(offer)))
    chosen = offer if turn.args.get("choice") else bank.check(state, state.turn, bank.RELEASE, names, bank_only=True)
    bank.discard_from_bank(state, state.turn, chosen)
    state.discard.append(state.petrified.pop(state.turn))
    character = state.characters[state.turn]
    story.tell(state, "release", cards=[o.card for o in chosen], character=str(character))
    return [
        Say(
            _(
                "{name} discards {cards}: {character} is free again.",
                name=state.names[state.turn],
                cards=bank.described(chosen),
                character=str(character),
            )
        )
    ]


def end_turn(state: DealState, turn: Turn) -> list[Effect]:
    excess = len(state.hands[state.turn]) - hand_limit(state)
    if excess > 0:
        state.step = DISCARD
        return [
            Say(_n("{name}, discard one card.", "{name}, discard {count} cards.", excess, name=state.names[state.turn]))
        ]
    return begin_turn(state, turn, state.left_of(state.turn))


def discard(state: DealState, turn: Turn) -> list[Effect]:
    """RULEBOOK: "If you have more than seven, choose which extras to discard.\""""
    excess = len(state.hands[state.turn]) - hand_limit(state)
    hand = state.hands[state.turn]
    if state.digital:
        names = [state.deck.find(str(c)) or str(c) for c in turn.args.get("cards") or [turn.args.get("choice")]]
        if len(names) > excess:
            raise IllegalAction(_n("discard only one card", "discard only {count} cards", excess))
        left = list(hand)
        for name in names:
            if name not in left:
                raise IllegalAction(_("{card} is not in your hand", card=name))
            left.remove(name)
        state.hands[state.turn] = left
        state.discard.extend(names)
        story.discarded(state, len(names))
    else:
        # the physical deck: the player discards at the table, unseen; the box counts
        del hand[hand_limit(state) :]
        state.discard.extend([UNSEEN] * excess)
        story.discarded(state, excess)
    if len(state.hands[state.turn]) > hand_limit(state):
        return []
    return begin_turn(state, turn, state.left_of(state.turn))
