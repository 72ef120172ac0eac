"""Secret Voldemort (5-10 players) as the box plays it: Secret Hitler in the wizarding world.

The box deals the Secret Roles to phones, narrates the Opening, runs the elections,
keeps the policy deck (or counts the table's own), casts the spells' secrets to the
Minister's phone and lights three tracks: Order policies (5), Dark Arts policies (6)
and the election tracker (3).  Where the rulebook is silent the official Secret
Hitler rules apply; each is marked ``# Secret Hitler:`` where it is applied.

The new-game options (``voldemort_setup.OPTION_CHOICES``): the ``deck`` (digital or the
table's physical cards, read in the ``reveal`` zone), ``voldemort_knows`` (Secret
Hitler's 5-6 player opening), ``term_limits`` (the rulebook's, or Secret Hitler's
exception at five or fewer alive) and ``spells`` (Secret Hitler's boards, or a spell on
every Dark Arts policy as the English rulebook says).  Every prompt whose answer may
end the game, and so show every role, is ``final``: the phone asks before sending it.

The moves (``choice`` a player by name or seat, or an option as offered):

=============  =========================================  ==============================
kind           data                                       who (besides the host)
=============  =========================================  ==============================
nominate       {"choice": player}                         the Minister
vote           {"vote": bool} (+ "seat" from the host)    each living player
hands          {"choice": how many voted Yes}             host only (a show of hands)
discard        {"choice": "Order" | "Dark Arts"}          the Minister only (digital)
enact          {"choice": "Order" | "Dark Arts"}          the Headmaster only (digital)
policy         {"choice": kind} | {"cards": [card]}       the Headmaster (physical deck)
veto           {}                                         the Headmaster (5 Dark Arts)
answer         {"choice": "agree" | "refuse"}             the Minister
crucio         {"choice": player}                         the Minister
stupor         {}                                         the Minister
imperio        {"choice": player}                         the Minister
avada_kedavra  {"choice": player}                         the Minister
=============  =========================================  ==============================

Final steps (undo stops at them, see engine.table): every step that shows a policy or a
party to a phone (the vote or show of hands that elects a government and deals the
Minister's draw, the Minister's discard, Crucio, Stupor's look at the next policies),
and the end of the game.  Nominations, votes that fail, and a policy read from the
physical deck (public on the board) may be undone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.display import card, reveal
from engine.effects import Effect, Say, Track
from engine.game import Turn
from engine.games import voldemort_election as election
from engine.games import voldemort_legislation as legislation
from engine.games import voldemort_spells as spells
from engine.games.voldemort_rules import (
    CHAOS,
    DARK_ARTS,
    DARK_ARTS_TO_WIN,
    ORDER,
    ORDER_TO_WIN,
    PARTY,
    PARTY_NAME,
    POLICY_CARD,
    POLICY_NAME,
    ROLE_NAME,
    SPELL_NAME,
    VETO_FROM,
    spell_track,
)
from engine.games.voldemort_setup import OPTION_CHOICES, new_state
from engine.games.voldemort_state import DEATH_EATERS_WIN, DISCARD, ENACT, NOMINATE, ORDER_WINS, OVER, VoldemortState
from engine.messages import Msg, words
from engine.steps import Step, StepGame

_, _n = words("voldemort")

WINNER_NAME = {ORDER_WINS: _("the Order of the Phoenix"), DEATH_EATERS_WIN: _("the Death Eaters")}

LABELS = {
    # the public view: the state's own fields
    "names": _("Players"),
    "physical": _("Physical policy deck"),
    "voldemort_knows": _("Voldemort knows his Death Eater"),
    "few_alive_limits": _("Only the last Headmaster is term-limited at five or fewer alive"),
    "term_limits": _("Term limits"),
    "every_spell": _("A spell on every Dark Arts policy"),
    "spells": _("Spells"),
    "step": _("Step"),
    "roles": _("Roles"),
    "dead": _("Dead"),
    "minister": _("Minister's seat"),
    "rotation": _("Rotation passes on from seat"),
    "chosen": _("Seat of the next Minister (Imperio)"),
    "nominee": _("Nominee's seat"),
    "headmaster": _("Headmaster's seat"),
    "last_minister": _("Seat of the last elected Minister"),
    "last_headmaster": _("Seat of the last elected Headmaster"),
    "voted": _("Voted"),
    "last_vote": _("Last vote"),
    "yes": _("Yes"),
    "no": _("No"),
    "yes_seats": _("Voted Yes"),
    "election": _("Election tracker"),
    "order": _("Order policies"),
    "dark_arts": _("Dark Arts policies"),
    "enacted": _("Policies enacted"),
    "chaos": _("Chaos"),
    "draw_pile": _("Draw pile"),
    "discard_pile": _("Discard pile"),
    "holding": _("Holding policies"),
    "shuffles": _("Shuffles"),
    "veto_asked": _("Veto asked"),
    "investigated": _("Seats shown by Crucio"),
    "winner": _("Winning side"),
    "reason": _("Why"),
    "story": _("The story of the game"),
    # the public view: described
    "status": _("Status"),
    "minister_name": _("Minister for Magic"),
    "dead_names": _("The dead"),
    "spell_track": _("Spells on the Dark Arts track"),
    "veto_unlocked": _("Veto unlocked"),
    "eligible": _("May be nominated"),
    "enacted_names": _("Enacted policies"),
    "winner_name": _("Winner"),
    "role_names": _("Secret Roles"),
    # a seat's own view
    "role": _("Role"),
    "role_name": _("Secret Role"),
    "party": _("Party"),
    "party_name": _("Party Membership"),
    "you_know": _("You know"),
    "name": _("Name"),
    "policies": _("Your policies"),
    "crucio": _("Crucio: Party Membership"),
    "stupor": _("Stupor: the top three policies"),
    "vote": _("Your vote"),
}
"""What the pages call each key of the views (nested ones too: a vote's, a known role's)."""


class Voldemort(StepGame[VoldemortState]):
    """Secret Voldemort."""

    name = "voldemort"
    title = _("Secret Voldemort")
    min_seats = 5
    max_seats = 10
    option_choices = OPTION_CHOICES
    option_names = {"deck": _("Policy deck")}
    option_words = {"deck": {"digital": _("shuffled by the box"), "physical": _("the table's own cards")}}
    steps = (
        election.NOMINATE_STEP,
        election.VOTE_STEP,
        legislation.DISCARD_STEP,
        legislation.ENACT_STEP,
        legislation.POLICY_STEP,
        legislation.VETO_STEP,
        spells.CRUCIO_SPELL,
        spells.STUPOR_SPELL,
        spells.IMPERIO_SPELL,
        spells.AVADA_SPELL,
        Step[VoldemortState](OVER, _("the game is over"), ()),
    )
    labels = LABELS
    teach = (
        {
            "title": _("Secret Voldemort: the two policy cards (physical deck)"),
            "how": _(
                "Lay one Order policy and one Dark Arts policy face up in a row under the camera,"
                " the Order policy on the left, then preview and save. Once is enough."
            ),
            "deck": "secret-voldemort",
            "rows": 1,
            "cols": 2,
            "names": (POLICY_CARD[ORDER], POLICY_CARD[DARK_ARTS]),
        },
    )
    """The decks the host page offers to teach for this game, filled in for the host."""

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[VoldemortState, list[Effect]]:
        state, effects = new_state(options, turn)
        return state, effects + [Say(_("{name}, nominate a Headmaster.", name=state.names[state.minister]))]

    def is_over(self, state: VoldemortState) -> bool:
        return state.step == OVER

    def tracks(self, state: VoldemortState) -> dict[str, Track]:
        """The election tracker blinks when one more failure brings chaos."""
        return {
            "order": Track(state.order, ORDER_TO_WIN),
            "dark_arts": Track(state.dark_arts, DARK_ARTS_TO_WIN),
            "election": Track(state.election, CHAOS, attention=state.election == CHAOS - 1),
        }

    def describe(self, public: VoldemortState) -> dict[str, Any]:
        """The host page's status line and the board's facts (all public)."""
        return {
            "status": _status(public),
            "minister_name": public.names[public.minister],
            "dead_names": list(public.named(public.dead)),
            "spell_track": [SPELL_NAME[s] if s else None for s in spell_track(public.players, public.every_spell)],
            "veto_unlocked": public.dark_arts >= VETO_FROM,
            "eligible": list(public.named(public.eligible())) if public.step == NOMINATE else [],
            "enacted_names": [POLICY_NAME[k] for k in public.enacted],
            "winner_name": WINNER_NAME[public.winner] if public.winner else None,
            "role_names": [ROLE_NAME[r] for r in public.roles],
            **(
                {
                    "reveal": reveal(
                        zip(public.names, map(_card, public.roles), strict=True),
                        outcome=_status(public),
                        story=public.story,
                    )
                }
                if public.roles
                else {}
            ),
        }

    def present(self, public: VoldemortState, seat: int, mine: dict[str, Any]) -> dict[str, Any]:
        """One seat's Secret Role and Party Membership, whom it knows, the policies in its
        hand, what its spells showed, its vote.  ``role`` and ``party`` are what the pages
        match on, ``role_name`` and ``party_name`` what they show."""
        role = mine.get("roles")
        party = PARTY[role] if role else None
        known = sorted((int(s), r) for s, r in (mine.get("known") or {}).items())
        crucio = sorted((int(s), p) for s, p in (mine.get("crucio") or {}).items())
        return {
            **({"card": _card(role)} if role else {}),
            "role": role,
            "role_name": ROLE_NAME[role] if role else None,
            "party": party,
            "party_name": PARTY_NAME[party] if party else None,
            "you_know": [{"name": public.names[s], "role": ROLE_NAME[r]} for s, r in known],
            "policies": [POLICY_NAME[k] for k in mine.get("hands") or []],
            "crucio": [{"name": public.names[s], "party": PARTY_NAME[p]} for s, p in crucio],
            "stupor": [POLICY_NAME[k] for k in mine.get("peeks") or []],
            "vote": mine.get("votes"),
            "dead": seat in public.dead,
        }


def _card(role: str) -> dict[str, Any]:
    """A Secret Role as a card: the Order blue, the Death Eaters and Voldemort green (the
    board's colours), the party under the role."""
    party = PARTY[role]
    return card(ROLE_NAME[role], "blue" if party == ORDER else "green", PARTY_NAME[party])


def _status(state: VoldemortState) -> Msg:
    minister = state.names[state.minister]
    board = _(
        "Order {order}/{order_win}, Dark Arts {dark}/{dark_win}, tracker {election}/{chaos}",
        order=state.order,
        order_win=ORDER_TO_WIN,
        dark=state.dark_arts,
        dark_win=DARK_ARTS_TO_WIN,
        election=state.election,
        chaos=CHAOS,
    )
    if state.step == OVER:
        if state.winner == ORDER_WINS:
            return _("Game over: the Order of the Phoenix won ({reason})", reason=state.reason)
        return _("Game over: the Death Eaters won ({reason})", reason=state.reason)
    if state.step == DISCARD:
        return _(
            "Waiting for {name} (Minister) to discard a policy on their phone; {board}", name=minister, board=board
        )
    if state.step == ENACT:
        return _(
            "Waiting for {name} (Headmaster) to enact a policy on their phone; {board}",
            name=state.names[state.sitting()],
            board=board,
        )
    return _("Minister {name}: {doing}; {board}", name=minister, doing=_DOING[state.step], board=board)


_DOING = {step.name: step.doing for step in Voldemort.steps}
