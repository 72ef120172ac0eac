"""Harry Potter: Kampf gegen die dunklen Mächte (3-13 players): One Night Ultimate
Werewolf in the wizarding world, with the box as the game leader.

The box sets up one of the rulebook's seven scenarios or a free choice of roles,
narrates the night in wake order with the same fixed time for every call, runs the
day's discussion timer, takes the vote and says who is captured and who has won.  With
digital cards it deals the roles to the phones and carries out every night action
there; with physical cards it narrates and times, and the host enters the votes and
the cards turned over.  Where the rulebook is silent One Night Ultimate Werewolf's
rules apply, marked ``# ONUW:``.

The moves (``choice`` an option's value as the prompt offers it, e.g. ``"seat 2"``,
``"left"`` or ``"nothing"``, or its label where no other option shares that label; a
vote's ``choice`` a player by name or seat):

========== ====================================== ===============================
kind       data                                   who
========== ====================================== ===============================
start      {}                                     the host
act        {"choice": option} | {"choices": [..]} a phone woken by its call
timer_done {"name": "night" | "discussion"}       the box, when the timer runs out
vote       {"choice": player} (+ "seat")          each player, or the host for one
cards      {"cards": [role, ...]}                 the host (physical cards)
recount    {"cards": [role, ...]}                 the host, after the end (a correction)
========== ====================================== ===============================

Final steps (undo stops at them, see engine.table): the whole night, from the host's
start to the dawn (who acts is the secret: an undo that worked only while a held role
was called would say which roles are in play), and the end of the game (the vote, or
the cards entered).  The discussion and the votes before the last may be undone.  The
correction ``recount`` (physical cards) enters the cards turned over again after the
end, when one was entered wrong, and the vote is judged anew.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.display import card, reveal
from engine.effects import Effect, Expect
from engine.game import Turn
from engine.games.kampf_day import DAY_STEP, RECOUNT, REVEAL_STEP, VOTE_STEP, captured_line, card_lines, winner_line
from engine.games.kampf_night import NIGHT_STEP, start
from engine.games.kampf_notes import said
from engine.games.kampf_roles import (
    CALL_NAME,
    CENTRE,
    CENTRE_NAME,
    DARK,
    LEVEL,
    NUMBER,
    PARTY,
    PARTY_NAME,
    ROLE_NAME,
)
from engine.games.kampf_scenarios import FREE, MAX_PLAYERS, MIN_PLAYERS, SCENARIOS
from engine.games.kampf_setup import FREE_OPTION, OPTION_CHOICES, OPTION_NAMES, OPTION_WORDS, new_state
from engine.games.kampf_state import DAY, NIGHT, OVER, READY, REVEAL, VOTE, KampfState, dawned
from engine.messages import Msg, words
from engine.steps import Move, Step, StepGame

_, _n = words("kampf")

READY_STEP = Step[KampfState](
    READY,
    _("the players are looking at their role cards"),
    (Move("start", start, ask=lambda s: [Expect("confirm", "start", _("Start the night"))]),),
)


class Kampf(StepGame[KampfState]):
    """Kampf gegen die dunklen Mächte."""

    name = "kampf"
    # The product's German name, kept in English too (the English name is a translation).
    title = _("Kampf gegen die dunklen Mächte")
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    options = (FREE_OPTION,)
    option_choices = OPTION_CHOICES
    option_names, option_words = OPTION_NAMES, OPTION_WORDS
    labels = {
        "status": _("Now"),
        "scenario_name": _("Scenario"),
        "markers": _("Role markers in play"),
        "face_up_cards": _("Face up for the day"),
        "votes_shown": _("Votes"),
        "result": _("Result"),
        "cards_shown": _("The cards"),
        "middle": _("In the middle"),
        "night": _("The night"),
        "discussion": _("Discussion"),
        "role": _("Your role card"),
        "start_card": _("Your card at the start"),
        "party": _("Your party"),
        "vote": _("Your vote"),
        "tonight": _("Your night"),
    }
    steps = (
        READY_STEP,
        NIGHT_STEP,
        DAY_STEP,
        VOTE_STEP,
        REVEAL_STEP,
        Step[KampfState](OVER, _("the game is over"), ()),
    )
    anytime = (RECOUNT,)
    corrections = {RECOUNT.kind: _("the host enters the cards turned over again (a correction)")}

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[KampfState, list[Effect]]:
        return new_state(options, turn)

    def hides_actors(self, state: KampfState) -> bool:
        """At night only the role called is awake: who answers is the secret."""
        return state.step == NIGHT

    def is_over(self, state: KampfState) -> bool:
        return state.step == OVER

    def describe(self, public: KampfState) -> dict[str, Any]:
        """The host page: the scenario, the role markers with their levels, what is
        happening, Harry's face-up card by day, and at the end every card and the night."""
        shown: dict[str, Any] = {
            "status": _status(public),
            "scenario_name": SCENARIOS[public.scenario].english if public.scenario != FREE else _("free choice"),
            "markers": [
                _("{count} × {role} ({level})", count=n, role=ROLE_NAME[r], level=LEVEL[r])
                for r, n in sorted(Counter(public.roles).items())
            ],
            "face_up_cards": [
                _("{name}: {role}", name=public.names[s], role=ROLE_NAME[r]) for s, r in sorted(public.face_up.items())
            ],
        }
        if public.pointed:
            shown["votes_shown"] = [
                _("{name} points at {target}", name=public.names[s], target=public.names[t])
                for s, t in public.pointed.items()
            ]
        if public.step == OVER:
            shown |= _result(public)
        return shown

    def present(self, public: KampfState, seat: int, mine: dict[str, Any]) -> dict[str, Any]:
        """A phone: its role card until dawn (then locked: nobody may look at their card
        again), what it did and saw at night, and its vote.  At the end the card that
        counts, the one that last lay in front of the player, as the reveal shows it;
        the card dealt beside it."""
        dealt = mine.get("dealt")
        view: dict[str, Any] = {"tonight": [said(public, n) for n in mine.get("notes") or []]} if public.digital else {}
        if public.step == OVER and public.final:
            view |= _counted(public.final[seat], dealt)
        elif dealt and not dawned(public):
            view |= {"card": _card(dealt), "role": ROLE_NAME[dealt], "party": PARTY_NAME[PARTY[dealt]]}
        elif dealt:
            locked = _("face down: you must not look at your card again (you were dealt {role})", role=ROLE_NAME[dealt])
            view["card"] = card(_("Face down"), "grey", locked, icon="moon", covers=("role",))
            view["role"] = locked
        if mine.get("votes") is not None:
            view["vote"] = public.names[mine["votes"]]
        return view


