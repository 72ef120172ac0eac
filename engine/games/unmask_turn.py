"""Unmask the Death Eaters, steps 1-12: the first-Leader roll, each Leader's turn, the
Threat Track and the Shift in Loyalties.

The table plays the cards; the box is told what was revealed (by the camera or the
host) and applies the rules: dice capped at six, N of a kind or totals, kept dice and
re-rolls, tokens and their spaces, one Snake step per failed turn, the fourth-space
penalty for exactly one Encounter and its Battle.
"""
from __future__ import annotations

import random
from collections import Counter

from engine.actions import Action, IllegalAction
from engine.dice import parse_roll, say_roll
from engine.effects import Effect, Notice, Say
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
    TALK_MODES,
    WAR,
    int_arg,
    dice_to_roll,
    loyalty_decks,
    roll_meets,
    shifted,
    token_name,
)
from engine.games.unmask_state import (
    ENCOUNTER,
    GROUP,
    IN_TURN,
    POOL,
    RESULT,
    ROLL,
    TOKEN,
    Encounter,
    UnmaskState,
    bool_arg,
    choice_arg,
    names_of,
    picked_seats,
    require_actor,
    require_step,
    seat_arg,
)

# How an Encounter is judged: the card total (no roll), dice alike, a dice total, or by the
# host (any other directive: specific items, Veritaserum...), as tapped -> as stored.
DIRECTIVES = {"card total": "cards_total", "dice of a kind": "of_a_kind", "dice total": "dice_total", "host judges": "host"}
TARGETS = {"cards_total": (1, 99), "of_a_kind": (2, 6), "dice_total": (1, 36)}
TARGET_OPTIONS = {"cards_total": (1, 30), "of_a_kind": (2, 6), "dice_total": (2, 36)}
ROLLED = ("of_a_kind", "dice_total")
CURSE_OPTIONS = ("resolved", "stops")
RESULT_OPTIONS = ("success", "failure")
MAX_CARD_DICE = 9
MAX_POOL = 16
MAX_NAME = 60


# --- Set-up: the first Leader ---------------------------------------------------------


def first_roller(state: UnmaskState) -> int:
    """The next contender who has not rolled in this round."""
    return next(s for s in state.contenders if s not in state.first_rolls)


def first_roll(state: UnmaskState, action: Action, rng: random.Random) -> list[Effect]:
    """Two dice each; the highest becomes Leader; players tied for highest roll again."""
    roller = first_roller(state)
    require_actor(state, action, roller, "rolling for first Leader")
    values = parse_roll(action.data.get("dice"), count=2)
    state.first_rolls[roller] = sum(values)
    effects: list[Effect] = [Say(f"{state.names[roller]}: {say_roll(values)}.")]
    if len(state.first_rolls) < len(state.contenders):
        return effects + [Say(f"{state.names[first_roller(state)]}, roll two dice.")]
    best = max(state.first_rolls.values())
    top = [s for s in state.contenders if state.first_rolls[s] == best]
    if len(top) > 1:
        state.contenders, state.first_rolls = top, {}
        return effects + [Say(f"A tie at {best} between {names_of(state, top)}: roll again. {state.names[top[0]]} first.")]
    state.leader = top[0]
    return effects + deal_loyalty(state, rng) + begin_turn(state)


def deal_loyalty(state: UnmaskState, rng: random.Random) -> list[Effect]:
    """Both Loyalty decks from the chart; Phase 1 dealt now, Phase 2 shuffled and set aside."""
    phase1, phase2 = loyalty_decks(state.players)
    rng.shuffle(phase1)
    rng.shuffle(phase2)
    state.loyalty = list(phase1)
    state.dealt = [[card] for card in phase1]
    state.phase2_deck = phase2
    leader = state.names[state.leader]
    return [Say(f"{leader} rolled highest and is the first Leader. The Loyalty cards are dealt: "
                "look at your phone, privately, and never show it to anyone.")]


# --- A turn ---------------------------------------------------------------------------


def _clear_encounter(state: UnmaskState) -> None:
    state.encounter, state.context, state.creature = None, "encounter", None
    state.group, state.short = [], False
    _clear_pool(state)


