"""Unmask the Death Eaters, a turn's middle and end: the pool, the roll, the token, the
Threat Track, the Shift in Loyalties and the next Leader (steps 5-12).

The table plays the cards; the box is told what was revealed (by the camera or the
host) and applies the rules: dice capped at six, N of a kind or totals, kept dice and
re-rolls, tokens and their spaces, one Snake step per failed turn, the fourth-space
penalty for exactly one Encounter and its Battle.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice, Dice, Items, Opt, Text, whole_number
from engine.dice import say_roll
from engine.effects import Effect, Expect, Notice, Say
from engine.game import Turn
from engine.games.unmask_encounter import begin_turn, rolls_said
from engine.games.unmask_final import enter_final
from engine.games.unmask_rules import (
    BEGINNING,
    EXPELLIARMUS,
    FOURTH_SPACE,
    HAND,
    MAX_DICE,
    PHASE_NAMES,
    REDRAW,
    REVELIO,
    WAR,
    dice_to_roll,
    roll_meets,
    shifted,
    token_name,
)
from engine.games.unmask_state import IN_TURN, POOL, RESULT, ROLL, TOKEN, Pool, UnmaskState
from engine.steps import Move, Step

CURSE_OPTIONS = ("resolved", "stops")
RESULT_OPTIONS = ("success", "failure")
MAX_CARD_DICE = 9
MAX_POOL = 16



# --- The pool -------------------------------------------------------------------------


def curse(state: UnmaskState, turn: Turn) -> list[Effect]:
    """A Curse found in the pool, resolved now: ``stops`` when it makes the group fail."""
    state.now.pool.curses += 1
    if turn.args["choice"] == "stops":
        return [Say(f"A Curse! It stops the {state.now.context}.")] + fail(state)
    return [Say("A Curse! Resolve it, discard it, and carry on with fewer cards.")]


def swap(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The optional swap: one pool card discarded, one drawn unseen (once per pool)."""
    if state.now.pool.swapped:
        raise IllegalAction("the Leader swaps at most one card per pool")
    if state.now.short:
        raise IllegalAction("no swap this time: a Location requirement went unmet because of Expelliarmus")
    state.now.pool.swapped = True
    return [Say("The Leader discards one card from the pool, adds the top card of the deck unseen, and shuffles again.")]


def short_handed(state: UnmaskState, turn: Turn) -> list[Effect]:
    """A Location requirement went unmet because Expelliarmus left a player out: the FAQ
    then takes away the Leader's swap for this Encounter (and its Battle)."""
    if state.now.left_out is None:
        raise IllegalAction("a Location requirement can only go unmet when Expelliarmus left a player out")
    if state.now.pool.swapped:
        raise IllegalAction("the swap was already made")
    state.now.short = True
    return [Say("A Location requirement cannot be met because of Expelliarmus: the Leader may not swap a card.")]


def revealed_card(item: Any) -> dict[str, Any]:
    """One revealed card: from a taught deck ``{"card": name, "dice": 2, "curse": false}``;
    typed on the host page, its dice value ``"2"`` or the word ``"curse"``."""
    if isinstance(item, str):
        text = item.strip().lower()
        if text == "curse":
            return {"card": None, "dice": 0, "curse": True}
        try:
            return {"card": None, "dice": whole_number(text, 0, MAX_CARD_DICE, "a card's dice value"), "curse": False}
        except IllegalAction:
            raise IllegalAction(f"type each card as its dice value or 'curse', not {item[:40]!r}") from None
    if not isinstance(item, dict) or set(item) - {"card", "dice", "curse"}:
        raise IllegalAction('each card is an object like {"dice": 2, "curse": false}')
    is_curse = item.get("curse", False)
    if not isinstance(is_curse, bool):
        raise IllegalAction("curse must be true or false")
    dice = whole_number(item.get("dice", 0), 0, MAX_CARD_DICE, "a card's dice value")
    name = item.get("card")
    return {"card": name[:60] if isinstance(name, str) else None, "dice": 0 if is_curse else dice, "curse": is_curse}


