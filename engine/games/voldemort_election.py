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
from engine.games.voldemort_policies import a_failure_may_win, failed, finish
from engine.games.voldemort_rules import MINISTER, VOLDEMORT, VOLDEMORT_DANGER
from engine.games.voldemort_state import DEATH_EATERS_WIN, NOMINATE, VOTE, VoldemortState
from engine.messages import Msg, listing, words
from engine.steps import Move, Step

_, _n = words("voldemort")


def nominate(state: VoldemortState, turn: Turn) -> list[Effect]:
    nominee = turn.args["choice"]
    if nominee == state.minister:
        raise IllegalAction(_("the Minister nominates another player, never himself"))
    if nominee in state.dead:
        raise IllegalAction(_("{name} is dead and cannot be nominated", name=state.names[nominee]))
    if nominee not in state.eligible():
        raise IllegalAction(
            _(
                "{name} is term-limited: the last elected government cannot serve as Headmaster",
                name=state.names[nominee],
            )
        )
    state.nominee, state.votes, state.step = nominee, {}, VOTE
    return [
        Say(
            _(
                "{minister} nominates {nominee} as Headmaster of Hogwarts. "
                "Everyone alive, vote Yes or No on your phone. The votes are shown when all are in.",
                minister=state.names[state.minister],
                nominee=state.names[nominee],
            )
        )
    ]


def _ask_nominate(state: VoldemortState) -> list[Expect]:
    who = state.minister
    return [
        Expect(
            "choice",
            "nominate",
            _("{name}: nominate the Headmaster of Hogwarts", name=state.names[who]),
            seat=who,
            count=1,
            options=state.named(state.eligible()),
        )
    ]


def vote(state: VoldemortState, turn: Turn) -> list[Effect]:
    """One living seat's vote, by its phone or entered by the host with ``seat``."""
    voter = turn.own_seat(_("you can only cast your own vote"), _("say whose vote this is: seat"))
    if voter in state.dead:
        raise IllegalAction(_("{name} is dead: the dead do not vote", name=state.names[voter]))
    if voter in state.votes:
        raise IllegalAction(_("{name} has already voted", name=state.names[voter]))
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
        raise IllegalAction(_("only {living} players are alive to vote", living=living))
    return tally(state, turn, yes=yes, no=living - yes, seats=None)


def tally(state: VoldemortState, turn: Turn, yes: int, no: int, seats: list[int] | None) -> list[Effect]:
    """The votes revealed together: a strict majority of Yes elects (a tie fails)."""
    state.votes = {}
    nominee = state.nominee if state.nominee is not None else 0
    state.last_vote = {"minister": state.minister, "nominee": nominee, "yes": yes, "no": no, "yes_seats": seats}
    said = Say(_result(state, yes, no, seats, nominee))
    if yes <= no:
        state.nominee = None
        return [said] + failed(state, turn)
    state.last_minister, state.last_headmaster = state.minister, nominee
    state.headmaster, state.nominee = nominee, None
    effects: list[Effect] = [said]
    if state.dark_arts >= VOLDEMORT_DANGER:
        if state.roles[nominee] == VOLDEMORT:
            return effects + finish(state, DEATH_EATERS_WIN, _("Lord Voldemort is elected Headmaster of Hogwarts"))
        # Secret Hitler: a Chancellor elected after three Fascist policies is known not to be Hitler.
        effects.append(Say(_("{name} is not Lord Voldemort.", name=state.names[nominee])))
    return effects + begin_session(state)


def _result(state: VoldemortState, yes: int, no: int, seats: list[int] | None, nominee: int) -> Msg:
    """The tally said aloud, with who voted Yes when the phones tell (a show of hands does not)."""
    counts = {"yes": yes, "no": no}
    if yes <= no:
        if seats is None:
            return _("The vote fails, {yes} to {no}.", **counts)
        return _("The vote fails, {yes} to {no}. Yes: {names}.", names=_yes(state, seats), **counts)
    government = {"minister": state.names[state.minister], "headmaster": state.names[nominee]}
    if seats is None:
        return _(
            "The government is elected, {yes} to {no}. {minister} is Minister, {headmaster} is Headmaster.",
            **counts,
            **government,
        )
    return _(
        "The government is elected, {yes} to {no}. Yes: {names}. {minister} is Minister, {headmaster} is Headmaster.",
        names=_yes(state, seats),
        **counts,
        **government,
    )


def _yes(state: VoldemortState, seats: list[int]) -> Msg | str:
    """Who voted Yes, as the phones told."""
    return listing(state.names[s] for s in seats) if seats else _("nobody")


def _voters(state: VoldemortState) -> list[int]:
    return [s for s in state.living() if s not in state.votes]


def _ends_vote_may_win(state: VoldemortState) -> bool:
    """Whether the answer that ends this vote may end the game: an elected Voldemort after
    three Dark Arts policies (whoever the nominee: his role is secret), or a third failure
    whose chaos policy wins."""
    return state.dark_arts >= VOLDEMORT_DANGER or a_failure_may_win(state)


def _ask_vote(state: VoldemortState) -> list[Expect]:
    minister, nominee = state.names[state.minister], state.names[state.nominee or 0]
    voters = _voters(state)
    final = _ends_vote_may_win(state)
    ask = [
        Expect(
            "vote",
            "vote",
            _(
                "{name}: vote on Minister {minister} and Headmaster {nominee}",
                name=state.names[s],
                minister=minister,
                nominee=nominee,
            ),
            seat=s,
            final=final and len(voters) == 1,  # the last vote is the one that ends it
        )
        for s in voters
    ]
    options = tuple(str(n) for n in range(len(state.living()) + 1))
    prompt = _("Or a show of hands: how many voted Yes?")
    return [*ask, Expect.choice("hands", prompt, options, final=final)]


NOMINATE_STEP = Step[VoldemortState](
    NOMINATE,
    _("the Minister is nominating a Headmaster"),
    (
        Move(
            "nominate",
            nominate,
            args={"choice": Seat()},
            by=lambda s: [s.minister],
            role=MINISTER,
            ask=_ask_nominate,
        ),
    ),
)

VOTE_STEP = Step[VoldemortState](
    VOTE,
    _("the table is voting on the government"),
    (
        Move("vote", vote, args={"vote": Flag(), "seat": Opt(Seat())}, by=_voters, role=_("voting"), ask=_ask_vote),
        Move("hands", hands, args={"choice": Number(0, 10)}),
    ),
)