def _clear_pool(state: UnmaskState) -> None:
    state.swapped, state.curses, state.card_dice, state.dice, state.rolls = False, 0, None, 0, []


def begin_turn(state: UnmaskState) -> list[Effect]:
    """A new Leader's turn: say whose it is and remind the Table Talk mode."""
    state.turn += 1
    state.step = ENCOUNTER
    _clear_encounter(state)
    leader = state.names[state.leader]
    effects: list[Effect] = [
        Say(f"{leader}, you are the Leader. Flip your wand face up and reveal an Encounter."),
        Say(f"Table Talk: {TALK_MODES[state.talk]}"),
    ]
    if state.penalty():
        effects.append(Say("The Snake's fourth-space penalty holds for this Encounter and its Battle."))
    return effects


def enter_encounter(state: UnmaskState, action: Action) -> list[Effect]:
    """The revealed Encounter card: a whole card (from a taught deck) or, tapped on the
    host page, just its group size, the directive and its numbers following one by one."""
    require_step(state, action, ENCOUNTER)
    require_actor(state, action, state.leader, "Leader")
    if state.encounter is not None:
        raise IllegalAction("the Encounter is already revealed: enter its directive, or undo")
    if "choice" in action.data:
        group = number_choice(action, 1, state.players, "group (players needed, Leader included)")
        state.encounter = Encounter(name="the Encounter", group=group, check=None, target=None, rolls=None)
        return _encounter_entered(state)
    data = action.data
    name = data.get("name", "the Encounter")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise IllegalAction(f"the Encounter name must be 1 to {MAX_NAME} characters")
    group = int_arg(data.get("group"), 1, state.players, "group (players needed, Leader included)")
    check = data.get("check", "host")
    if check not in TARGETS and check != "host":
        raise IllegalAction(f"check must be one of {', '.join(DIRECTIVES.values())}")
    target = int_arg(data.get("target"), *TARGETS[check], f"target for {check}") if check in TARGETS else None
    rolls = int_arg(data.get("rolls", state.cfg.encounter_rolls), 1, 6, "rolls") if check in ROLLED else None
    state.encounter = Encounter(name=name.strip(), group=group, check=check, target=target, rolls=rolls)
    return _encounter_entered(state)


def encounter_missing(state: UnmaskState) -> str | None:
    """Which part of the Encounter the host still has to tap in, if any."""
    enc = state.encounter
    if enc is None:
        return "encounter"
    if enc.check is None:
        return "directive"
    if enc.check in TARGETS and enc.target is None:
        return "target"
    if enc.check in ROLLED and enc.rolls is None:
        return "rolls"
    return None


def encounter_detail(state: UnmaskState, action: Action) -> list[Effect]:
    """One tapped detail of the Encounter: its directive, its target, or its rolls."""
    require_step(state, action, ENCOUNTER)
    require_actor(state, action, state.leader, "Leader")
    if encounter_missing(state) != action.kind:
        raise IllegalAction(f"the Encounter needs its {encounter_missing(state) or 'nothing more'} now, not its {action.kind}")
    enc = state.encounter
    if action.kind == "directive":
        enc.check = DIRECTIVES[choice_arg(action, tuple(DIRECTIVES))]
    elif action.kind == "target":
        enc.target = number_choice(action, *TARGETS[enc.check], "target")
    else:
        enc.rolls = number_choice(action, 1, 6, "rolls")
    return _encounter_entered(state)


def _encounter_entered(state: UnmaskState) -> list[Effect]:
    """Once the Encounter is complete, say it and move on to gathering the group."""
    if encounter_missing(state) is not None:
        return []
    enc = state.encounter
    state.step = GROUP
    return [Say(f"Encounter: {enc.name}. {_directive(enc)} "
                f"{state.names[state.leader]}, gather a group of {group_size(state)}, yourself included, "
                "meeting its Location requirements.")]


def number_choice(action: Action, lo: int, hi: int, what: str) -> int:
    """A number tapped on a page (sent as text) or sent as a number."""
    raw = action.data.get("choice")
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw.strip())
    return int_arg(raw, lo, hi, what)


