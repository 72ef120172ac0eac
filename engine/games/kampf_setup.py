"""Kampf gegen die dunklen Mächte, set-up: the options, the role set and the deal.

The deal is drawn from the game's own randomness under one name, so undo never
re-deals.  With physical cards the box only names the cards to take; with digital
cards it deals them, one to each phone and three to the middle, by position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.actions import IllegalAction
from engine.args import whole_number
from engine.effects import Effect, Notice, Say
from engine.game import Turn
from engine.games.kampf_roles import ROLE_NAME, WAKE_ORDER
from engine.games.kampf_scenarios import (
    FREE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SCENARIOS,
    SUGGESTED,
    free_roles,
    suggested,
    tips,
)
from engine.games.kampf_state import NO_REPLACEMENT, RULEBOOK, KampfState
from engine.messages import listing, words

_, _n = words("kampf")

DIGITAL = "digital"
PHYSICAL = "physical"
FIRST = "Das erste Schuljahr"
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "cards": (DIGITAL, PHYSICAL),
    # First the default, which fits any table; then the printed scenarios, then free choice.
    "scenario": (SUGGESTED, FIRST, *[name for name in SCENARIOS if name != FIRST], FREE),
    # Minutes; any other whole number of minutes from 1 to 60 is taken too.
    # The rulebook: about 10 minutes at first, later 5 or fewer.
    "discussion": ("10", "5", "3"),
    # House rule: when Ginny points at Luna, nobody replaces her.
    "ginny_luna": (RULEBOOK, NO_REPLACEMENT),
}
OPTION_NAMES = {
    "cards": _("Role cards"),
    "scenario": _("Scenario"),
    "discussion": _("Discussion"),
    "ginny_luna": _("When Ginny points at Luna"),
}
"""The new-game form's names for the options."""
OPTION_WORDS = {
    "cards": {DIGITAL: _("dealt by the box"), PHYSICAL: _("the table's own cards")},
    "scenario": {SUGGESTED: _("suggested for the table"), FREE: _("free choice of roles")},
    "discussion": {minutes: _("{count} minutes", count=int(minutes)) for minutes in OPTION_CHOICES["discussion"]},
    "ginny_luna": {RULEBOOK: _("as the rulebook says"), NO_REPLACEMENT: _("nobody replaces Luna")},
}
"""The form's words for the option values the game checks (``OPTION_CHOICES``)."""
FREE_OPTION = "roles"
"""With scenario ``free``: the chosen role cards (keys, English or German names)."""
LONGEST_DISCUSSION = 60


def _option(options: Mapping[str, Any], key: str) -> str:
    value = str(options.get(key, OPTION_CHOICES[key][0]))
    if value not in OPTION_CHOICES[key]:
        raise IllegalAction(_("{key} must be one of: {values}", key=key, values=listing(OPTION_CHOICES[key], "or")))
    return value


def new_state(options: Mapping[str, Any], turn: Turn) -> tuple[KampfState, list[Effect]]:
    players = len(turn.seats)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(_("this game is for {least} to {most} players", least=MIN_PLAYERS, most=MAX_PLAYERS))
    chosen = _option(options, "scenario")
    if chosen != FREE and FREE_OPTION in options:
        raise IllegalAction(_("roles are chosen only with the scenario free"))
    scenario, roles = _roles(chosen, options, players)
    minutes = whole_number(
        options.get("discussion", OPTION_CHOICES["discussion"][0]), 1, LONGEST_DISCUSSION, "discussion"
    )
    state = KampfState(
        names=list(turn.seats),
        roles=roles,
        scenario=scenario,
        digital=_option(options, "cards") == DIGITAL,
        discussion=minutes * 60,
        ginny_luna=_option(options, "ginny_luna"),
    )
    state.calls = [call for call, woken in WAKE_ORDER if set(woken) & set(roles)]
    state.notes = [[] for _seat in range(players)]
    if state.digital:
        deal = list(roles)
        turn.random("deal").shuffle(deal)
        state.cards, state.dealt = deal, deal[:players]
    return state, _warnings(chosen, scenario, roles, players) + _opening(state)


def _roles(chosen: str, options: Mapping[str, Any], players: int) -> tuple[str, list[str]]:
    """The scenario played (``chosen``, or the one that fits the table) and its cards."""
    if chosen == SUGGESTED:
        return suggested(players)
    if chosen == FREE:
        return FREE, free_roles(options.get(FREE_OPTION, ()), players)
    return chosen, SCENARIOS[chosen].roles(players)


def _warnings(chosen: str, scenario: str, roles: list[str], players: int) -> list[Effect]:
    """The rulebook's tips against the host's own free choice; a word for the host when
    the box proposed the cards because no printed scenario is for this many players."""
    if chosen == FREE:
        return [Notice(tip) for tip in tips(roles, players)]
    if scenario == FREE:
        return [
            Notice(
                _(
                    "No printed scenario is for {count} players: the box proposes these cards as a free choice.",
                    count=players,
                )
            )
        ]
    return []


def counted(roles: list[str]) -> list[str]:
    """The role cards in play, each with how many of it."""
    return [_("{count} × {role}", count=n, role=ROLE_NAME[r]) for r, n in sorted(Counter(roles).items())]


def _opening(state: KampfState) -> list[Effect]:
    cards = listing(counted(state.roles))
    if state.digital:
        deal = Say(
            _(
                "The box has dealt these role cards: {cards}. Look at yours on your phone, privately; "
                "the three cards in the middle stay with the box.",
                cards=cards,
            )
        )
    else:
        deal = Say(
            _(
                "Take these role cards: {cards}. Put their role markers face up in the middle of the table. "
                "Shuffle the cards, deal one face down to each player and lay the other three face down "
                "side by side in the middle. Look at your card, then put it face down in front of you.",
                cards=cards,
            )
        )
    return [deal, Say(_("When everyone knows their role, the host starts the night."))]
