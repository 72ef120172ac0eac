"""Secret Voldemort: what happens once a policy is enacted, and how a round passes on.

Shared by the election (a chaos policy), the legislative session and the spells, so
there is one way to enact a policy, to pass the Minister title on and to reshuffle.
"""

from __future__ import annotations

from engine.effects import Effect, Say
from engine.game import Turn
from engine.games.voldemort_rules import (
    A_POLICY,
    AVADA,
    CHAOS,
    CRUCIO,
    DARK_ARTS,
    DARK_ARTS_TO_WIN,
    HAND,
    IMPERIO,
    ORDER,
    ORDER_TO_WIN,
    ROLE_NAME,
    STUPOR,
    UNSEEN,
    VETO_FROM,
    VOLDEMORT_DANGER,
    spell_for,
)
from engine.games.voldemort_state import (
    AVADA_STEP,
    CRUCIO_STEP,
    DEATH_EATERS_WIN,
    IMPERIO_STEP,
    NOMINATE,
    ORDER_WINS,
    OVER,
    POLICY,
    STUPOR_STEP,
    VoldemortState,
)
from engine.messages import Msg, words

_, _n = words("voldemort")

SPELL_STEPS = {CRUCIO: CRUCIO_STEP, STUPOR: STUPOR_STEP, IMPERIO: IMPERIO_STEP, AVADA: AVADA_STEP}


def _spell_said(spell: str, minister: str) -> Msg:
    """What the Minister is told to do once a Dark Arts policy brings a spell."""
    if spell == CRUCIO:
        return _("{name}, cast Crucio: choose a player whose Party Membership your phone will show you.", name=minister)
    if spell == STUPOR:
        return _(
            "{name}, cast Stupor: look at the top three policies, and tell the table what you like.", name=minister
        )
    if spell == IMPERIO:
        return _("{name}, cast Imperio: choose the next Minister for Magic.", name=minister)
    return _("{name}, cast Avada Kedavra: choose a player to kill.", name=minister)


def reshuffle_if_low(state: VoldemortState, turn: Turn) -> list[Effect]:
    """Secret Hitler: fewer than three cards left in the draw pile are shuffled together
    with the discard pile (after every legislative session, vetoed ones included, and
    after a chaos policy).  Each shuffle is named, so undo never shuffles differently."""
    # Secret Hitler: the reshuffle rule (the rulebook never says what happens to the deck).
    if len(state.draw) >= HAND:
        return []
    state.shuffles += 1
    pile = state.draw + state.discard
    state.discard = []
    if state.physical:
        state.draw = [UNSEEN] * len(pile)
        return [Say(_("Fewer than three policies are left: shuffle the discard pile into the draw pile."))]
    turn.random("deck", state.shuffles).shuffle(pile)
    state.draw = pile
    return [Say(_("Fewer than three policies were left: the box shuffles the discard pile into the draw pile."))]


def enact(state: VoldemortState, kind: str, turn: Turn, chaos: bool = False) -> list[Effect]:
    """A policy lands on its track: the tracker resets, a win ends the game at once, the
    deck is topped up, then a spell (never after chaos) or the next round."""
    state.enacted.append(kind)
    state.story.append(_told_enacted(state, kind, chaos))
    # Secret Hitler: any enacted policy, chaos included, resets the election tracker.
    state.election = 0
    state.chaos = False
    if kind == ORDER:
        state.order += 1
    else:
        state.dark_arts += 1
    effects: list[Effect] = [Say(_enacted(state, kind, chaos))]
    if state.physical:
        # The camera reads the next policy in the reveal area: this one must leave it.
        effects.append(Say(_("Move the policy from the reveal area onto its track.")))
    if state.order >= ORDER_TO_WIN:
        return effects + finish(state, ORDER_WINS, _("five Order policies are enacted"))
    if state.dark_arts >= DARK_ARTS_TO_WIN:
        return effects + finish(state, DEATH_EATERS_WIN, _("six Dark Arts policies are enacted"))
    if kind == DARK_ARTS and state.dark_arts == VOLDEMORT_DANGER:
        effects.append(
            Say(
                _(
                    "Three Dark Arts policies: from now on, if Lord Voldemort is elected Headmaster,"
                    " the Death Eaters win."
                )
            )
        )
    if kind == DARK_ARTS and state.dark_arts == VETO_FROM:
        effects.append(Say(_("Five Dark Arts policies: the government may now veto its policies.")))
    effects += reshuffle_if_low(state, turn)
    if chaos:
        # Secret Hitler: a chaos policy's power is ignored and the term limits are forgotten.
        state.last_minister = state.last_headmaster = None
        return effects + [Say(_("Its spell, if any, is ignored, and the term limits are cleared."))] + new_round(state)
    spell = spell_for(state.players, state.dark_arts, state.every_spell) if kind == DARK_ARTS else None
    if spell is None and kind == DARK_ARTS:
        # The English rulebook promises a spell on every Dark Arts policy: a table reading
        # it hears that this square has none.
        no_spell = _("No spell on this square at {players} players.", players=state.players)
        return effects + [Say(no_spell)] + new_round(state)
    if spell is None:
        return effects + new_round(state)
    state.step = SPELL_STEPS[spell]
    state.headmaster = None
    return effects + [Say(_spell_said(spell, state.names[state.minister]))]