def _directive(enc: Encounter) -> str:
    if enc.check == "cards_total":
        return f"The revealed cards must total {enc.target} or more."
    if enc.check == "of_a_kind":
        return f"Roll {enc.target} of a kind, in up to {_rolls(enc.rolls)}."
    if enc.check == "dice_total":
        return f"Roll a total of {enc.target} or more, in up to {_rolls(enc.rolls)}."
    return "Follow the card's directive."


def _rolls(count: int) -> str:
    return f"{count} {'roll' if count == 1 else 'rolls'}"


def group_size(state: UnmaskState) -> int:
    """Players the group needs: the card's number, or everyone available if fewer (FAQ)."""
    available = state.players - (1 if state.left_out is not None else 0)
    return min(state.encounter.group, available)


def eligible_for_group(state: UnmaskState) -> list[int]:
    """Who the Leader may pick to join them (not themselves, not a player left out)."""
    return [s for s in range(state.players) if s not in (state.leader, state.left_out)]


def gather_group(state: UnmaskState, action: Action) -> list[Effect]:
    """The Leader's group, picked on the page (``{"choices": [...]}``).  The Leader is
    always in it, so picking only the others is enough (the Leader is added)."""
    require_step(state, action, GROUP)
    require_actor(state, action, state.leader, "Leader")
    seats = picked_seats(state, action)
    if state.leader not in seats:
        seats = [state.leader] + seats
    if state.left_out is not None and state.left_out in seats:
        raise IllegalAction(f"{state.names[state.left_out]} was left out by Expelliarmus")
    need = group_size(state)
    if len(seats) != need:
        raise IllegalAction(f"this Encounter needs a group of exactly {need}")
    state.group = seats
    state.step = POOL
    return [Say(f"The group: {names_of(state, seats)}. Each of you hands the Leader one card face down. "
                "Leader, shuffle them, look, and reveal any Curse at once.")]


def short_handed(state: UnmaskState, action: Action) -> list[Effect]:
    """A Location requirement went unmet because Expelliarmus left a player out: the FAQ
    then takes away the Leader's swap for this Encounter (and its Battle)."""
    require_step(state, action, POOL)
    require_actor(state, action, state.leader, "Leader")
    if state.left_out is None:
        raise IllegalAction("a Location requirement can only go unmet when Expelliarmus left a player out")
    if state.swapped:
        raise IllegalAction("the swap was already made")
    state.short = True
    return [Say("A Location requirement cannot be met because of Expelliarmus: the Leader may not swap a card.")]


def cast_expelliarmus(state: UnmaskState, action: Action) -> list[Effect]:
    """Expelliarmus (kinds ``skip_turn`` and ``leave_out``): skip a player's next turn as
    Leader, or leave a player out of this Encounter.  The card is used up either way.

    The rulebook does not say when it may be cast: the box allows it during any turn,
    a leave-out only before the group is gathered, and never on the Leader whose turn
    is already under way."""
    if state.step not in IN_TURN:
        raise IllegalAction("Expelliarmus can only be cast during a turn")
    if state.expelliarmus is None:
        raise IllegalAction("no one holds the Expelliarmus card")
    require_actor(state, action, state.expelliarmus, "Expelliarmus holder")
    target = seat_arg(state, action.data.get("choice"), "choice")
    if target == state.expelliarmus:
        raise IllegalAction("Expelliarmus is cast on another player")
    if target == state.leader:
        raise IllegalAction("the Leader's turn is already under way: choose another player")
    holder, name = state.names[state.expelliarmus], state.names[target]
    if action.kind == "leave_out":
        if state.step not in (ENCOUNTER, GROUP):
            raise IllegalAction("a player can only be left out before the group is gathered")
        state.left_out = target
        said = f"Expelliarmus! {holder} takes {name}'s wand: {name} sits out this Encounter."
    else:
        state.skip = target
        said = f"Expelliarmus! {holder} takes {name}'s wand: {name} will miss their next turn as Leader."
    state.expelliarmus = None
    return [Say(said)]


