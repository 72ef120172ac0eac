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
from engine.messages import listing, words
from engine.steps import Step

_, _n = words("unmask")


def succeed(state: UnmaskState) -> list[Effect]:
    state.tell(won=True)
    battle = state.now.battle
    if battle is not None:
        placed = _place(state, battle)
        creature = token_name(battle)
        said = (
            _("The {creature} is defeated! Its token fills its space on the board.", creature=creature)
            if placed
            else _("The {creature} is defeated! Its token has no empty space left and is discarded.", creature=creature)
        )
        return [Say(said)] + end_encounter(state)
    state.step = TOKEN
    return [
        Say(
            _(
                "Success! {name}, flip any token of {phase}.",
                name=state.names[state.leader],
                phase=PHASE_NAMES[state.board.phase],
            )
        )
    ]


def fail(state: UnmaskState) -> list[Effect]:
    state.tell(won=False)
    effects: list[Effect] = []
    battle = state.now.battle
    if battle is not None:
        state.board.pools[state.board.phase].append(battle)
        effects.append(
            Say(
                _(
                    "The {creature} is not defeated. Flip its token back and shuffle it with the others.",
                    creature=token_name(battle),
                )
            )
        )
    else:
        effects.append(Say(_("The Encounter fails.")))
    effects += threat(state)
    if state.step in IN_TURN:
        effects += end_encounter(state)
    return effects


def threat(state: UnmaskState) -> list[Effect]:
    """The Snake moves one space, at most once a turn (the FAQ: defeat only once a turn)."""
    board = state.board
    if board.moved_turn == state.turn:
        return [Notice(_("Defeat counts only once a turn: the Snake does not move again."))]
    board.snake += 1
    board.moved_turn = state.turn
    length = state.cfg.track_length
    effects: list[Effect] = [
        Say(_("The Snake moves to space {space} of {length} on the Threat Track.", space=board.snake, length=length))
    ]
    if board.snake >= length:
        return effects + [Say(_("The Snake has reached the end of the Threat Track!"))] + enter_final(state)
    if board.snake == FOURTH_SPACE:
        board.penalty_until = state.turn + 1
        effects.append(
            Say(
                _(
                    "The fourth space! No one may draw back to a full hand, "
                    "until the next Encounter and its Battle are over."
                )
            )
        )
    return effects


# --- The token ------------------------------------------------------------------------


def _face_down(state: UnmaskState) -> list[str]:
    return sorted(set(state.board.pools[state.board.phase]))


def _token_named(state: UnmaskState, said: str) -> str | None:
    """The face-down token a page named: by its key or by the name its button shows."""
    wanted = said.strip().casefold()
    return next((t for t in _face_down(state) if wanted in (t, token_name(t).casefold())), None)


