"""Monopoly Deal Wizarding World: Spell cards cast, Protego, and the debts they make.

A Spell is cast by reading it aloud and "following the rules on the card", then
discarded "unless the card says otherwise" (Petrificus Totalus stays on its target's
character card).  The rulebook explains three: Accio collects "points based on the
number of items you have in that color" from every other player; Petrificus Totalus
blocks a character; Protego blocks "a Spell that is cast against you".  The others of
the deck are Monopoly Deal's actions (Debt Collector, It's My Birthday, Sly Deal,
Forced Deal, Deal Breaker, Pass Go), each named in the deck file by its effect.

A Spell against several players is answered by each in seat order from the caster's
left: the target may cast Protego, the caster may cast one on top of it, and so on
(RULEBOOK: "This spell can be canceled if another player casts Protego on top of
it"); an even number of Protegos lets the Spell through.  Each target's debt is paid
before the next answers.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.actions import IllegalAction
from engine.effects import Effect, Say
from engine.game import Turn
from engine.games import deal_bank as bank
from engine.games import deal_sets as sets
from engine.games import deal_story as story
from engine.games.deal_state import ACCIO, GIVE, PAY, PLAY, RESPOND, TAKE, TARGET, DealState, Debt, Pending
from engine.games.deal_turns import TO_BANK, bank_it, check_win, draw, from_hand
from engine.messages import words

_, _n = words("deal")


# --- who and what a Spell may be cast on ------------------------------------------------


def accio_colours(state: DealState, name: str) -> dict[str, str]:
    """The colours printed on an Accio in which its caster owns items, by printed name."""
    # Monopoly Deal: rent is charged only for a colour in which the caster owns property.
    colours = state.spec(name).colours
    return {state.deck.colour_name(c): c for c in colours if sets.in_colour(state, state.items[state.turn], c)}


def targets(state: DealState, name: str) -> list[int]:
    """The players a Spell may be cast on now."""
    effect, caster = state.spec(name).effect, state.turn
    others = state.others(caster)
    if effect == "summon":
        return [s for s in others if sets.loose(state, s)]
    if effect == "swap":
        return [s for s in others if sets.loose(state, s)] if sets.loose(state, caster) else []
    if effect == "take_set":
        return [s for s in others if sets.complete_colours(state, s)]
    if effect == "petrificus":
        return [s for s in others if s not in state.petrified]
    return others


def castable(state: DealState, name: str) -> bool:
    """Whether the Spell could do anything now (else its player banks it)."""
    effect = state.spec(name).effect
    if effect == "protego":
        return False  # cast only against a Spell cast at its player
    if effect == "accio":
        return bool(accio_colours(state, name))
    if effect in ("draw", "collect"):
        return True
    return bool(targets(state, name))


def take_options(state: DealState) -> Mapping[str, int | str]:
    """What the Spell may take from its target: a loose item (by index), or a complete
    set's colour."""
    # Monopoly Deal: Sly Deal and Forced Deal never take from a complete set; Deal Breaker
    # takes one whole.
    pending = _pending(state)
    target = pending.targets[0]
    if state.spec(pending.card).effect == "take_set":
        return {state.deck.colour_name(c): c for c in sets.complete_colours(state, target)}
    return _item_options(state, target)


def give_options(state: DealState) -> dict[str, int]:
    return _item_options(state, _pending(state).caster)


def _item_options(state: DealState, seat: int) -> dict[str, int]:
    items = state.items[seat]
    return {
        _("{card} ({colour})", card=items[i].card, colour=state.deck.colour_name(items[i].colour)): i
        for i in sets.loose(state, seat)
    }


def _pending(state: DealState) -> Pending:
    if state.pending is None:
        raise IllegalAction(_("no Spell is being cast"))
    return state.pending


# --- casting ----------------------------------------------------------------------------------


def cast_or_bank(state: DealState, turn: Turn) -> list[Effect]:
    if turn.args["choice"] == TO_BANK:
        return bank_it(state)
    return cast(state, turn)


def cast(state: DealState, turn: Turn) -> list[Effect]:
    """The Spell just played is cast: its questions asked, then it is answered."""
    name, caster = str(state.card), state.turn
    if not castable(state, name):
        raise IllegalAction(_("{card} can do nothing now: bank it", card=name))
    card = state.spec(name)
    state.card, state.pending = None, Pending(name, caster)
    story.tell(state, story.CAST, card=name)
    said: list[Effect] = [Say(_("{name} casts {card}.", name=state.names[caster], card=name))]
    if card.effect == "draw":
        # Monopoly Deal: Pass Go draws two more, and is one of the three plays.
        said += draw(state, turn, caster, card.amount)
        return said + finish(state)
    if card.effect == "accio":
        state.step = ACCIO
        return said
    if card.effect == "collect":
        state.pending.amount = card.amount
        if card.every:
            state.pending.targets = state.others(caster)
            story.spell(state, every=True)
            return said + respond(state)
    state.step = TARGET
    return said


