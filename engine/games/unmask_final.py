"""Unmask the Death Eaters, step 13: before the Department of Magical Law Enforcement.

Revelio peeks (private to the holder), nomination of the final Leader with the
left-hand succession and the "not previously nominated" rule, the vote, the names
submitted, and the Moment of Truth scored by the rulebook's victory chart.
"""

from __future__ import annotations

from engine.actions import IllegalAction
from engine.args import PICK, Choice, Either, Flag, Opt, Seat, Seats, picked
from engine.effects import Effect, Expect, Notice, Say
from engine.game import Turn
from engine.games.unmask_rules import LOYALTY_NAMES, NAMES_TO_SUBMIT, VERDICT_SAY, verdict
from engine.games.unmask_state import ACCUSE, NOMINATE, OVER, REVELIO_STEP, VOTE, Department, UnmaskState, names_of
from engine.steps import Move, Step

NO_PEEK = "no one"


def enter_final(state: UnmaskState) -> list[Effect]:
    """The last Token space is filled or the Snake reached the end: go to the Department."""
    effects: list[Effect] = [Say("Before the Department of Magical Law Enforcement! Time to unmask the Death Eaters.")]
    dept = state.final = Department(nominator=state.leader)
    holder = state.board.revelio
    if holder is None:
        return effects + begin_nomination(state)
    dept.peeks_allowed, who, space = state.cfg.revelio_peeks[state.board.snake], state.names[holder], state.board.snake
    if dept.peeks_allowed == 0:
        effects.append(Say(f"{who} casts Revelio, but with the Snake on space {space} it shows no one."))
        return effects + begin_nomination(state)
    state.step = REVELIO_STEP
    plural = "player" if dept.peeks_allowed == 1 else "players"
    effects.append(
        Say(
            f"{who} casts Revelio: on your phone, choose up to {dept.peeks_allowed} {plural} whose Loyalty you will see."
        )
    )
    return effects


