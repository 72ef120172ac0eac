"""Kampf gegen die dunklen Mächte: dawn, the discussion, the vote and the result.

The discussion runs on a table timer with spoken warnings.  Everyone then points at
another player: on the phones (each vote hidden until all are in, then revealed
together) or entered by the host as the table points.  With physical cards the host
then enters the card each player turns over; with digital cards the box knows them.
The result, every card and the night's record are said and shown.
"""

from __future__ import annotations

from engine.actions import IllegalAction
from engine.args import Choice, Items, Opt, Seat
from engine.effects import TIMER_DONE, Effect, Expect, Say, StartTimer
from engine.game import Turn
from engine.games import kampf_outcome as outcome
from engine.games.kampf_notes import said
from engine.games.kampf_roles import CARDS, PARTY_NAME, ROLE_NAME, named_roles
from engine.games.kampf_state import DAY, DAY_TIMER, OVER, REVEAL, VOTE, KampfState
from engine.messages import Msg, listing, words
from engine.steps import Move, Step

_, _n = words("kampf")

WARNINGS = ((120, _("Two minutes left.")), (60, _("One minute left.")), (10, _("Ten seconds left.")))


def dawn(state: KampfState) -> list[Effect]:
    """Everyone wakes; the discussion timer starts.  Harry's card is face up now."""
    state.step = DAY
    minutes = state.discussion // 60
    warnings = tuple((left, line) for left, line in WARNINGS if left < state.discussion)
    return [
        Say(
            _n(
                "Everyone, wake up! Discuss who the Death Eaters are: you have one minute.",
                "Everyone, wake up! Discuss who the Death Eaters are: you have {count} minutes.",
                minutes,
            )
        ),
        Say(_("You may claim anything, but do not show your card to anyone, and do not look at it again.")),
        StartTimer(DAY_TIMER, state.discussion, warnings=warnings),
    ]


def discussion_over(state: KampfState, turn: Turn) -> list[Effect]:
    state.step, state.votes = VOTE, {}
    return [
        Say(
            _(
                "Time is up! Count to three together, then everyone points at another player. "
                "Vote on your phone, or the host enters where everyone points."
            )
        )
    ]


def _voters(state: KampfState) -> list[int | None]:
    return [s for s in range(state.players) if s not in state.votes]


def vote(state: KampfState, turn: Turn) -> list[Effect]:
    """One seat points at another, from its phone or entered by the host with ``seat``."""
    voter = turn.own_seat(_("you can only cast your own vote"), _("say whose vote this is: seat"))
    if voter in state.votes:
        raise IllegalAction(_("{name} has already voted", name=state.names[voter]))
    target = turn.args["choice"]
    # ONUW: everyone points at another player, never at themselves.
    if target == voter:
        raise IllegalAction(_("point at another player, not at yourself"))
    state.votes[voter] = target
    if len(state.votes) < state.players:
        return []
    state.pointed, state.votes = dict(sorted(state.votes.items())), {}
    shown: list[Effect] = [Say(_("The votes: {votes}.", votes=listing(_pointing(state))))]
    if state.digital:
        return shown + finish(state, state.cards[: state.players])
    state.step = REVEAL
    return shown + [Say(_("Now everyone turns over their role card. The host enters the cards."))]


def _pointing(state: KampfState) -> list[Msg]:
    return [
        _("{name} points at {target}", name=state.names[s], target=state.names[t]) for s, t in state.pointed.items()
    ]


def _ask_vote(state: KampfState) -> list[Expect]:
    return [
        Expect.choice("vote", _("Point at a player"), tuple(state.names[o] for o in state.others(s)), seat=s)
        for s in _voters(state)
        if s is not None
    ]


def turned_over(state: KampfState, turn: Turn) -> list[Effect]:
    """Physical cards: the card in front of each player, in seat order, as turned over."""
    raw: list[str] = turn.args["cards"]
    if len(raw) != state.players:
        raise IllegalAction(_n("enter one card", "enter {count} cards, one per player in seat order", state.players))
    final = []
    for text in raw:
        role = named_roles(text)
        if role is None or role not in state.roles:
            raise IllegalAction(_("{name!r} is not a role card in this game", name=text[:40]))
        final.append(role)
    for role in set(final):
        if final.count(role) > min(state.roles.count(role), CARDS[role]):
            raise IllegalAction(_("this game has fewer {role} cards than that", role=ROLE_NAME[role]))
    return finish(state, final)


def finish(state: KampfState, final: list[str]) -> list[Effect]:
    """The captured, the winners, every card and the night's record, said and kept."""
    done = outcome.result(state.pointed, final, state.ginny_luna)
    state.final, state.captured, state.winner, state.reason = final, done.captured, done.winner, done.reason
    state.step = OVER
    lines: list[Effect] = [Say(captured_line(state)), Say(winner_line(state))]
    lines.append(Say(_("The cards: {cards}.", cards=listing(card_lines(state)))))
    if state.digital:
        middle = [ROLE_NAME[r] for r in state.cards[state.players :]]
        lines.append(Say(_("In the middle: {cards}.", cards=listing(middle))))
        lines += [Say(said(state, note)) for note in state.night_log]
    return lines


def captured_line(state: KampfState) -> Msg:
    if state.reason == outcome.ALL_ONE:
        return _("Every player has exactly one vote: nobody is captured.")
    if not state.captured:
        return _("Nobody is captured.")
    return _("Captured: {names}.", names=listing([state.names[s] for s in state.captured]))


def winner_line(state: KampfState) -> Msg:
    if state.winner == outcome.NOBODY:
        return _("There was no Death Eater among you, but someone was captured: nobody wins.")
    won = listing([state.names[s] for s in outcome.winners(state.final, state.winner or "")])
    return _("The {party} win: {names}.", party=PARTY_NAME[state.winner or ""], names=won)


def card_lines(state: KampfState) -> list[Msg]:
    return [_("{name}: {role}", name=state.names[s], role=ROLE_NAME[r]) for s, r in enumerate(state.final)]


DAY_STEP = Step[KampfState](
    DAY,
    _("the table is discussing"),
    (Move(TIMER_DONE, discussion_over, args={"name": Choice([DAY_TIMER])}),),
)
VOTE_STEP = Step[KampfState](
    VOTE,
    _("everyone is pointing at a player"),
    (
        Move(
            "vote",
            vote,
            args={"choice": Seat(), "seat": Opt(Seat())},
            by=_voters,
            role=_("voting"),
            ask=_ask_vote,
        ),
    ),
)
REVEAL_STEP = Step[KampfState](
    REVEAL,
    _("the players are turning over their cards"),
    (
        Move(
            "cards",
            turned_over,
            args={"cards": Items(str, 16)},
            ask=lambda s: [Expect("cards", "cards", _("Enter each player's card, in seat order"), count=s.players)],
        ),
    ),
)


RECOUNT = Move[KampfState](
    "recount",
    turned_over,
    args={"cards": Items(str, 16)},
    ask=lambda s: [
        Expect(
            "cards",
            "recount",
            _("If a card was entered wrong: each player's card again, in seat order"),
            count=s.players,
            optional=True,
        )
    ],
    when=lambda s: s.step == OVER and not s.digital,
    not_now=_("only the cards turned over at the end of a game with the table's own cards are corrected"),
)
"""The correction of a card entered wrong at the end (physical cards): the end is final
(it told every player the result), so undo cannot take the entry back; the host enters
the cards again and the box judges the vote anew.  Nothing secret is re-run: the cards
lie face up."""
