"""Unmask the Death Eaters, a turn's middle: the cards handed in, the pool revealed and
the dice rolled (steps 5-8); :mod:`unmask_outcome` takes it from a success or failure.

The table plays the cards; the box is told what was revealed (by the camera or the
host) and applies the rules: dice capped at six, N of a kind or totals, kept dice and
re-rolls, tokens and their spaces, one Snake step per failed turn, the fourth-space
penalty for exactly one Encounter and its Battle.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice, Dice, Items, Opt, whole_number
from engine.dice import in_order, say_roll
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.unmask_encounter import ENCOUNTER_DATA, card_name, rolls_said
from engine.games.unmask_final import curse_wins
from engine.games.unmask_outcome import fail, succeed
from engine.games.unmask_roles import handed_in
from engine.games.unmask_rules import (
    MAX_DICE,
    dice_to_roll,
    roll_meets,
)
from engine.games.unmask_state import CURSED, POOL, RESULT, ROLL, UnmaskState, leader_move
from engine.messages import Msg, words
from engine.steps import Move, Step

_, _n = words("unmask")

LOOK_OPTIONS = (_("no Curse"), _("a Curse"))
CURSE_OPTIONS = (_("resolved"), _("stops"))
CURSE_LABELS = (_("resolved: carry on"), _("it stops the group"))
RESULT_OPTIONS = (_("success"), _("failure"))
SWAP_OPTIONS = (_("swap one card"), _("no swap"))
REVEALED_OPTIONS = (_("resolved"), _("stops the group"), _("not resolved"))
MAX_CARD_DICE = 9
MAX_POOL = 16


# --- The pool -------------------------------------------------------------------------


def pool_size(state: UnmaskState) -> int:
    """Cards in the pool now: those handed in (step 3, :func:`handed_in`), less the Curses
    already dealt with and discarded (step 4); never below none."""
    return max(0, handed_in(state) - state.now.pool.curses)


def look(state: UnmaskState, turn: Turn) -> list[Effect]:
    """Step 4: the Leader looks at the shuffled pool and says whether a Curse is in it;
    a Curse is resolved next (:func:`curse`), then the Leader looks again."""
    pool = state.now.pool
    if pool.swapped:
        raise IllegalAction(
            _("the swapped-in card is not looked at: a Curse in it turns up when the cards are revealed")
        )
    if pool.cursing:
        raise IllegalAction(_("resolve the Curse first: does it stop the group?"))
    if pool.looked:
        raise IllegalAction(_("the Leader has already looked at the pool"))
    if turn.args["choice"] == "no Curse":
        pool.looked = True
        return []
    if pool_size(state) <= 0:
        raise IllegalAction(_("every card of the pool has been dealt with"))
    pool.cursing = True
    return [Say(_("A Curse! Leader, show it: it is resolved at once."))]


def curse(state: UnmaskState, turn: Turn) -> list[Effect]:
    """A Curse found in the pool, resolved now: ``stops`` when it makes the group fail."""
    pool = state.now.pool
    if pool.swapped:
        raise IllegalAction(
            _("the swapped-in card is not looked at: a Curse in it turns up when the cards are revealed")
        )
    if pool_size(state) <= 0:
        raise IllegalAction(_("every card of the pool has been dealt with"))
    pool.curses += 1
    pool.cursing = False
    if turn.args["choice"] == "stops":
        stopped = _("A Curse! It stops the Battle.") if state.now.battle else _("A Curse! It stops the Encounter.")
        return [Say(stopped)] + fail(state)
    return [Say(_("The Curse is resolved: discard it, and carry on with fewer cards."))]


def swap(state: UnmaskState, turn: Turn) -> list[Effect]:
    """Step 5, the optional swap: one pool card discarded, one drawn unseen (once per
    pool), once every Curse found is resolved; or the Leader's word that there is none."""
    pool = state.now.pool
    if pool.cursing:
        raise IllegalAction(_("resolve the Curse first: does it stop the group?"))
    if pool.swapped:
        raise IllegalAction(_("the Leader swaps at most one card per pool"))
    if turn.args["choice"] == "no swap":
        pool.no_swap = True
        return []
    if state.now.short:
        raise IllegalAction(_("no swap this time: a Location requirement went unmet because of Expelliarmus"))
    pool.swapped = True
    return [
        Say(_("The Leader discards one card from the pool, adds the top card of the deck unseen, and shuffles again."))
    ]