def choose_colour(state: DealState, turn: Turn) -> list[Effect]:
    pending = _pending(state)
    colour = accio_colours(state, pending.card)[turn.args["choice"]]
    pending.colour, pending.amount = colour, sets.accio_points(state, pending.caster, colour)
    story.spell(state, colour=colour, amount=pending.amount)
    colour_name = state.deck.colour_name(colour)
    said = Say(
        _n("Accio for {colour}: one point.", "Accio for {colour}: {count} points.", pending.amount, colour=colour_name)
    )
    if state.spec(pending.card).one_player:
        # Monopoly Deal: the any-colour rent card charges one player of the caster's choice.
        state.step = TARGET
        return [said]
    pending.targets = state.others(pending.caster)
    story.spell(state, every=True)
    return [said, *respond(state)]


def choose_target(state: DealState, turn: Turn) -> list[Effect]:
    pending, seat = _pending(state), turn.args["choice"]
    if seat not in targets(state, pending.card):
        raise IllegalAction(_("{card} can't be cast on {name}", card=pending.card, name=state.names[seat]))
    pending.targets = [seat]
    story.spell(state, on=seat)
    said = Say(_("{card} is cast on {name}.", card=pending.card, name=state.names[seat]))
    if state.spec(pending.card).effect in ("summon", "swap", "take_set"):
        state.step = TAKE
        return [said]
    return [said, *respond(state)]


def choose_take(state: DealState, turn: Turn) -> list[Effect]:
    pending = _pending(state)
    chosen = take_options(state)[turn.args["choice"]]
    if isinstance(chosen, str):
        pending.colour = chosen
    else:
        pending.take = chosen
    if state.spec(pending.card).effect == "swap":
        state.step = GIVE
        return []
    return respond(state)


def choose_give(state: DealState, turn: Turn) -> list[Effect]:
    pending = _pending(state)
    pending.give = give_options(state)[turn.args["choice"]]
    return respond(state)


# --- Protego --------------------------------------------------------------------------


def answering(state: DealState) -> int:
    """Who answers now: the target, or after its Protego the caster, turn about."""
    pending = _pending(state)
    return pending.targets[0] if pending.protegos % 2 == 0 else pending.caster


def respond(state: DealState) -> list[Effect]:
    """The next target is asked whether it casts Protego (or the Spell is done)."""
    pending = _pending(state)
    if not pending.targets:
        return finish(state)
    state.step, pending.protegos = RESPOND, 0
    target = state.names[pending.targets[0]]
    return [Say(_("{name}, cast Protego, or let {card} happen?", name=target, card=pending.card))]


def protego_card(state: DealState, seat: int) -> str:
    """The Protego ``seat`` casts: one from its hand (digital), or a copy not yet laid."""
    names = [n for n, c in state.deck.cards.items() if c.effect == "protego"]
    for name in names:
        try:
            from_hand(state, seat, name)
            return name
        except IllegalAction:
            continue
    raise IllegalAction(_("you have no Protego to cast"))


def protego(state: DealState, turn: Turn) -> list[Effect]:
    """RULEBOOK: "This spell can be cast at any time, even if it isn't your turn" and
    casting it is not one of the three plays (only banking it is)."""
    pending, seat = _pending(state), answering(state)
    state.discard.append(protego_card(state, seat))
    pending.protegos += 1
    story.tell(state, "protego", seat=seat)
    other = pending.caster if seat != pending.caster else pending.targets[0]
    said = _(
        "{name} casts Protego. {other}, cast Protego on top of it, or let it stand?",
        name=state.names[seat],
        other=state.names[other],
    )
    return [Say(said)]


CAST_PROTEGO, NO_PROTEGO = _("cast Protego"), _("cast no Protego")


def answers(state: DealState) -> tuple[str, ...]:
    """What the one answering a Spell can do: cast a Protego it holds, or let it be."""
    seat = answering(state)
    holds = any(state.spec(c).effect == "protego" for c in state.hands[seat])
    return (CAST_PROTEGO, NO_PROTEGO) if holds else (NO_PROTEGO,)


