"""Secret Voldemort (5-10 players) as the box plays it: Secret Hitler in the wizarding world.

The box deals the Secret Roles to phones, narrates the Opening, runs the elections,
keeps the policy deck (or counts the table's own), casts the spells' secrets to the
Minister's phone and lights three tracks: Order policies (5), Dark Arts policies (6)
and the election tracker (3).  Where the rulebook is silent the official Secret
Hitler rules apply; each is marked ``# Secret Hitler:`` where it is applied.

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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.effects import Effect, Say, Track
from engine.game import Turn
from engine.games import voldemort_election as election
from engine.games import voldemort_legislation as legislation
from engine.games import voldemort_spells as spells
from engine.games.voldemort_rules import (
    CHAOS,
    DARK_ARTS_TO_WIN,
    ORDER_TO_WIN,
    PARTY,
    PARTY_NAMES,
    POLICY_NAMES,
    ROLE_NAMES,
    SPELL_NAMES,
    SPELL_TRACK,
    VETO_FROM,
)
from engine.games.voldemort_setup import OPTION_CHOICES, new_state
from engine.games.voldemort_state import DISCARD, ENACT, NOMINATE, OVER, VoldemortState
from engine.steps import Step, StepGame


class Voldemort(StepGame[VoldemortState]):
    """Secret Voldemort."""

    name = "voldemort"
    title = "Secret Voldemort"
    min_seats = 5
    max_seats = 10
    option_choices = OPTION_CHOICES
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
        Step[VoldemortState](OVER, "the game is over", ()),
    )

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[VoldemortState, list[Effect]]:
        state, effects = new_state(options, turn)
        return state, effects + [Say(f"{state.names[state.minister]}, nominate a Headmaster.")]

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
            "spell_track": [SPELL_NAMES[s] if s else None for s in SPELL_TRACK[public.players]],
            "veto_unlocked": public.dark_arts >= VETO_FROM,
            "eligible": list(public.named(public.eligible())) if public.step == NOMINATE else [],
        }

    def present(self, public: VoldemortState, seat: int, mine: dict[str, Any]) -> dict[str, Any]:
        """One seat's Secret Role and Party Membership (both languages), whom it knows,
        the policies in its hand, what its spells showed, its vote."""
        role = mine.get("roles")
        party = PARTY[role] if role else None
        known = sorted((int(s), r) for s, r in (mine.get("known") or {}).items())
        crucio = sorted((int(s), p) for s, p in (mine.get("crucio") or {}).items())
        return {
            "role": role,
            "role_name": ROLE_NAMES["en"][role] if role else None,
            "role_name_de": ROLE_NAMES["de"][role] if role else None,
            "party": party,
            "party_name": PARTY_NAMES["en"][party] if party else None,
            "party_name_de": PARTY_NAMES["de"][party] if party else None,
            "you_know": [{"name": public.names[s], "role": ROLE_NAMES["en"][r]} for s, r in known],
            "policies": [POLICY_NAMES[k] for k in mine.get("hands") or []],
            "crucio": [{"name": public.names[s], "party": PARTY_NAMES["en"][p]} for s, p in crucio],
            "stupor": [POLICY_NAMES[k] for k in mine.get("peeks") or []],
            "vote": mine.get("votes"),
            "dead": seat in public.dead,
        }


def _status(state: VoldemortState) -> str:
    minister = state.names[state.minister]
    board = f"Order {state.order}/{ORDER_TO_WIN}, Dark Arts {state.dark_arts}/{DARK_ARTS_TO_WIN}, tracker {state.election}/{CHAOS}"
    if state.step == OVER:
        return f"Game over: {'the Order of the Phoenix' if state.winner == 'order' else 'the Death Eaters'} won ({state.reason})"
    if state.step == DISCARD:
        return f"Waiting for {minister} (Minister) to discard a policy on their phone; {board}"
    if state.step == ENACT:
        return f"Waiting for {state.names[state.sitting()]} (Headmaster) to enact a policy on their phone; {board}"
    return f"Minister {minister}: {_DOING[state.step]}; {board}"


_DOING = {step.name: step.doing for step in Voldemort.steps}