def a_policy_may_win(state: VoldemortState) -> bool:
    """One more policy on either track ends the game (public: the tracks are in sight)."""
    return state.order == ORDER_TO_WIN - 1 or state.dark_arts == DARK_ARTS_TO_WIN - 1


def a_failure_may_win(state: VoldemortState) -> bool:
    """One more failed government brings chaos, and the box's own top policy may end the
    game (with the physical deck the chaos policy is entered later, and asked then)."""
    return state.election == CHAOS - 1 and not state.physical and a_policy_may_win(state)


def _told_enacted(state: VoldemortState, kind: str, chaos: bool) -> Msg:
    """The story's line for an enacted policy: which, and by whom (the table saw both)."""
    if chaos or state.headmaster is None:
        return _("Chaos: the top policy is enacted, {policy}.", policy=A_POLICY[kind])
    return _(
        "{minister} and {headmaster} enact {policy}.",
        minister=state.names[state.minister],
        headmaster=state.names[state.headmaster],
        policy=A_POLICY[kind],
    )


def _enacted(state: VoldemortState, kind: str, chaos: bool) -> Msg:
    """The enacted policy said aloud, and both tracks."""
    board = {
        "policy": A_POLICY[kind],
        "order": state.order,
        "order_win": ORDER_TO_WIN,
        "dark": state.dark_arts,
        "dark_win": DARK_ARTS_TO_WIN,
    }
    if chaos:
        return _(
            "The nation is in chaos: the top policy is enacted, {policy}. "
            "Order {order} of {order_win}, Dark Arts {dark} of {dark_win}.",
            **board,
        )
    return _("The Headmaster enacts {policy}. Order {order} of {order_win}, Dark Arts {dark} of {dark_win}.", **board)


def new_round(state: VoldemortState) -> list[Effect]:
    """The Minister title passes on: to Imperio's choice, or clockwise from the last
    regular Minister (so after Imperio it returns to the left of the caster)."""
    # Secret Hitler: after a Special Election the title returns to the left of the caster.
    if state.chosen is not None:
        state.minister, state.chosen = state.chosen, None
    else:
        state.rotation = state.minister = state.left_of(state.rotation)
    state.step = NOMINATE
    state.nominee = state.headmaster = None
    state.veto_asked = False
    state.votes = {}
    return [Say(_("{name} is the Minister for Magic: nominate a Headmaster.", name=state.names[state.minister]))]


def failed(state: VoldemortState, turn: Turn) -> list[Effect]:
    """A failed election (or a veto) moves the tracker; the third in a row brings chaos."""
    state.election += 1
    effects: list[Effect] = [
        Say(_("The election tracker moves to {election} of {chaos}.", election=state.election, chaos=CHAOS))
    ]
    if state.election < CHAOS:
        return effects + new_round(state)
    state.election = 0
    if state.physical:
        state.chaos = True
        state.step = POLICY
        state.nominee = state.headmaster = None
        return effects + [
            Say(_("Three failed governments: the nation is in chaos. Reveal the top policy of the draw pile."))
        ]
    top = state.draw.pop(0)
    return effects + enact(state, top, turn, chaos=True)


def finish(state: VoldemortState, winner: str, reason: Msg) -> list[Effect]:
    """The game ends at once; every role is revealed.  ``reason`` is a clause ("five
    Order policies are enacted"), shown after the winner and said after it."""
    state.step, state.winner, state.reason = OVER, winner, reason
    state.hands = {}
    # Secret Hitler: the game ends at once, and every role is revealed (the rulebook has no end step).
    roles = [
        Say(_("{name}: {role}.", name=name, role=ROLE_NAME[role]))
        for name, role in zip(state.names, state.roles, strict=True)
    ]
    if winner == ORDER_WINS:
        won = _("The Order of the Phoenix wins: {reason}.", reason=reason)
    else:
        won = _("The Death Eaters win: {reason}.", reason=reason)
    return [Say(won), Say(_("Every role is revealed.")), *roles]