def revealed_card(item: Any) -> dict[str, Any]:
    """One revealed card: from a taught deck ``{"card": name, "dice": 2, "curse": false}``;
    typed on the host page, its dice value ``"2"`` or the word ``"curse"``."""
    if isinstance(item, str):
        text = item.strip().lower()
        if text == "curse":
            return {"card": None, "dice": 0, "curse": True}
        try:
            return {
                "card": None,
                "dice": whole_number(text, 0, MAX_CARD_DICE, _("a card's dice value")),
                "curse": False,
            }
        except IllegalAction:
            raise IllegalAction(
                _("type each card as its dice value or 'curse', not {item!r}", item=item[:40])
            ) from None
    if isinstance(item, dict) and item.get("card") and "group" in item and not set(item) - set(ENCOUNTER_DATA):
        return {"card": card_name(item["card"]), "dice": 0, "curse": False, "encounter": True}  # see reveal
    if not isinstance(item, dict) or set(item) - {"card", "dice", "curse"}:
        raise IllegalAction(_("each card is an object like {example}", example='{"dice": 2, "curse": false}'))
    is_curse = item.get("curse", False)
    if not isinstance(is_curse, bool):
        raise IllegalAction(_("curse must be true or false"))
    dice = whole_number(item.get("dice", 0), 0, MAX_CARD_DICE, _("a card's dice value"))
    return {"card": card_name(item.get("card")), "dice": 0 if is_curse else dice, "curse": is_curse}


def reveals_all(state: UnmaskState) -> bool:
    """Whether every card of the pool is revealed: in a Battle ("All cards are revealed")
    and in an Encounter the box judges (the card total, or the dice "shown on all
    cards").  A directive the host judges may reveal fewer: "The Leader only reveals as
    many cards as instructed by the Encounter card directive ... stopping immediately
    once the directive is fulfilled" (6)."""
    return state.now.battle is not None or state.card().check != "host"


def revealed_count_ok(state: UnmaskState, given: int) -> bool:
    """A reveal holds the pool's count exactly, or one card at least where fewer may do."""
    size = pool_size(state)
    return given == size or (not reveals_all(state) and 0 < given < size)