def answer(state: DealState, turn: Turn) -> list[Effect]:
    """The digital deck's one question to the one answering (``deal_steps._ask_answer``)."""
    if turn.args["choice"] == CAST_PROTEGO:
        return protego(state, turn)
    return let_it(state, turn)


def let_it(state: DealState, turn: Turn) -> list[Effect]:
    """The one answering casts no Protego: the chain ends, and the Spell hits its target
    if the Protegos cancelled each other out."""
    pending = _pending(state)
    target = pending.targets.pop(0)
    if pending.protegos % 2:
        story.tell(state, "blocked", seat=target)
        said = [Say(_("Protego: {name} is not touched by {card}.", name=state.names[target], card=pending.card))]
        return said + respond(state)
    return hit(state, target)


# --- what a Spell does ----------------------------------------------------------------------


def hit(state: DealState, target: int) -> list[Effect]:
    pending = _pending(state)
    effect, caster = state.spec(pending.card).effect, pending.caster
    if effect in ("accio", "collect"):
        # Monopoly Deal: Debt Collector (one player) and It's My Birthday (everyone) are debts.
        return demand(state, target, caster, pending.amount)
    said: list[Effect] = []
    if effect == "petrificus":
        state.petrified[target] = pending.card
        pending.card = ""
        character = state.characters[target]
        story.tell(state, "petrified", character=str(character))
        said.append(
            Say(
                _(
                    "{character} is petrified: {name}'s ability is blocked.",
                    character=str(character),
                    name=state.names[target],
                )
            )
        )
    elif effect == "take_set":
        taken = sets.take_set(state, target, str(pending.colour))
        state.items[caster].extend(taken)
        story.tell(state, "take_set", seat=caster, other=target, colour=str(pending.colour))
        said.append(
            Say(
                _(
                    "{name} takes a complete {colour} set.",
                    name=state.names[caster],
                    colour=state.deck.colour_name(str(pending.colour)),
                )
            )
        )
    else:
        said += _move_items(state, pending, target)
    return said + (check_win(state) or respond(state))


def _move_items(state: DealState, pending: Pending, target: int) -> list[Effect]:
    caster = pending.caster
    if pending.take is None:
        raise ValueError("a summon or swap reached its target without the item it takes")
    taken = state.items[target].pop(pending.take)
    given = state.items[caster].pop(pending.give) if pending.give is not None else None
    if given is not None:
        state.items[target].append(given)
    state.items[caster].append(taken)
    story.tell(state, "take", seat=caster, other=target, card=taken.card, given=given.card if given else None)
    return [
        Say(
            _("{name} takes {card} from {other}.", name=state.names[caster], card=taken.card, other=state.names[target])
        )
    ]


def demand(state: DealState, payer: int, receiver: int, amount: int) -> list[Effect]:
    """``payer`` owes ``amount``: with nothing to pay with, "nothing happens"."""
    if not bank.payable(state, payer) or amount <= 0:
        story.tell(state, "nothing", seat=payer)
        return [Say(_("{name} has nothing to pay with.", name=state.names[payer])), *respond(state)]
    state.debts, state.step = [Debt(payer, receiver, amount)], PAY
    said = _n(
        "{name}, pay {other} one point from your Bank or items.",
        "{name}, pay {other} {count} points from your Bank or items.",
        amount,
        name=state.names[payer],
        other=state.names[receiver],
    )
    return [Say(said)]


def proposal(state: DealState) -> list[bank.Offer]:
    debt = state.debts[0]
    return bank.cheapest(state, debt.payer, debt.amount)


def pay(state: DealState, turn: Turn) -> list[Effect]:
    debt = state.debts[0]
    names = [str(c) for c in turn.args.get("cards") or []]
    chosen = proposal(state) if turn.args.get("choice") else bank.check(state, debt.payer, debt.amount, names)
    bank.transfer(state, debt.payer, debt.receiver, chosen)
    state.debts = []
    total = sum(o.value for o in chosen)
    story.tell(state, "pay", seat=debt.payer, other=debt.receiver, cards=[o.card for o in chosen], points=total)
    said = Say(
        _n(
            "{name} pays {other} one point: {cards}.",
            "{name} pays {other} {count} points: {cards}.",
            total,
            name=state.names[debt.payer],
            other=state.names[debt.receiver],
            cards=bank.described(chosen),
        )
    )
    return [said, *(check_win(state) or respond(state))]


def finish(state: DealState) -> list[Effect]:
    """The Spell is done: discarded (unless it stays on a character), play goes on."""
    pending = _pending(state)
    if pending.card:
        state.discard.append(pending.card)
    state.pending, state.step = None, PLAY
    return check_win(state)