def reveal(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The revealed pool: the Encounter is judged on the card total, or the dice are counted."""
    cards: list[dict[str, Any]] = turn.args["cards"]
    pool, card, battle = state.now.pool, state.card(), state.now.battle is not None
    pool.card_dice = sum(c["dice"] for c in cards)
    effects: list[Effect] = [Say(f"The cards show {pool.card_dice} dice in all.")]
    if pool.card_dice > MAX_DICE and (battle or card.check not in ("cards_total", "host")):
        effects.append(Say(f"Only {MAX_DICE} dice may be rolled; the rest are wasted."))
    cursed = any(c["curse"] for c in cards)
    if cursed:
        effects.append(Say("A Curse is revealed: resolve it now."))
        effects.append(Notice("A revealed Curse must be resolved; if it makes the group fail, enter the result as a failure."))
    if not battle and (card.check == "host" or (cursed and card.check == "cards_total")):
        # A revealed Curse's directive may change the outcome: the host judges after resolving it.
        state.step = RESULT
        return effects + [Say("Leader, read the directive: did the group succeed?")]
    if not battle and card.check == "cards_total":
        met = pool.card_dice >= (card.target or 0)
        effects.append(Say(f"{'Enough' if met else 'Not enough'}: {card.target} were needed."))
        return effects + (succeed(state) if met else fail(state))
    pool.dice = dice_to_roll(pool.card_dice)
    if pool.dice == 0:
        return effects + [Say("There are no dice to roll.")] + fail(state)
    state.step = ROLL
    return effects + [Say(f"{state.names[state.leader]}, roll {pool.dice} {'die' if pool.dice == 1 else 'dice'}. {_need_text(state)}")]


def _ask_pool(state: UnmaskState) -> list[Expect]:
    what = "Battle" if state.now.battle else "Encounter"
    return [Expect("cards", "reveal", f"Reveal the {what} cards: each card's dice value, or 'curse'", seat=state.leader)]


def _ask_curse(state: UnmaskState) -> list[Expect]:
    return [Expect("choice", "curse", "A Curse in the pool: resolved, or it stops the group?", seat=state.leader, count=1,
                   options=CURSE_OPTIONS)]


def _ask_swap(state: UnmaskState) -> list[Expect]:
    """Optional steps are one-option choices, not confirmations: the box's Next button
    answers confirmations, and must never make a swap nobody asked for."""
    if state.now.pool.swapped or state.now.short:
        return []
    return [Expect("choice", "swap", "Leader: swap one card? (optional)", seat=state.leader, count=1, options=("swap one card",))]


def _ask_short(state: UnmaskState) -> list[Expect]:
    if state.now.pool.swapped or state.now.short or state.now.left_out is None:
        return []
    return [Expect("choice", "short", "Did Expelliarmus leave a Location requirement unmet? (then no swap)",
                   seat=state.leader, count=1, options=("requirement unmet",))]


# --- The roll -------------------------------------------------------------------------


def requirement(state: UnmaskState) -> tuple[int | None, int | None, int]:
    """(dice alike, dice total, rolls allowed) for the roll in progress."""
    if state.now.battle is not None:
        return state.cfg.kind_needed(state.now.battle), None, state.cfg.battle_rolls
    card = state.card()
    if card.check == "of_a_kind":
        return card.target, None, card.rolls or 0
    return None, card.target, card.rolls or 0


def _need_text(state: UnmaskState) -> str:
    kind, total, rolls = requirement(state)
    need = f"{kind} of a kind" if kind is not None else f"a total of {total} or more"
    return f"You need {need}, in up to {rolls_said(rolls)}."


def roll(state: UnmaskState, turn: Turn) -> list[Effect]:
    """A whole roll as it lies in the tray, kept dice included (the camera reads it whole)."""
    values: list[int] = turn.args["dice"]
    pool = state.now.pool
    pool.rolls.append(values)
    kind, total, allowed = requirement(state)
    shown = say_roll(values) if total is not None else ", ".join(str(v) for v in sorted(values))
    effects: list[Effect] = [Say(f"{shown}.")]
    if roll_meets(values, kind, total):
        return effects + succeed(state)
    left = allowed - len(pool.rolls)
    if left <= 0:
        return effects + [Say("No rolls left.")] + fail(state)
    best = max(Counter(values).values())
    hint = f" You have {best} alike." if kind is not None else ""
    return effects + [Say(f"Not yet.{hint} {rolls_said(left)} left: keep any dice and roll the rest.")]


def _ask_roll(state: UnmaskState) -> list[Expect]:
    _, _, allowed = requirement(state)
    pool = state.now.pool
    prompt = f"{state.names[state.leader]}: roll {pool.dice} dice (roll {len(pool.rolls) + 1} of {allowed}); keep any, roll the rest"
    return [Expect("dice", "roll", prompt, seat=state.leader, count=pool.dice)]


def host_result(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The host's word on the Encounter or Battle in progress: the override for any reading."""
    return succeed(state) if turn.args["choice"] == "success" else fail(state)


def _ask_result(state: UnmaskState) -> list[Expect]:
    if state.step != RESULT:
        return []
    return [Expect("choice", "result", "Did the group meet the directive?", count=1, options=RESULT_OPTIONS)]


def succeed(state: UnmaskState) -> list[Effect]:
    battle = state.now.battle
    if battle is not None:
        placed = _place(state, battle)
        where = "fills its space on the board" if placed else "has no empty space left and is discarded"
        return [Say(f"The {token_name(battle)} is defeated! Its token {where}.")] + end_encounter(state)
    state.step = TOKEN
    return [Say(f"Success! {state.names[state.leader]}, flip any token of {PHASE_NAMES[state.board.phase]}.")]


def fail(state: UnmaskState) -> list[Effect]:
    effects: list[Effect] = []
    battle = state.now.battle
    if battle is not None:
        state.board.pools[state.board.phase].append(battle)
        effects.append(Say(f"The {token_name(battle)} is not defeated. Flip its token back and shuffle it with the others."))
    else:
        effects.append(Say("The Encounter fails."))
    effects += threat(state)
    if state.step in IN_TURN:
        effects += end_encounter(state)
    return effects


def threat(state: UnmaskState) -> list[Effect]:
    """The Snake moves one space, at most once a turn (the FAQ: defeat only once a turn)."""
    board = state.board
    if board.moved_turn == state.turn:
        return [Notice("Defeat counts only once a turn: the Snake does not move again.")]
    board.snake += 1
    board.moved_turn = state.turn
    length = state.cfg.track_length
    effects: list[Effect] = [Say(f"The Snake moves to space {board.snake} of {length} on the Threat Track.")]
    if board.snake >= length:
        return effects + [Say("The Snake has reached the end of the Threat Track!")] + enter_final(state)
    if board.snake == FOURTH_SPACE:
        board.penalty_until = state.turn + 1
        effects.append(Say("The fourth space! No one may draw back to a full hand, until the next Encounter and its Battle are over."))
    return effects


# --- The token ------------------------------------------------------------------------


def _face_down(state: UnmaskState) -> list[str]:
    return sorted(set(state.board.pools[state.board.phase]))


def choose_token(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The token flipped after a success: a spell, a redraw, or a Dark Creature to battle.

    Spell and redraw tokens leave the face-down pool once flipped (their card is taken or
    their effect used); a creature goes back only if the Battle is lost."""
    name, face_down = turn.args["choice"].lower(), state.board.pools[state.board.phase]
    if name not in face_down:
        raise IllegalAction(f"the face-down tokens of {PHASE_NAMES[state.board.phase]} are: {', '.join(_face_down(state))}")
    face_down.remove(name)
    leader = state.names[state.leader]
    if name in (EXPELLIARMUS, REVELIO):
        if name == EXPELLIARMUS:
            state.board.expelliarmus = state.leader
        else:
            state.board.revelio = state.leader
        placed = " It fills its space on the board." if _place(state, name) else ""
        return [Say(f"{token_name(name)}! {leader} takes the {token_name(name)} card.{placed}")] + end_encounter(state)
    if name == REDRAW:
        return [Say("Discard and Redraw: everyone in the group may discard one card and draw a new one.")] + end_encounter(state)
    state.now.battle, state.step, state.now.pool = name, POOL, Pool()
    article = "An" if token_name(name)[0] in "AEIOU" else "A"
    return [Say(f"{article} {token_name(name)}! The group must battle it: each hands the Leader one card for the Battle Pool. "
                f"It takes {state.cfg.kind_needed(name)} of a kind.")]


def _ask_token(state: UnmaskState) -> list[Expect]:
    return [Expect("choice", "token", f"Flip a token of {PHASE_NAMES[state.board.phase]}: which is it?", seat=state.leader,
                   count=1, options=tuple(_face_down(state)))]


def _place(state: UnmaskState, name: str) -> bool:
    """Fill an empty matching space of the current Phase, if there is one."""
    filled = state.board.filled[state.board.phase]
    if filled.count(name) < state.cfg.phase_spaces(state.board.phase).count(name):
        filled.append(name)
        return True
    return False


# --- The end of a turn ----------------------------------------------------------------


def _phase_complete(state: UnmaskState) -> bool:
    return len(state.board.filled[state.board.phase]) == len(state.cfg.phase_spaces(state.board.phase))


def end_encounter(state: UnmaskState) -> list[Effect]:
    """Step 11: hands, wands, the Phase check, then the next Leader (or the Department)."""
    effects: list[Effect] = [_redraw_line(state)]
    left_out = state.now.left_out
    if left_out is not None:
        effects.append(Say(f"{state.names[left_out]} regains their wand but may not exchange a card; "
                           "the Expelliarmus card goes back in the box."))
        state.now.left_out = None
    if _phase_complete(state) and state.board.phase == WAR:
        return effects + enter_final(state)
    if _phase_complete(state) and state.board.phase == BEGINNING:
        effects += shift_loyalties(state)
    return effects + next_leader(state)


def _redraw_line(state: UnmaskState) -> Say:
    """What the table draws, under or after the fourth-space penalty.

    Our reading of "no drawing back to a full hand for exactly one Encounter (and ensuing
    Battle)": no one refills at the end of the turn the Snake reached the fourth space,
    so the next Encounter and its Battle are played on short hands; at the end of that
    next Encounter everyone draws back to five.  The LEDs blink the whole time."""
    board = state.board
    if board.penalty_until == state.turn + 1:
        return Say("No one draws back up to five cards this time. Players outside the group may still discard one card and draw one.")
    if board.penalty_until == state.turn:
        board.penalty_until = None
        return Say(f"The penalty is over: everyone draws back up to {HAND} cards. "
                   "Players outside the group may discard one card and draw one.")
    return Say(f"Everyone draws back up to {HAND} cards. Players outside the group may discard one card and draw one.")


def shift_loyalties(state: UnmaskState) -> list[Effect]:
    """Step 12: the Phase 2 card to each phone; only Order players dealt a Death Eater turn.

    The line spoken never depends on what was dealt, so the speaker leaks nothing."""
    for seat, card in enumerate(state.phase2_deck):
        state.dealt[seat].append(card)
        state.loyalty[seat] = shifted(state.loyalty[seat], card)
    state.phase2_deck = []
    state.board.phase = WAR
    return [Say("The Beginning is complete. A Shift in Loyalties! The Dark Lord returns, and a second Loyalty card "
                "is dealt to every phone. Look at your phone now, privately: it shows your Loyalty from here on. "
                "The Second Wizarding War begins.")]


def next_leader(state: UnmaskState) -> list[Effect]:
    """The player to the left leads, unless Expelliarmus skips their turn."""
    effects: list[Effect] = []
    nxt = state.left_of(state.leader)
    if state.board.skip == nxt:
        effects.append(Say(f"Expelliarmus: {state.names[nxt]}'s turn is skipped, and they regain their wand."))
        state.board.skip = None
        nxt = state.left_of(nxt)
    state.leader = nxt
    return effects + begin_turn(state)


# --- The steps ------------------------------------------------------------------------

RESULT_MOVE = Move[UnmaskState]("result", host_result, args={"choice": Choice(RESULT_OPTIONS)}, ask=_ask_result)

POOL_STEP = Step[UnmaskState](POOL, "the Leader is revealing the pool", (
    Move("reveal", reveal, args={"cards": Items(revealed_card, MAX_POOL)}, by=UnmaskState.leader_seat, role="Leader", ask=_ask_pool),
    Move("curse", curse, args={"choice": Choice(CURSE_OPTIONS)}, by=UnmaskState.leader_seat, role="Leader", ask=_ask_curse),
    Move("swap", swap, args={"choice": Opt(Choice(("swap one card",)))}, by=UnmaskState.leader_seat, role="Leader", ask=_ask_swap),
    Move("short", short_handed, args={"choice": Opt(Choice(("requirement unmet",)))}, by=UnmaskState.leader_seat, role="Leader",
         ask=_ask_short),
    RESULT_MOVE,
))

ROLL_STEP = Step[UnmaskState](ROLL, "the Leader is rolling", (
    Move("roll", roll, args={"dice": Dice(count=lambda s: s.now.pool.dice)}, by=UnmaskState.leader_seat, role="Leader", ask=_ask_roll),
    RESULT_MOVE,
))

RESULT_STEP = Step[UnmaskState](RESULT, "the host is judging the Encounter", (RESULT_MOVE,))

TOKEN_STEP = Step[UnmaskState](TOKEN, "the Leader is flipping a token", (
    Move("token", choose_token, args={"choice": Text(40)}, by=UnmaskState.leader_seat, role="Leader", ask=_ask_token),
))