def curse(state: UnmaskState, action: Action) -> list[Effect]:
    """A Curse found in the pool, resolved now: ``stops`` when it makes the group fail."""
    require_step(state, action, POOL)
    require_actor(state, action, state.leader, "Leader")
    stops = choice_arg(action, CURSE_OPTIONS) == "stops"
    state.curses += 1
    if stops:
        return [Say(f"A Curse! It stops the {state.context}.")] + fail(state)
    return [Say("A Curse! Resolve it, discard it, and carry on with fewer cards.")]


def swap(state: UnmaskState, action: Action) -> list[Effect]:
    """The optional swap: one pool card discarded, one drawn unseen (once per pool)."""
    require_step(state, action, POOL)
    require_actor(state, action, state.leader, "Leader")
    if state.swapped:
        raise IllegalAction("the Leader swaps at most one card per pool")
    if state.short:
        raise IllegalAction("no swap this time: a Location requirement went unmet because of Expelliarmus")
    state.swapped = True
    return [Say("The Leader discards one card from the pool, adds the top card of the deck unseen, and shuffles again.")]


def _card(item: object) -> dict:
    """One revealed card: from a taught deck ``{"card": name, "dice": 2, "curse": false}``;
    typed on the host page, its dice value ``"2"`` or the word ``"curse"``."""
    if isinstance(item, str):
        text = item.strip().lower()
        if text == "curse":
            return {"card": None, "dice": 0, "curse": True}
        if text.isdigit():
            return {"card": None, "dice": int_arg(int(text), 0, MAX_CARD_DICE, "a card's dice value"), "curse": False}
        raise IllegalAction(f"type each card as its dice value or 'curse', not {item!r}")
    if not isinstance(item, dict):
        raise IllegalAction('each card is an object like {"dice": 2, "curse": false}')
    is_curse = bool_arg(item.get("curse", False), "curse")
    dice = int_arg(item.get("dice", 0), 0, MAX_CARD_DICE, "a card's dice value")
    name = item.get("card")
    return {"card": name if isinstance(name, str) else None, "dice": 0 if is_curse else dice, "curse": is_curse}


def _cards(raw: object) -> list[dict]:
    if not isinstance(raw, list) or len(raw) > MAX_POOL:
        raise IllegalAction(f"cards must be a list of up to {MAX_POOL} revealed cards")
    return [_card(item) for item in raw]


def reveal(state: UnmaskState, action: Action) -> list[Effect]:
    """The revealed pool: the Encounter is judged on the card total, or the dice are counted."""
    require_step(state, action, POOL)
    require_actor(state, action, state.leader, "Leader")
    cards = _cards(action.data.get("cards"))
    state.card_dice = sum(c["dice"] for c in cards)
    effects: list[Effect] = [Say(f"The cards show {state.card_dice} dice in all.")]
    if state.card_dice > MAX_DICE and not (state.context == "encounter" and state.encounter.check in ("cards_total", "host")):
        effects.append(Say(f"Only {MAX_DICE} dice may be rolled; the rest are wasted."))
    cursed = any(c["curse"] for c in cards)
    if cursed:
        effects.append(Say("A Curse is revealed: resolve it now."))
        effects.append(Notice("A revealed Curse must be resolved; if it makes the group fail, enter the result as a failure."))
    enc = state.encounter
    if state.context == "encounter" and (enc.check == "host" or (cursed and enc.check == "cards_total")):
        # A revealed Curse's directive may change the outcome: the host judges after resolving it.
        state.step = RESULT
        return effects + [Say("Leader, read the directive: did the group succeed?")]
    if state.context == "encounter" and enc.check == "cards_total":
        met = state.card_dice >= enc.target
        effects.append(Say(f"{'Enough' if met else 'Not enough'}: {enc.target} were needed."))
        return effects + (succeed(state) if met else fail(state))
    state.dice = dice_to_roll(state.card_dice)
    if state.dice == 0:
        return effects + [Say("There are no dice to roll.")] + fail(state)
    state.step = ROLL
    return effects + [Say(f"{state.names[state.leader]}, roll {state.dice} {'die' if state.dice == 1 else 'dice'}. {_need_text(state)}")]