def reveal(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The revealed pool: the Encounter is judged on the card total, or the dice are counted."""
    pool, card, battle = state.now.pool, state.card(), state.now.battle is not None
    cards = _pool_cards(turn.args["cards"] or [], card.name)
    if pool.cursing:
        raise IllegalAction(_("resolve the Curse first: does it stop the group?"))
    if not revealed_count_ok(state, len(cards)):
        raise IllegalAction(
            _n(
                "the pool holds {count} card now, not {given}: one per group member, "
                "plus any extra a Leader ability allowed, less the Curses dealt with",
                "the pool holds {count} cards now, not {given}: one per group member, "
                "plus any extra a Leader ability allowed, less the Curses dealt with",
                pool_size(state),
                given=len(cards),
            )
        )
    curses = sum(c["curse"] for c in cards)
    if curses and not pool.swapped:
        raise IllegalAction(_("only a swapped-in card is unseen: any other Curse is revealed before the swap"))
    if curses > 1:
        raise IllegalAction(_("only one card was swapped in: at most one Curse can turn up now"))
    pool.card_dice = sum(c["dice"] for c in cards)
    effects: list[Effect] = [
        Say(_n("The cards show {count} die in all.", "The cards show {count} dice in all.", pool.card_dice))
    ]
    if pool.card_dice > MAX_DICE and (battle or card.check not in ("cards_total", "host")):
        effects.append(Say(_("Only {count} dice may be rolled; the rest are wasted.", count=MAX_DICE)))
    if curses:
        pool.revealed_curses, state.step = curses, CURSED
        effects.append(Say(_("A Curse is revealed: it must be resolved now, or the Death Eaters win.")))
        return effects
    return effects + judge(state)


def _pool_cards(cards: list[dict[str, Any]], encounter: str | None) -> list[dict[str, Any]]:
    """The pool's cards among those revealed.  The camera sees the Encounter card too, face
    up where the Leader laid it (read from the taught Encounter deck): that card is not in
    the pool and is left out; any other Encounter card among the pool is refused."""
    kept = [c for c in cards if not (c.get("encounter") and c["card"] == encounter)]
    if any(c.get("encounter") for c in kept):
        raise IllegalAction(_("an Encounter card is not a card of the pool: reveal the Wizarding World cards"))
    return kept


def judge(state: UnmaskState) -> list[Effect]:
    """The revealed pool judged: by the host, on the card total, or with the dice counted."""
    pool, card, battle = state.now.pool, state.card(), state.now.battle is not None
    effects: list[Effect] = []
    if not battle and card.check == "host":
        state.step = RESULT
        return effects + [Say(_("Leader, read the directive: did the group succeed?"))]
    if not battle and card.check == "cards_total":
        met = (pool.card_dice or 0) >= (card.target or 0)
        needed = card.target or 0
        effects.append(
            Say(
                _("Enough: {target} were needed.", target=needed)
                if met
                else _("Not enough: {target} were needed.", target=needed)
            )
        )
        return effects + (succeed(state) if met else fail(state))
    pool.dice = dice_to_roll(pool.card_dice or 0)
    if pool.dice == 0:
        return effects + [Say(_("There are no dice to roll."))] + fail(state)
    state.step = ROLL
    leader = state.names[state.leader]
    return effects + [
        Say(
            _n(
                "{name}, roll {count} die. {need}",
                "{name}, roll {count} dice. {need}",
                pool.dice,
                name=leader,
                need=_need_text(state),
            )
        )
    ]


def resolve_revealed(state: UnmaskState, turn: Turn) -> list[Effect]:
    """A Curse among the revealed cards "must be resolved immediately, or the Death Eaters
    win": resolved, the pool is judged on the other cards; if it stops the group, the
    group fails; not resolved, the game ends with the Death Eaters' victory."""
    choice = turn.args["choice"]
    state.now.pool.revealed_curses = 0
    if choice == "not resolved":
        return [Say(_("The swapped-in Curse was not resolved."))] + curse_wins(state)
    if choice == "stops the group":
        stopped = _("A Curse! It stops the Battle.") if state.now.battle else _("A Curse! It stops the Encounter.")
        return [Say(stopped)] + fail(state)
    state.step = POOL
    return [Say(_("The Curse is resolved: the other cards count."))] + judge(state)


def _ask_revealed(state: UnmaskState) -> list[Expect]:
    prompt = _("A swapped-in Curse is revealed: resolved, does it stop the group, or is it not resolved?")
    return [Expect.choice("resolve", prompt, REVEALED_OPTIONS, seat=state.leader)]


def _ask_pool(state: UnmaskState) -> list[Expect]:
    """The reveal; a pool every card of which was a Curse found and discarded is revealed
    empty, on a confirmation (a page sends no empty list of cards)."""
    size = pool_size(state)
    if size == 0:
        prompt = _("{name}: no card is left in the pool. Go on without any", name=state.names[state.leader])
        return [Expect("confirm", "reveal", prompt, seat=state.leader)]
    return [Expect("cards", "reveal", _reveal_prompt(state, size), seat=state.leader, count=size)]


def _reveal_prompt(state: UnmaskState, size: int) -> Msg:
    swapped = state.now.pool.swapped
    if not reveals_all(state):
        if swapped:
            return _(
                "Reveal the cards (at most {count}): each card's dice value, or 'curse' for a swapped-in Curse",
                count=size,
            )
        return _("Reveal the cards (at most {count}): each card's dice value", count=size)
    if swapped:
        return _n(
            "Reveal the {count} card: its dice value, or 'curse' for a swapped-in Curse",
            "Reveal all {count} cards: each card's dice value, or 'curse' for a swapped-in Curse",
            size,
        )
    return _n("Reveal the {count} card: its dice value", "Reveal all {count} cards: each card's dice value", size)


def _ask_look(state: UnmaskState) -> list[Expect]:
    """Step 4, asked first: a Curse in the pool? (again after each one is resolved)."""
    pool = state.now.pool
    if pool.swapped or pool.looked or pool.cursing or pool_size(state) <= 0:
        return []
    leader = state.names[state.leader]
    prompt = (
        _("{name}: look at the cards again. Is there another Curse among them?", name=leader)
        if pool.curses
        else _("{name}: shuffle the cards and look at them secretly. Is there a Curse among them?", name=leader)
    )
    return [Expect.choice("look", prompt, LOOK_OPTIONS, seat=state.leader)]


def _ask_curse(state: UnmaskState) -> list[Expect]:
    """Once a Curse is shown: its directive, resolved or stopping the group."""
    if not state.now.pool.cursing:
        return []
    prompt = _("Resolve the Curse: does it stop the group, or is it resolved and the group carries on?")
    ask = Expect.choice("curse", prompt, CURSE_OPTIONS, seat=state.leader)
    return [dataclasses.replace(ask, labels=CURSE_LABELS)]


def _ask_swap(state: UnmaskState) -> list[Expect]:
    """Step 5, once the Leader has looked: swap one card, or not.  Both are answers (not a
    confirmation): the box's Next button answers confirmations, and must never make a swap
    nobody asked for."""
    pool = state.now.pool
    if pool.swapped or pool.no_swap or state.now.short or pool_size(state) <= 0:
        return []
    prompt = _("{name}: swap one card of the pool for the top card of the deck?", name=state.names[state.leader])
    return [Expect.choice("swap", prompt, SWAP_OPTIONS, seat=state.leader)]


# --- The roll -------------------------------------------------------------------------


def requirement(state: UnmaskState) -> tuple[int | None, int | None, int]:
    """(dice alike, dice total, rolls allowed) for the roll in progress."""
    if state.now.battle is not None:
        return state.cfg.kind_needed(state.now.battle), None, state.cfg.battle_rolls
    card = state.card()
    if card.check == "of_a_kind":
        return card.target, None, card.rolls or 0
    return None, card.target, card.rolls or 0


def _need_text(state: UnmaskState) -> Msg:
    kind, total, rolls = requirement(state)
    if kind is not None:
        return _("You need {target} of a kind, in up to {rolls}.", target=kind, rolls=rolls_said(rolls))
    return _("You need a total of {target} or more, in up to {rolls}.", target=total or 0, rolls=rolls_said(rolls))


def roll(state: UnmaskState, turn: Turn) -> list[Effect]:
    """A whole roll as it lies in the tray, kept dice included (the camera reads it whole)."""
    values: list[int] = in_order(turn.args["dice"])  # kept as it is said
    pool = state.now.pool
    pool.rolls.append(values)
    kind, total, allowed = requirement(state)
    shown = say_roll(values) if total is not None else ", ".join(str(v) for v in sorted(values))
    effects: list[Effect] = [Say(_("{roll}.", roll=shown))]
    if roll_meets(values, kind, total):
        return effects + succeed(state)
    left = allowed - len(pool.rolls)
    if left <= 0:
        return effects + [Say(_("No rolls left."))] + fail(state)
    if kind is None:
        return effects + [Say(_("Not yet. {rolls} left: keep any dice and roll the rest.", rolls=rolls_said(left)))]
    best = max(Counter(values).values())
    return effects + [
        Say(
            _(
                "Not yet. You have {alike} alike. {rolls} left: keep any dice and roll the rest.",
                alike=best,
                rolls=rolls_said(left),
            )
        )
    ]


def _ask_roll(state: UnmaskState) -> list[Expect]:
    """The Leader's next roll; one die (a pool of one card's die) is no "dice", nor has a rest."""
    allowed = requirement(state)[2]
    pool = state.now.pool
    prompt = _n(
        "{name}: roll {count} die (roll {number} of {allowed})",
        "{name}: roll {count} dice (roll {number} of {allowed}); keep any, roll the rest",
        pool.dice,
        name=state.names[state.leader],
        number=len(pool.rolls) + 1,
        allowed=allowed,
    )
    return [Expect("dice", "roll", prompt, seat=state.leader, count=pool.dice)]


def host_result(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The host's word on the Encounter or Battle in progress: the override for any reading."""
    return succeed(state) if turn.args["choice"] == "success" else fail(state)


def _ask_result(state: UnmaskState) -> list[Expect]:
    if state.step != RESULT:
        return []
    return [Expect.choice("result", _("Did the group meet the directive?"), RESULT_OPTIONS)]


# --- The steps ------------------------------------------------------------------------

RESULT_MOVE = Move[UnmaskState]("result", host_result, args={"choice": Choice(RESULT_OPTIONS)}, ask=_ask_result)

POOL_STEP = Step[UnmaskState](
    POOL,
    _("the Leader is revealing the pool"),
    (
        leader_move("look", look, _ask_look, choice=Choice(LOOK_OPTIONS)),
        leader_move("curse", curse, _ask_curse, choice=Choice(CURSE_OPTIONS)),
        leader_move("swap", swap, _ask_swap, choice=Opt(Choice(SWAP_OPTIONS), SWAP_OPTIONS[0])),
        leader_move("reveal", reveal, _ask_pool, cards=Opt(Items(revealed_card, MAX_POOL))),
        RESULT_MOVE,
    ),
    in_order=True,
)

ROLL_STEP = Step[UnmaskState](
    ROLL,
    _("the Leader is rolling"),
    (
        leader_move("roll", roll, _ask_roll, dice=Dice(count=lambda s: s.now.pool.dice)),
        RESULT_MOVE,
    ),
)

CURSED_STEP = Step[UnmaskState](
    CURSED,
    _("the Leader is resolving a revealed Curse"),
    (leader_move("resolve", resolve_revealed, _ask_revealed, choice=Choice(REVEALED_OPTIONS)), RESULT_MOVE),
)

RESULT_STEP = Step[UnmaskState](RESULT, _("the host is judging the Encounter"), (RESULT_MOVE,))