def choose_token(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The token flipped after a success: a spell, a redraw, or a Dark Creature to battle.

    Spell and redraw tokens leave the face-down pool once flipped (their card is taken or
    their effect used); a creature goes back only if the Battle is lost."""
    face_down = state.board.pools[state.board.phase]
    name = _token_named(state, turn.args["choice"])
    if name is None:
        raise IllegalAction(
            _(
                "the face-down tokens of {phase} are: {tokens}",
                phase=PHASE_NAMES[state.board.phase],
                tokens=listing([token_name(t) for t in _face_down(state)]),
            )
        )
    face_down.remove(name)
    leader = state.names[state.leader]
    if name in (EXPELLIARMUS, REVELIO):
        if name == EXPELLIARMUS:
            state.board.expelliarmus = state.leader
        else:
            state.board.revelio = state.leader
        spell = token_name(name)
        said = (
            _("{spell}! {name} takes the {spell} card. It fills its space on the board.", spell=spell, name=leader)
            if _place(state, name)
            else _("{spell}! {name} takes the {spell} card.", spell=spell, name=leader)
        )
        return [Say(said)] + end_encounter(state)
    if name == REDRAW:
        return [
            Say(_("Discard and Redraw: everyone in the group may discard one card and draw a new one."))
        ] + end_encounter(state)
    state.now.battle, state.step, state.now.pool = name, POOL, Pool()
    return [
        Say(
            _(
                "A Dark Creature: {creature}! The group must battle it: each hands the Leader one card "
                "for the Battle Pool. It takes {count} of a kind.",
                creature=token_name(name),
                count=state.cfg.kind_needed(name),
            )
        )
    ]


def _ask_token(state: UnmaskState) -> list[Expect]:
    return [
        Expect.choice(
            "token",
            _("Flip a token of {phase}: which is it?", phase=PHASE_NAMES[state.board.phase]),
            tuple(token_name(t) for t in _face_down(state)),
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
    disarmed = _disarmed(state)
    if disarmed is not None:
        effects.append(
            Say(
                _(
                    "{name} regains their wand but may not exchange a card; "
                    "the Expelliarmus card goes back in the box.",
                    name=state.names[disarmed],
                )
            )
        )
    state.now.left_out = None
    if _phase_complete(state) and state.board.phase == WAR:
        return effects + enter_final(state)
    if _phase_complete(state) and state.board.phase == BEGINNING:
        effects += shift_loyalties(state)
    return effects + next_leader(state)


def _disarmed(state: UnmaskState) -> int | None:
    """Who regains their wand now (rule 11B, "Anyone who had Expelliarmus cast on them"):
    the player left out of this Encounter, or the player whose turn comes next and is
    skipped (their wand comes back as their turn passes them by)."""
    if state.now.left_out is not None:
        return state.now.left_out
    nxt = state.left_of(state.leader)
    return nxt if state.board.skip == nxt else None


def _redraw_line(state: UnmaskState) -> Say:
    """What the table draws, under or after the fourth-space penalty.

    Our reading of "no drawing back to a full hand for exactly one Encounter (and ensuing
    Battle)": no one refills at the end of the turn the Snake reached the fourth space,
    so the next Encounter and its Battle are played on short hands; at the end of that
    next Encounter everyone draws back to five.  The LEDs blink the whole time."""
    board = state.board
    if board.penalty_until == state.turn + 1:
        return Say(
            _(
                "No one draws back up to five cards this time. "
                "Players outside the group may still discard one card and draw one."
            )
        )
    if board.penalty_until == state.turn:
        board.penalty_until = None
        return Say(
            _(
                "The penalty is over: everyone draws back up to {count} cards. "
                "Players outside the group may discard one card and draw one.",
                count=HAND,
            )
        )
    return Say(
        _(
            "Everyone draws back up to {count} cards. Players outside the group may discard one card and draw one.",
            count=HAND,
        )
    )


def shift_loyalties(state: UnmaskState) -> list[Effect]:
    """Step 12: the Phase 2 card to each phone; only Order players dealt a Death Eater turn.

    The line spoken never depends on what was dealt, so the speaker leaks nothing."""
    for seat, card in enumerate(state.phase2_deck):
        state.dealt[seat].append(card)
        state.loyalty[seat] = shifted(state.loyalty[seat], card)
    state.phase2_deck = []
    state.board.phase = WAR
    state.story.append({"turn": state.turn, "phase": WAR})  # the end's story tells when the War began
    return [
        Say(
            _(
                "The Beginning is complete. A Shift in Loyalties! The Dark Lord returns, and a second Loyalty card "
                "is dealt to every phone. Look at your phone now, privately: it shows your Loyalty from here on. "
                "The Second Wizarding War begins."
            )
        )
    ]


def next_leader(state: UnmaskState) -> list[Effect]:
    """The player to the left leads, unless Expelliarmus skips their turn."""
    effects: list[Effect] = []
    nxt = state.left_of(state.leader)
    if state.board.skip == nxt:
        effects.append(Say(_("Expelliarmus: {name}'s turn is skipped.", name=state.names[nxt])))
        state.board.skip = None
        nxt = state.left_of(nxt)
    state.leader = nxt
    return effects + begin_turn(state)


TOKEN_STEP = Step[UnmaskState](
    TOKEN, _("the Leader is flipping a token"), (leader_move("token", choose_token, _ask_token, choice=Text(40)),)
)