def requirement(state: UnmaskState) -> tuple[int | None, int | None, int]:
    """(dice alike, dice total, rolls allowed) for the roll in progress."""
    if state.context == "battle":
        return state.cfg.kind_needed(state.creature), None, state.cfg.battle_rolls
    enc = state.encounter
    if enc.check == "of_a_kind":
        return enc.target, None, enc.rolls
    return None, enc.target, enc.rolls


def _need_text(state: UnmaskState) -> str:
    kind, total, rolls = requirement(state)
    need = f"{kind} of a kind" if kind is not None else f"a total of {total} or more"
    return f"You need {need}, in up to {_rolls(rolls)}."


def roll(state: UnmaskState, action: Action) -> list[Effect]:
    """A whole roll as it lies in the tray, kept dice included (the camera reads it whole)."""
    require_actor(state, action, state.leader, "Leader")
    values = parse_roll(action.data.get("dice"), count=state.dice)
    state.rolls.append(values)
    kind, total, allowed = requirement(state)
    shown = say_roll(values) if total is not None else ", ".join(str(v) for v in sorted(values))
    effects: list[Effect] = [Say(f"{shown}.")]
    if roll_meets(values, kind, total):
        return effects + succeed(state)
    left = allowed - len(state.rolls)
    if left <= 0:
        return effects + [Say("No rolls left.")] + fail(state)
    best = max(Counter(values).values())
    hint = f" You have {best} alike." if kind is not None else ""
    return effects + [Say(f"Not yet.{hint} {_rolls(left)} left: keep any dice and roll the rest.")]


def host_result(state: UnmaskState, action: Action) -> list[Effect]:
    """The host's word on the Encounter or Battle in progress: the override for any reading."""
    require_step(state, action, POOL, ROLL, RESULT)
    if action.seat is not None:
        raise IllegalAction("only the host can declare a result")
    return succeed(state) if choice_arg(action, RESULT_OPTIONS) == "success" else fail(state)


def succeed(state: UnmaskState) -> list[Effect]:
    if state.context == "battle":
        creature = token_name(state.creature)
        placed = _place(state, state.creature)
        where = "fills its space on the board" if placed else "has no empty space left and is discarded"
        return [Say(f"The {creature} is defeated! Its token {where}.")] + end_encounter(state)
    state.step = TOKEN
    return [Say(f"Success! {state.names[state.leader]}, flip any token of {PHASE_NAMES[state.phase]}.")]


def fail(state: UnmaskState) -> list[Effect]:
    effects: list[Effect] = []
    if state.context == "battle":
        state.pools[state.phase].append(state.creature)
        effects.append(Say(f"The {token_name(state.creature)} is not defeated. Flip its token back and shuffle it with the others."))
    else:
        effects.append(Say("The Encounter fails."))
    effects += threat(state)
    if state.step in IN_TURN:
        effects += end_encounter(state)
    return effects


def threat(state: UnmaskState) -> list[Effect]:
    """The Snake moves one space, at most once a turn (the FAQ: defeat only once a turn)."""
    if state.moved_turn == state.turn:
        return [Notice("Defeat counts only once a turn: the Snake does not move again.")]
    state.snake += 1
    state.moved_turn = state.turn
    length = state.cfg.track_length
    effects: list[Effect] = [Say(f"The Snake moves to space {state.snake} of {length} on the Threat Track.")]
    if state.snake >= length:
        return effects + [Say("The Snake has reached the end of the Threat Track!")] + enter_final(state)
    if state.snake == FOURTH_SPACE:
        state.penalty_until = state.turn + 1
        effects.append(Say("The fourth space! No one may draw back to a full hand, until the next Encounter and its Battle are over."))
    return effects