def peek(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The Revelio holder looks at up to the allowed number of Loyalty cards, privately;
    the host may only skip it ("no one").

    The spoken line is the same whoever and however many were chosen, so nothing leaks."""
    dept = state.dept()
    seats = [] if turn.args["choice"] == NO_PEEK else picked(turn.args)
    if turn.seat is None and seats:
        raise IllegalAction("only the Revelio holder chooses whom to see, on their phone; the host may only skip it")
    if len(seats) > dept.peeks_allowed:
        raise IllegalAction(f"Revelio shows at most {dept.peeks_allowed} Loyalty cards here")
    if state.board.revelio in seats:
        raise IllegalAction("Revelio is cast on other players, not yourself")
    dept.peeks = {s: state.loyalty[s] for s in seats}
    return [Say("Revelio has been cast.")] + begin_nomination(state)


def _ask_peek(state: UnmaskState) -> list[Expect]:
    """The holder's secret choice (one or two players, or no one); the host may only skip it."""
    holder, allowed = state.board.revelio, state.dept().peeks_allowed
    others = state.others(holder)
    out = [
        Expect.choice(
            "peek",
            f"Revelio: look at the Loyalty of {n} {'player' if n == 1 else 'players'}",
            others,
            seat=holder,
            count=n,
            secret=True,
        )
        for n in range(1, allowed + 1)
    ]
    out.append(Expect.choice("peek", "Revelio: or look at no one", (NO_PEEK,), seat=holder, secret=True))
    out.append(
        Expect.choice(
            "peek",
            f"Waiting for {state.names[holder or 0]} to cast Revelio on their phone (host: only to skip the peek)",
            (NO_PEEK,),
        )
    )
    return out


def _eligible(state: UnmaskState) -> list[int]:
    dept = state.dept()
    return [s for s in range(state.players) if s != dept.nominator and s not in dept.nominated]


def begin_nomination(state: UnmaskState) -> list[Effect]:
    """Ask the current nominator for a nominee.

    The rulebook is silent on a table that has nominated everyone; rather than deadlock,
    the "not previously nominated" list is cleared then (with a notice to the host)."""
    state.step = NOMINATE
    dept = state.dept()
    effects: list[Effect] = []
    if not _eligible(state):
        dept.nominated = []
        effects.append(Notice("Everyone has been nominated once: anyone may be nominated again."))
    who = state.names[dept.nominator]
    effects.append(Say(f"{who}, nominate the final Leader: another player who has not been nominated yet."))
    return effects


def nominate(state: UnmaskState, turn: Turn) -> list[Effect]:
    dept, nominee = state.dept(), turn.args["choice"]
    if nominee == dept.nominator:
        raise IllegalAction("you cannot nominate yourself: nominate another player")
    if nominee in dept.nominated:
        raise IllegalAction(f"{state.names[nominee]} was already nominated: choose someone not nominated before")
    dept.nominee = nominee
    dept.nominated.append(nominee)
    dept.votes = {}
    state.step = VOTE
    return [
        Say(
            f"{state.names[dept.nominator]} nominates {state.names[nominee]} as the final Leader. "
            "Everyone vote: thumbs up or thumbs down, on three. Three, two, one."
        )
    ]


def _ask_nominate(state: UnmaskState) -> list[Expect]:
    who = state.dept().nominator
    options = tuple(state.names[s] for s in _eligible(state))
    return [Expect.choice("nominate", f"{state.names[who]}: nominate the final Leader", options, seat=who)]


def vote(state: UnmaskState, turn: Turn) -> list[Effect]:
    """One seat's vote (its own, or entered by the host with ``seat``); the tally when all
    are in.  Votes stay hidden until then, like thumbs held in fists.  The host enters a
    vote only for a seat that has not voted: it never replaces a vote cast on a phone."""
    dept, given = state.dept(), turn.args["seat"]
    if turn.seat is None:
        if given is None:
            raise IllegalAction("say whose vote this is: seat")
        if given in dept.votes:
            raise IllegalAction(f"{state.names[given]} has already voted")
        voter = given
    else:
        if given is not None and given != turn.seat:
            raise IllegalAction("you can only cast your own vote")
        voter = turn.seat
    dept.votes[voter] = turn.args["vote"]
    if len(dept.votes) < state.players:
        return []
    return _tally(state)


def _tally(state: UnmaskState) -> list[Effect]:
    dept = state.dept()
    yes = sorted(s for s, v in dept.votes.items() if v)
    no = sorted(s for s, v in dept.votes.items() if not v)
    dept.last_vote = {"nominee": dept.nominee, "yes": yes, "no": no}
    dept.votes = {}
    nominee = state.names[dept.nominee or 0]
    if len(yes) > len(no):
        dept.final_leader = dept.nominee
        state.step = ACCUSE
        low, high = NAMES_TO_SUBMIT[state.players]
        return [
            Say(
                f"{nominee} is elected final Leader, {len(yes)} to {len(no)}. Flip your wand face up. "
                f"Listen to the table, then submit {low} or {high} names, never your own."
            )
        ]
    dept.nominator = state.left_of(dept.nominator)
    return [Say(f"The nomination of {nominee} fails, {len(yes)} to {len(no)}.")] + begin_nomination(state)


def _ask_vote(state: UnmaskState) -> list[Expect]:
    dept = state.dept()
    nominee = state.names[dept.nominee or 0]
    return [
        Expect("vote", "vote", f"{state.names[s]}: vote on {nominee} as final Leader", seat=s)
        for s in range(state.players)
        if s not in dept.votes
    ]


def accuse(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The final Leader's names, then the Moment of Truth and the verdict by the chart."""
    dept, seats = state.dept(), picked(turn.args)
    low, high = NAMES_TO_SUBMIT[state.players]
    if not low <= len(seats) <= high:
        raise IllegalAction(f"with {state.players} players the final Leader submits {low} or {high} names")
    if dept.final_leader in seats:
        raise IllegalAction("the final Leader cannot choose themselves")
    dept.accused = seats
    dept.outcome = verdict(state.loyalty, seats)
    state.step = OVER
    effects: list[Effect] = [
        Say(f"{names_of(state.names, seats)} go before the Department of Magical Law Enforcement."),
        Say("The Moment of Truth. One at a time, reveal your Loyalty."),
    ]
    effects += [Say(f"{name}: {LOYALTY_NAMES[side]}.") for name, side in zip(state.names, state.loyalty, strict=True)]
    effects.append(Say(VERDICT_SAY[dept.outcome]))
    return effects


def _ask_accuse(state: UnmaskState) -> list[Expect]:
    """One prompt per number of names the chart allows (the final Leader picks one)."""
    who = state.dept().final_leader
    return [
        Expect.choice(
            "accuse",
            f"{state.names[who or 0]}: submit {n} names to the Department",
            state.others(who),
            seat=who,
            count=n,
        )
        for n in NAMES_TO_SUBMIT[state.players]
    ]


REVELIO_STEP_DECL = Step[UnmaskState](
    REVELIO_STEP,
    "the Revelio holder is choosing whom to look at",
    (
        Move(
            "peek",
            peek,
            args={"choice": Opt(Either((Choice((NO_PEEK,)), Seat()))), "choices": Opt(Seats())},
            by=lambda s: [s.board.revelio],
            role="Revelio",
            ask=_ask_peek,
        ),
    ),
)

NOMINATE_STEP = Step[UnmaskState](
    NOMINATE,
    "a Leader is nominating the final Leader",
    (
        Move(
            "nominate",
            nominate,
            args={"choice": Seat()},
            by=lambda s: [s.dept().nominator],
            role="nominating",
            ask=_ask_nominate,
        ),
    ),
)

VOTE_STEP = Step[UnmaskState](
    VOTE,
    "the table is voting on the final Leader",
    (
        Move(
            "vote",
            vote,
            args={"vote": Flag(), "seat": Opt(Seat())},
            by=lambda s: [x for x in range(s.players) if x not in s.dept().votes],
            role="voting",
            ask=_ask_vote,
        ),
    ),
)

ACCUSE_STEP = Step[UnmaskState](
    ACCUSE,
    "the final Leader is choosing whom to accuse",
    (Move("accuse", accuse, args=PICK, by=lambda s: [s.dept().final_leader], role="final Leader", ask=_ask_accuse),),
)

OVER_STEP = Step[UnmaskState](OVER, "the game is over", ())
