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
from engine.messages import words
from engine.steps import Move, Step

_, _n = words("unmask")

NO_PEEK = _("no one")
CURSE_WIN = "curse"
"""The outcome of an unresolved swapped-in Curse: the Death Eaters win before the Department."""


def enter_final(state: UnmaskState) -> list[Effect]:
    """The last Token space is filled or the Snake reached the end: go to the Department."""
    effects: list[Effect] = [
        Say(_("Before the Department of Magical Law Enforcement! Time to unmask the Death Eaters."))
    ]
    dept = state.final = Department(nominator=state.leader)
    holder = state.board.revelio
    if holder is None:
        return effects + begin_nomination(state)
    dept.peeks_allowed, who, space = state.cfg.revelio_peeks[state.board.snake], state.names[holder], state.board.snake
    if dept.peeks_allowed == 0:
        effects.append(
            Say(_("{name} casts Revelio, but with the Snake on space {space} it shows no one.", name=who, space=space))
        )
        return effects + begin_nomination(state)
    state.step = REVELIO_STEP
    effects.append(
        Say(
            _n(
                "{name} casts Revelio: on your phone, choose up to {count} player whose Loyalty you will see.",
                "{name} casts Revelio: on your phone, choose up to {count} players whose Loyalty you will see.",
                dept.peeks_allowed,
                name=who,
            )
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
        raise IllegalAction(_("only the Revelio holder chooses whom to see, on their phone; the host may only skip it"))
    if len(seats) > dept.peeks_allowed:
        raise IllegalAction(
            _n(
                "Revelio shows at most {count} Loyalty card here",
                "Revelio shows at most {count} Loyalty cards here",
                dept.peeks_allowed,
            )
        )
    if state.board.revelio in seats:
        raise IllegalAction(_("Revelio is cast on other players, not yourself"))
    dept.peeks = {s: state.loyalty[s] for s in seats}
    return [Say(_("Revelio has been cast."))] + begin_nomination(state)


def _ask_peek(state: UnmaskState) -> list[Expect]:
    """The holder's secret choice (one or two players, or no one); the host may only skip it.

    Glanceable: who holds Revelio and how many it shows are on the board, the options are
    the other players' names; only whom the holder picks, and what they see, is private."""
    holder, allowed = state.board.revelio, state.dept().peeks_allowed
    others = state.others(holder)
    out = [
        Expect.choice(
            "peek",
            _n("Revelio: look at the Loyalty of {count} player", "Revelio: look at the Loyalty of {count} players", n),
            others,
            seat=holder,
            count=n,
            secret=True,
            glanceable=True,
        )
        for n in range(1, allowed + 1)
    ]
    out.append(
        Expect.choice("peek", _("Revelio: or look at no one"), (NO_PEEK,), seat=holder, secret=True, glanceable=True)
    )
    out.append(
        Expect.choice(
            "peek",
            _(
                "Waiting for {name} to cast Revelio on their phone; the host may skip the peek",
                name=state.names[holder or 0],
            ),
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
        effects.append(Notice(_("Everyone has been nominated once: anyone may be nominated again.")))
        effects.append(Say(_("{name}, nominate the final Leader: any other player.", name=state.names[dept.nominator])))
        return effects
    who = state.names[dept.nominator]
    effects.append(
        Say(_("{name}, nominate the final Leader: another player who has not been nominated yet.", name=who))
    )
    return effects


def nominate(state: UnmaskState, turn: Turn) -> list[Effect]:
    dept, nominee = state.dept(), turn.args["choice"]
    if nominee == dept.nominator:
        raise IllegalAction(_("you cannot nominate yourself: nominate another player"))
    if nominee in dept.nominated:
        raise IllegalAction(
            _("{name} was already nominated: choose someone not nominated before", name=state.names[nominee])
        )
    dept.nominee = nominee
    dept.nominated.append(nominee)
    dept.votes, dept.on_phone = {}, []
    state.step = VOTE
    return [
        Say(
            _(
                "{name} nominates {nominee} as the final Leader. "
                "Everyone vote: thumbs up or thumbs down, on three. Three, two, one.",
                name=state.names[dept.nominator],
                nominee=state.names[nominee],
            )
        )
    ]


def _ask_nominate(state: UnmaskState) -> list[Expect]:
    who = state.dept().nominator
    options = tuple(state.names[s] for s in _eligible(state))
    prompt = _("{name}: nominate the final Leader", name=state.names[who])
    return [Expect.choice("nominate", prompt, options, seat=who)]


def vote(state: UnmaskState, turn: Turn) -> list[Effect]:
    """One seat's vote (its own, or entered by the host with ``seat``); the tally when all
    are in.  Votes stay hidden until then, like thumbs held in fists, and until then a
    voter may change their mind on their phone, which shows them their vote.  The host
    enters (or corrects) a vote only for a seat that has not voted on its phone: it never
    replaces a vote cast there."""
    dept = state.dept()
    voter = turn.own_seat(_("you can only cast your own vote"), _("say whose vote this is: seat"))
    if turn.seat is None and voter in dept.on_phone:
        raise IllegalAction(_("{name} voted on their phone: only they can change that vote", name=state.names[voter]))
    if turn.seat is not None and voter not in dept.on_phone:
        dept.on_phone.append(voter)
    dept.votes[voter] = turn.args["vote"]
    if len(dept.votes) < state.players:
        return []
    return _tally(state)


def _tally(state: UnmaskState) -> list[Effect]:
    dept = state.dept()
    yes = sorted(s for s, v in dept.votes.items() if v)
    no = sorted(s for s, v in dept.votes.items() if not v)
    dept.last_vote = {"nominee": dept.nominee, "yes": yes, "no": no}
    dept.votes, dept.on_phone = {}, []
    nominee = state.names[dept.nominee or 0]
    if len(yes) > len(no):
        dept.final_leader = dept.nominee
        state.step = ACCUSE
        low, high = NAMES_TO_SUBMIT[state.players]
        return [
            Say(
                _(
                    "{nominee} is elected final Leader, {yes} to {no}. Flip your wand face up. "
                    "Listen to the table, then submit {low} or {high} names, never your own.",
                    nominee=nominee,
                    yes=len(yes),
                    no=len(no),
                    low=low,
                    high=high,
                )
            )
        ]
    dept.nominator = state.left_of(dept.nominator)
    said = _("The nomination of {nominee} fails, {yes} to {no}.", nominee=nominee, yes=len(yes), no=len(no))
    return [Say(said)] + begin_nomination(state)


def _ask_vote(state: UnmaskState) -> list[Expect]:
    """A prompt for each seat still to vote; each seat that voted sees its own vote, and
    may change it, in a prompt shown only to it."""
    dept = state.dept()
    nominee = state.names[dept.nominee or 0]
    asked = [
        Expect(
            "vote", "vote", _("{name}: vote on {nominee} as final Leader", name=state.names[s], nominee=nominee), seat=s
        )
        for s in range(state.players)
        if s not in dept.votes
    ]
    for seat, yes in sorted(dept.votes.items()):
        name = state.names[seat]
        said = (
            _("{name}: you voted yes on {nominee}; change it until every vote is in", name=name, nominee=nominee)
            if yes
            else _("{name}: you voted no on {nominee}; change it until every vote is in", name=name, nominee=nominee)
        )
        asked.append(Expect("vote", "vote", said, seat=seat, secret=True, optional=True))
    return asked


def accuse(state: UnmaskState, turn: Turn) -> list[Effect]:
    """The final Leader's names, then the Moment of Truth and the verdict by the chart."""
    dept, seats = state.dept(), picked(turn.args)
    low, high = NAMES_TO_SUBMIT[state.players]
    if not low <= len(seats) <= high:
        raise IllegalAction(
            _(
                "with {count} players the final Leader submits {low} or {high} names",
                count=state.players,
                low=low,
                high=high,
            )
        )
    if dept.final_leader in seats:
        raise IllegalAction(_("the final Leader cannot choose themselves"))
    dept.accused = seats
    dept.outcome = verdict(state.loyalty, seats)
    state.step = OVER
    said = Say(_("{names} go before the Department of Magical Law Enforcement.", names=names_of(state.names, seats)))
    return [said, *moment_of_truth(state), Say(VERDICT_SAY[dept.outcome])]


def moment_of_truth(state: UnmaskState) -> list[Effect]:
    """One at a time, each player reveals their Loyalty card (the game is over: no secret left)."""
    effects: list[Effect] = [Say(_("The Moment of Truth. One at a time, reveal your Loyalty."))]
    return effects + [
        Say(_("{name}: {loyalty}.", name=name, loyalty=LOYALTY_NAMES[side]))
        for name, side in zip(state.names, state.loyalty, strict=True)
    ]


def curse_wins(state: UnmaskState) -> list[Effect]:
    """A revealed swapped-in Curse left unresolved: "or the Death Eaters win", at once."""
    state.tell(won=False)
    dept = state.final = Department(nominator=state.leader)
    dept.outcome, state.step = CURSE_WIN, OVER
    return [*moment_of_truth(state), Say(VERDICT_SAY[CURSE_WIN])]


def _ask_accuse(state: UnmaskState) -> list[Expect]:
    """One prompt per number of names the chart allows (the final Leader picks one)."""
    who = state.dept().final_leader
    return [
        Expect.choice(
            "accuse",
            _n(
                "{name}: submit {count} name to the Department",
                "{name}: submit {count} names to the Department",
                n,
                name=state.names[who or 0],
            ),
            state.others(who),
            seat=who,
            count=n,
            final=True,
        )
        for n in NAMES_TO_SUBMIT[state.players]
    ]


REVELIO_STEP_DECL = Step[UnmaskState](
    REVELIO_STEP,
    _("the Revelio holder is choosing whom to look at"),
    (
        Move(
            "peek",
            peek,
            args={"choice": Opt(Either((Choice((NO_PEEK,)), Seat()))), "choices": Opt(Seats())},
            by=lambda s: [s.board.revelio],
            role=_("Revelio"),
            ask=_ask_peek,
        ),
    ),
)

NOMINATE_STEP = Step[UnmaskState](
    NOMINATE,
    _("a Leader is nominating the final Leader"),
    (
        Move(
            "nominate",
            nominate,
            args={"choice": Seat()},
            by=lambda s: [s.dept().nominator],
            role=_("nominating"),
            ask=_ask_nominate,
        ),
    ),
)

VOTE_STEP = Step[UnmaskState](
    VOTE,
    _("the table is voting on the final Leader"),
    (
        Move(
            "vote",
            vote,
            args={"vote": Flag(), "seat": Opt(Seat())},
            by=lambda s: range(s.players),
            role=_("voting"),
            ask=_ask_vote,
        ),
    ),
)

ACCUSE_STEP = Step[UnmaskState](
    ACCUSE,
    _("the final Leader is choosing whom to accuse"),
    (Move("accuse", accuse, args=PICK, by=lambda s: [s.dept().final_leader], role=_("final Leader"), ask=_ask_accuse),),
)

OVER_STEP = Step[UnmaskState](OVER, _("the game is over"), ())
