"""Unmask the Death Eaters, what an Encounter or Battle leads to: the token flipped after
a success, the Threat Track after a failure, then the end of the turn: hands and
wands, the Shift in Loyalties once The Beginning is complete, and the next Leader
(steps 9-12).
"""

from __future__ import annotations

from engine.actions import IllegalAction
from engine.args import Text
from engine.effects import Effect, Expect, Notice, Say
from engine.game import Turn
from engine.games.unmask_encounter import begin_turn
from engine.games.unmask_final import enter_final
from engine.games.unmask_rules import (
    BEGINNING,
    EXPELLIARMUS,
    FOURTH_SPACE,
    HAND,
    PHASE_NAMES,
    REDRAW,
    REVELIO,
    WAR,
    shifted,
    token_name,
)
from engine.games.unmask_state import IN_TURN, POOL, TOKEN, Pool, UnmaskState, leader_move
from engine.steps import Step


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
        effects.append(
            Say(f"The {token_name(battle)} is not defeated. Flip its token back and shuffle it with the others.")
        )
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
        effects.append(
            Say(
                "The fourth space! No one may draw back to a full hand, until the next Encounter and its Battle are over."
            )
        )
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
        raise IllegalAction(
            f"the face-down tokens of {PHASE_NAMES[state.board.phase]} are: {', '.join(_face_down(state))}"
        )
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
        return [
            Say("Discard and Redraw: everyone in the group may discard one card and draw a new one.")
        ] + end_encounter(state)
    state.now.battle, state.step, state.now.pool = name, POOL, Pool()
    article = "An" if token_name(name)[0] in "AEIOU" else "A"
    return [
        Say(
            f"{article} {token_name(name)}! The group must battle it: each hands the Leader one card for the Battle Pool. "
            f"It takes {state.cfg.kind_needed(name)} of a kind."
        )
    ]


def _ask_token(state: UnmaskState) -> list[Expect]:
    return [
        Expect.choice(
            "token",
            f"Flip a token of {PHASE_NAMES[state.board.phase]}: which is it?",
            tuple(_face_down(state)),
            seat=state.leader,
        )
    ]


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
        effects.append(
            Say(
                f"{state.names[left_out]} regains their wand but may not exchange a card; "
                "the Expelliarmus card goes back in the box."
            )
        )
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
        return Say(
            "No one draws back up to five cards this time. Players outside the group may still discard one card and draw one."
        )
    if board.penalty_until == state.turn:
        board.penalty_until = None
        return Say(
            f"The penalty is over: everyone draws back up to {HAND} cards. "
            "Players outside the group may discard one card and draw one."
        )
    return Say(f"Everyone draws back up to {HAND} cards. Players outside the group may discard one card and draw one.")


def shift_loyalties(state: UnmaskState) -> list[Effect]:
    """Step 12: the Phase 2 card to each phone; only Order players dealt a Death Eater turn.

    The line spoken never depends on what was dealt, so the speaker leaks nothing."""
    for seat, card in enumerate(state.phase2_deck):
        state.dealt[seat].append(card)
        state.loyalty[seat] = shifted(state.loyalty[seat], card)
    state.phase2_deck = []
    state.board.phase = WAR
    return [
        Say(
            "The Beginning is complete. A Shift in Loyalties! The Dark Lord returns, and a second Loyalty card "
            "is dealt to every phone. Look at your phone now, privately: it shows your Loyalty from here on. "
            "The Second Wizarding War begins."
        )
    ]


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


TOKEN_STEP = Step[UnmaskState](
    TOKEN, "the Leader is flipping a token", (leader_move("token", choose_token, _ask_token, choice=Text(40)),)
)