def choose_token(state: UnmaskState, action: Action) -> list[Effect]:
    """The token flipped after a success: a spell, a redraw, or a Dark Creature to battle.

    Spell and redraw tokens leave the face-down pool once flipped (their card is taken or
    their effect used); a creature goes back only if the Battle is lost."""
    require_step(state, action, TOKEN)
    require_actor(state, action, state.leader, "Leader")
    pool = state.pools[state.phase]
    name = action.data.get("choice")
    name = name.strip().lower() if isinstance(name, str) else None
    if name not in pool:
        raise IllegalAction(f"the face-down tokens of {PHASE_NAMES[state.phase]} are: {', '.join(sorted(set(pool)))}")
    pool.remove(name)
    leader = state.names[state.leader]
    if name in (EXPELLIARMUS, REVELIO):
        if name == EXPELLIARMUS:
            state.expelliarmus = state.leader
        else:
            state.revelio = state.leader
        placed = " It fills its space on the board." if _place(state, name) else ""
        return [Say(f"{token_name(name)}! {leader} takes the {token_name(name)} card.{placed}")] + end_encounter(state)
    if name == REDRAW:
        return [Say("Discard and Redraw: everyone in the group may discard one card and draw a new one.")] + end_encounter(state)
    state.context, state.creature, state.step = "battle", name, POOL
    _clear_pool(state)
    article = "An" if token_name(name)[0] in "AEIOU" else "A"
    return [Say(f"{article} {token_name(name)}! The group must battle it: each hands the Leader one card for the Battle Pool. "
                f"It takes {state.cfg.kind_needed(name)} of a kind.")]


def _place(state: UnmaskState, name: str) -> bool:
    """Fill an empty matching space of the current Phase, if there is one."""
    filled = state.filled[state.phase]
    if filled.count(name) < state.cfg.phase_spaces(state.phase).count(name):
        filled.append(name)
        return True
    return False


def _phase_complete(state: UnmaskState) -> bool:
    return len(state.filled[state.phase]) == len(state.cfg.phase_spaces(state.phase))


def end_encounter(state: UnmaskState) -> list[Effect]:
    """Step 11: hands, wands, the Phase check, then the next Leader (or the Department)."""
    effects = [_redraw_line(state)]
    if state.left_out is not None:
        effects.append(Say(f"{state.names[state.left_out]} regains their wand but may not exchange a card; "
                           "the Expelliarmus card goes back in the box."))
        state.left_out = None
    if _phase_complete(state) and state.phase == WAR:
        return effects + enter_final(state)
    if _phase_complete(state) and state.phase == BEGINNING:
        effects += shift_loyalties(state)
    return effects + next_leader(state)


def _redraw_line(state: UnmaskState) -> Say:
    """What the table draws, under or after the fourth-space penalty.

    Our reading of "no drawing back to a full hand for exactly one Encounter (and ensuing
    Battle)": no one refills at the end of the turn the Snake reached the fourth space,
    so the next Encounter and its Battle are played on short hands; at the end of that
    next Encounter everyone draws back to five.  The LEDs blink the whole time."""
    if state.penalty_until == state.turn + 1:
        return Say("No one draws back up to five cards this time. Players outside the group may still discard one card and draw one.")
    if state.penalty_until == state.turn:
        state.penalty_until = None
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
    state.phase = WAR
    return [Say("The Beginning is complete. A Shift in Loyalties! The Dark Lord returns, and a second Loyalty card "
                "is dealt to every phone. Look at your phone now, privately: it shows your Loyalty from here on. "
                "The Second Wizarding War begins.")]


def next_leader(state: UnmaskState) -> list[Effect]:
    """The player to the left leads, unless Expelliarmus skips their turn."""
    effects: list[Effect] = []
    nxt = state.left_of(state.leader)
    if state.skip == nxt:
        effects.append(Say(f"Expelliarmus: {state.names[nxt]}'s turn is skipped, and they regain their wand."))
        state.skip = None
        nxt = state.left_of(nxt)
    state.leader = nxt
    return effects + begin_turn(state)


def set_talk(state: UnmaskState, action: Action) -> list[Effect]:
    """The host changes the Table Talk mode."""
    if action.seat is not None:
        raise IllegalAction("only the host sets the Table Talk mode")
    mode = choice_arg(action, tuple(TALK_MODES))
    state.talk = mode
    return [Say(f"Table Talk: {TALK_MODES[mode]}")]
