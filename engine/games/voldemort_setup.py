"""Secret Voldemort, set-up: the options, the role deal, the Opening and the deck.

Everything random comes from ``turn.random`` under its own name (the roles, the first
Minister, each shuffle), so undo never re-deals.  The Opening is said in the same
words at every table whatever the roles: only the options chosen at set-up, which
everyone hears, change it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import IllegalAction
from engine.effects import Effect, Say
from engine.game import Turn
from engine.games.voldemort_rules import (
    DEATH_EATER,
    POLICIES,
    ROLES,
    UNSEEN,
    VOLDEMORT,
    policy_deck,
    role_deck,
)
from engine.games.voldemort_state import VoldemortState
from engine.messages import listing, words

_, _n = words("voldemort")

DECKS = (_("digital"), _("physical"))
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "deck": DECKS,
    # Secret Hitler: at 5-6 players Hitler knows his one Fascist.  The rulebook has
    # Voldemort never know his Death Eaters, so it is off unless chosen.
    "voldemort_knows": (_("no"), _("original game's rule (5-6 players)")),
    # The rulebook: "You cannot nominate the immediate past Minister or Headmaster", with
    # no exception.  Secret Hitler frees the last President once five or fewer are alive.
    "term_limits": (
        _("the rulebook's (the last Minister and Headmaster)"),
        _("original game's rule (5 or fewer alive)"),
    ),
    # Secret Hitler's boards (what the German rulebook describes), or a spell on every
    # Dark Arts policy as the English rulebook says (see ``EVERY_SPELL_TRACK``).
    "spells": (_("original game's board"), _("a spell on every Dark Arts policy")),
}
_YES = OPTION_CHOICES["voldemort_knows"][1]


def _option(options: Mapping[str, Any], key: str) -> str:
    value = options.get(key, OPTION_CHOICES[key][0])
    if value is True:
        value = OPTION_CHOICES[key][1]
    if value is False:
        value = OPTION_CHOICES[key][0]
    if value not in OPTION_CHOICES[key]:
        raise IllegalAction(_("{key} must be one of: {choices}", key=key, choices=listing(OPTION_CHOICES[key], "or")))
    return str(value)


def new_state(options: Mapping[str, Any], turn: Turn) -> tuple[VoldemortState, list[Effect]]:
    """Deal the roles, shuffle the deck (or count the table's), pick the first Minister."""
    players = len(turn.seats)
    if players not in ROLES:
        raise IllegalAction(_("Secret Voldemort is for 5 to 10 players"))
    knows = _option(options, "voldemort_knows") == _YES
    if knows and players > 6:
        raise IllegalAction(_("the original game's rule (Voldemort knows his Death Eater) is for 5 or 6 players only"))
    state = VoldemortState(
        names=list(turn.seats),
        physical=_option(options, "deck") == "physical",
        voldemort_knows=knows,
        few_alive_limits=_option(options, "term_limits") == OPTION_CHOICES["term_limits"][1],
        every_spell=_option(options, "spells") == OPTION_CHOICES["spells"][1],
    )
    roles = role_deck(players)
    turn.random("roles").shuffle(roles)
    state.roles = roles
    state.known = [_known(roles, seat, knows) for seat in range(players)]
    if state.physical:
        state.draw = [UNSEEN] * POLICIES
    else:
        deck = policy_deck()
        turn.random("deck", 0).shuffle(deck)
        state.draw = deck
    # Secret Hitler: the first Minister (President) is chosen at random.
    state.minister = state.rotation = turn.random("first minister").randrange(players)
    return state, opening(state)


def _known(roles: list[str], seat: int, voldemort_knows: bool) -> dict[int, str]:
    """Whom ``seat`` recognises in the Opening: a Death Eater sees the other Death Eaters
    and Voldemort; Voldemort sees no one (his Death Eater only by the original rule)."""
    mine = roles[seat]
    if mine == DEATH_EATER or (mine == VOLDEMORT and voldemort_knows):
        return {s: r for s, r in enumerate(roles) if s != seat and r in (DEATH_EATER, VOLDEMORT)}
    return {}


EYES_CLOSING_S = 3.0
"""Quiet after "close your eyes", so every eye is shut before anyone is called."""
RECOGNISING_S = 6.0
"""Quiet while the Death Eaters look round the table (and Voldemort's thumb is up)."""
EYES_SHUT_S = 2.0
"""Quiet after they close their eyes again, so no one hears who moved last."""


def opening(state: VoldemortState) -> list[Effect]:
    """The Opening in the rulebook's order, with fixed pauses; the same words and the same
    timing whoever holds which role, so the speaker gives nothing away."""
    voldemort = (
        _("Lord Voldemort, open your eyes too, and see your Death Eater.")
        if state.voldemort_knows
        else _("Lord Voldemort, keep your eyes closed and raise your thumb, so your followers know you.")
    )
    deck = (
        _("Shuffle the 17 policy cards and place them face down as the draw pile.")
        if state.physical
        else _("The box keeps the 17 policies: the Minister's and the Headmaster's phones will show them.")
    )
    return [
        Say(
            _("Your Secret Role and Party Membership are on your phone: look at them privately, and never show anyone.")
        ),
        Say(deck),
        Say(_("The Opening. Everyone, close your eyes."), then_wait=EYES_CLOSING_S),
        Say(_("Death Eaters, open your eyes, and see one another, and who Lord Voldemort is.")),
        Say(voldemort, then_wait=RECOGNISING_S),
        # Secret Hitler: at 5-6 players Hitler opens and closes his eyes with the Fascist.
        Say(
            _("Death Eaters and Lord Voldemort, close your eyes.")
            if state.voldemort_knows
            else _("Death Eaters, close your eyes. Lord Voldemort, lower your thumb."),
            then_wait=EYES_SHUT_S,
        ),
        Say(_("Everyone, open your eyes.")),
        Say(_("{name} is chosen at random as the first Minister for Magic.", name=state.names[state.minister])),
    ]