def _counted(final: str, dealt: str | None) -> dict[str, Any]:
    """The end on a phone.  The rulebook: "the role card that last lies in front of the
    player counts ... the player may thereby change parties"; so the card and the party
    are the final card's, and the card dealt is shown apart, named as such."""
    shown: dict[str, Any] = {"card": _card(final), "role": ROLE_NAME[final], "party": PARTY_NAME[PARTY[final]]}
    if dealt:
        shown["start_card"] = ROLE_NAME[dealt]
    return shown


def _status(state: KampfState) -> Msg:
    if state.step == NIGHT and 0 <= state.call < len(state.calls):
        call = state.calls[state.call]
        return _("Night: call {number}, {call}", number=NUMBER[call], call=CALL_NAME[call])
    if state.step == DAY:
        return _("Day: the discussion")
    if state.step == VOTE:
        return _("The vote")
    if state.step == REVEAL:
        return _("The cards are turned over: the host enters them")
    if state.step == OVER:
        return _("Game over")
    return _("The players look at their role cards; the host starts the night")


def _card(role: str) -> dict[str, Any]:
    """A role card: the Hogwarts inhabitants red with the lightning bolt, the Death Eaters
    green with the skull, the party under the role."""
    dark = PARTY[role] == DARK
    return card(
        ROLE_NAME[role],
        "green" if dark else "red",
        PARTY_NAME[PARTY[role]],
        icon="skull" if dark else "bolt",
        covers=("role", "party"),
    )


MIDDLE_CAPTION = {"left": _("Middle, left"), "middle": _("Middle, centre"), "right": _("Middle, right")}
"""The end screen's captions of the three cards in the middle, after the seats' cards."""


def _middle_cards(state: KampfState) -> list[tuple[str, dict[str, Any]]]:
    """The three middle cards as they lie at the end (a digital deal: the box knows them;
    with the table's own cards only the seats' are entered)."""
    if not state.digital:
        return []
    return [(MIDDLE_CAPTION[c], _card(state.cards[state.players + i])) for i, c in enumerate(CENTRE)]


def _result(state: KampfState) -> dict[str, Any]:
    """The end: every card as it lies now, who was captured, who won, and the night's
    actions and the votes in order."""
    night = [said(state, note) for note in state.night_log] if state.digital else []
    votes = [
        _("{name} points at {target}", name=state.names[s], target=state.names[t]) for s, t in state.pointed.items()
    ]
    out: dict[str, Any] = (
        {}
        if not state.final
        else {
            "reveal": reveal(
                [*zip(state.names, map(_card, state.final), strict=True), *_middle_cards(state)],
                outcome=winner_line(state),
                accused=[state.names[s] for s in state.captured],
                story=[*night, *votes, captured_line(state)],
            )
        }
    )
    out |= {
        "result": [captured_line(state), winner_line(state)],
        "cards_shown": card_lines(state),
    }
    if state.digital:
        out["middle"] = [
            _("{place}: {role}", place=CENTRE_NAME[c], role=ROLE_NAME[state.cards[state.players + i]])
            for i, c in enumerate(CENTRE)
        ]
        out["night"] = [said(state, note) for note in state.night_log]
    return out
