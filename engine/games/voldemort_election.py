"""Secret Voldemort, Phase 1: the election.

The Minister nominates a Headmaster (term limits apply); every living player votes at
once on their phone, each vote hidden until all are in (or the host enters a show of
hands); the majority of the votes cast must say Yes, so a tie fails.  An elected
Voldemort after three Dark Arts policies wins for the Death Eaters at once.
"""

from __future__ import annotations

from engine.actions import IllegalAction
from engine.args import Flag, Number, Opt, Seat
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.voldemort_legislation import begin_session
from engine.games.voldemort_policies import failed, finish
from engine.games.voldemort_rules import VOLDEMORT, VOLDEMORT_DANGER
from engine.games.voldemort_state import DEATH_EATERS_WIN, NOMINATE, VOTE, VoldemortState
from engine.steps import Move, Step


def nominate(state: VoldemortState, turn: Turn) -> list[Effect]:
    nominee = turn.args["choice"]
    if nominee == state.minister:
        raise IllegalAction("the Minister nominates another player, never himself")
    if nominee in state.dead:
        raise IllegalAction(f"{state.names[nominee]} is dead and cannot be nominated")
    if nominee not in state.eligible():
        raise IllegalAction(
            f"{state.names[nominee]} is term-limited: the last elected government cannot serve as Headmaster"
        )
    state.nominee, state.votes, state.step = nominee, {}, VOTE
    return [
        Say(
            f"{state.names[state.minister]} nominates {state.names[nominee]} as Headmaster of Hogwarts. "
            "Everyone alive, vote Yes or No on your phone. The votes are shown when all are in."
        )
    ]


def _ask_nominate(state: VoldemortState) -> list[Expect]:
    who = state.minister
    return [
        Expect(
            "choice",
            "nominate",
            f"{state.names[who]}: nominate the Headmaster of Hogwarts",
            seat=who,
            count=1,
            options=state.named(state.eligible()),
        )
    ]


def vote(state: VoldemortState, turn: Turn) -> list[Effect]:
    """One living seat's vote, by its phone or entered by the host with ``seat``."""
    given = turn.args["seat"]
    if turn.seat is not None and given is not None and given != turn.seat:
        raise IllegalAction("you can only cast your own vote")
    voter = turn.seat if turn.seat is not None else given
    if voter is None:
        raise IllegalAction("say whose vote this is: seat")
    if voter in state.dead:
        raise IllegalAction(f"{state.names[voter]} is dead: the dead do not vote")
    if voter in state.votes:
        raise IllegalAction(f"{state.names[voter]} has already voted")
    # Secret Hitler: votes are cast at once and revealed together.
    state.votes[voter] = turn.args["vote"]
    if len(state.votes) < len(state.living()):
        return []
    yes = sorted(s for s, v in state.votes.items() if v)
    no = sorted(s for s, v in state.votes.items() if not v)
    return tally(state, turn, yes=len(yes), no=len(no), seats=yes)


def hands(state: VoldemortState, turn: Turn) -> list[Effect]:
    """A show of hands entered by the host: how many voted Yes (the rest of the living No).
    It replaces any votes already sent from phones."""
    living = len(state.living())
    yes = turn.args["choice"]
    if yes > living:
        raise IllegalAction(f"only {living} players are alive to vote")
    return tally(state, turn, yes=yes, no=living - yes, seats=None)


def tally(state: VoldemortState, turn: Turn, yes: int, no: int, seats: list[int] | None) -> list[Effect]:
    """The votes revealed together: a strict majority of Yes elects (a tie fails)."""
    state.votes = {}
    nominee = state.nominee if state.nominee is not None else 0
    state.last_vote = {"minister": state.minister, "nominee": nominee, "yes": yes, "no": no, "yes_seats": seats}
    who = "" if seats is None else f" Yes: {', '.join(state.names[s] for s in seats) or 'nobody'}."
    if yes <= no:
        state.nominee = None
        return [Say(f"The vote fails, {yes} to {no}.{who}")] + failed(state, turn)
    state.last_minister, state.last_headmaster = state.minister, nominee
    state.headmaster, state.nominee = nominee, None
    effects: list[Effect] = [
        Say(
            f"The government is elected, {yes} to {no}.{who} "
            f"{state.names[state.minister]} is Minister, {state.names[nominee]} is Headmaster."
        )
    ]
    if state.dark_arts >= VOLDEMORT_DANGER:
        if state.roles[nominee] == VOLDEMORT:
            return effects + finish(state, DEATH_EATERS_WIN, "Lord Voldemort is elected Headmaster of Hogwarts")
        # Secret Hitler: a Chancellor elected after three Fascist policies is known not to be Hitler.
        effects.append(Say(f"{state.names[nominee]} is not Lord Voldemort."))
    return effects + begin_session(state)


def _voters(state: VoldemortState) -> list[int]:
    return [s for s in state.living() if s not in state.votes]


def _ask_vote(state: VoldemortState) -> list[Expect]:
    minister, nominee = state.names[state.minister], state.names[state.nominee or 0]
    ask = [
        Expect("vote", "vote", f"{state.names[s]}: vote on Minister {minister} and Headmaster {nominee}", seat=s)
        for s in _voters(state)
    ]
    options = tuple(str(n) for n in range(len(state.living()) + 1))
    return ask + [Expect("choice", "hands", "Or a show of hands: how many voted Yes?", count=1, options=options)]


NOMINATE_STEP = Step[VoldemortState](
    NOMINATE,
    "the Minister is nominating a Headmaster",
    (
        Move(
            "nominate",
            nominate,
            args={"choice": Seat()},
            by=lambda s: [s.minister],
            role="Minister for Magic",
            ask=_ask_nominate,
        ),
    ),
)

VOTE_STEP = Step[VoldemortState](
    VOTE,
    "the table is voting on the government",
    (
        Move("vote", vote, args={"vote": Flag(), "seat": Opt(Seat())}, by=_voters, role="voting", ask=_ask_vote),
        Move("hands", hands, args={"choice": Number(0, 10)}),
    ),
)
