"""Secret Voldemort: the fixed tables of the game, as pure data and pure functions.

The rulebook (Secret Hitler re-themed) gives the roles, the phases and the win
conditions; it is silent on the numbers, so those are the official Secret Hitler
rules', each marked ``# Secret Hitler:``.
"""

from __future__ import annotations

from engine.messages import Msg, words, words_in_context

_, _n = words("voldemort")
_p = words_in_context("voldemort")

ORDER = "order"
DEATH_EATER = "death_eater"
VOLDEMORT = "voldemort"

# Party Membership cards: Voldemort's says Death Eater.
PARTY = {ORDER: ORDER, DEATH_EATER: DEATH_EATER, VOLDEMORT: DEATH_EATER}

# The Secret Role and Party Membership cards' names.  English calls a role and a party
# alike; the German rulebook does not (the Auror is of the Order of the Phoenix, the
# Death Eater of the Dark Forces), so each has its own context.
ROLE_NAME: dict[str, Msg] = {
    ORDER: _p("role", "Order of the Phoenix"),
    DEATH_EATER: _p("role", "Death Eater"),
    VOLDEMORT: _("Lord Voldemort"),
}
PARTY_NAME: dict[str, Msg] = {ORDER: _p("party", "Order of the Phoenix"), DEATH_EATER: _p("party", "Death Eater")}
# The two offices of a government, as refusals name whose move it is.
MINISTER = _("Minister for Magic")
HEADMASTER = _("Headmaster")

# Secret Hitler: the role distribution, players -> (Order, Death Eaters), plus Voldemort.
ROLES: dict[int, tuple[int, int]] = {5: (3, 1), 6: (4, 1), 7: (4, 2), 8: (5, 2), 9: (5, 3), 10: (6, 3)}

# Policies.  The kinds are also what a page sends (``choice``) and a taught card's name.
DARK_ARTS = "dark_arts"
POLICY_NAME: dict[str, Msg] = {ORDER: _("Order"), DARK_ARTS: _("Dark Arts")}
A_POLICY: dict[str, Msg] = {ORDER: _("an Order policy"), DARK_ARTS: _("a Dark Arts policy")}
"""A policy as a sentence names one card (German says it in the genitive)."""
CARD_NAMES: dict[str, tuple[str, ...]] = {
    ORDER: ("order", "order policy", "orden", "ordensgesetz", "gesetz des ordens", "orden gesetz"),
    DARK_ARTS: ("dark arts", "dark arts policy", "dunkle künste", "gesetz der dunklen künste", "dunkle künste gesetz"),
}
"""The names a taught (or typed) policy card may carry, folded (lower case, single spaces):
the English rulebook's and the German one's ("Orden", "Dunkle Künste"), with or without
"policy" / "Gesetz", so a German table teaches its cards in its own words."""
POLICY_CARD: dict[str, Msg] = {ORDER: _("Order Policy"), DARK_ARTS: _("Dark Arts Policy")}
"""What the host page names the two policy cards when it teaches them (in German the
rulebook's "Orden" and "Dunkle Künste"): each is one of ``CARD_NAMES``."""
REVEAL = "reveal"
"""The card zone (``vision.areas``) the Headmaster lays the enacted policy in: the camera
answers the policy prompt only from there, not from the policies already on the board."""
# Secret Hitler: 6 Liberal and 11 Fascist policies.
DECK = {ORDER: 6, DARK_ARTS: 11}
POLICIES = sum(DECK.values())
UNSEEN = "unseen"
"""A card of the physical deck: the box counts it but never knows its kind."""

ORDER_TO_WIN = 5
DARK_ARTS_TO_WIN = 6
CHAOS = 3  # failed elections in a row enact the top policy
VOLDEMORT_DANGER = 3  # Dark Arts policies after which electing Voldemort Headmaster wins
VETO_FROM = 5  # Secret Hitler: veto power once five Fascist policies are enacted
FEW_ALIVE = 5  # Secret Hitler: with five or fewer living, only the last Chancellor is term-limited
HAND = 3

CRUCIO = "crucio"
STUPOR = "stupor"
IMPERIO = "imperio"
AVADA = "avada_kedavra"
SPELL_NAME: dict[str, Msg] = {
    CRUCIO: _("Crucio"),
    STUPOR: _("Stupor"),
    IMPERIO: _("Imperio"),
    AVADA: _("Avada Kedavra"),
}

# Secret Hitler: the three Fascist boards' presidential powers, for Dark Arts policies 1-5.
# The German text says "the more dangerous spells come into play faster with smaller
# groups"; these tracks do the opposite (9-10 players get Crucio from the first policy,
# 5-6 wait until the third for a mere Stupor), so the box follows the official boards.
_SMALL = (None, None, STUPOR, AVADA, AVADA)
_MEDIUM = (None, CRUCIO, IMPERIO, AVADA, AVADA)
_LARGE = (CRUCIO, CRUCIO, IMPERIO, AVADA, AVADA)
SPELL_TRACK: dict[int, tuple[str | None, ...]] = {5: _SMALL, 6: _SMALL, 7: _MEDIUM, 8: _MEDIUM, 9: _LARGE, 10: _LARGE}
# The English rulebook: "Whenever a Dark Arts Policy is enacted, the Minister for Magic
# gains the power to cast a spell", without saying which.  As an option every square
# gets one: an empty square takes the 9-10-player board's spell there (Crucio), the one
# the official boards put first.
EVERY_SPELL_TRACK: dict[int, tuple[str | None, ...]] = {
    players: tuple(own or large for own, large in zip(track, _LARGE, strict=True))
    for players, track in SPELL_TRACK.items()
}


def spell_track(players: int, every: bool = False) -> tuple[str | None, ...]:
    """The spells of the Dark Arts squares 1-5 at this table size (None: no spell)."""
    return (EVERY_SPELL_TRACK if every else SPELL_TRACK)[players]


def spell_for(players: int, dark_arts: int, every: bool = False) -> str | None:
    """The spell the ``dark_arts``-th Dark Arts policy brings at this table size."""
    track = spell_track(players, every)
    return track[dark_arts - 1] if 1 <= dark_arts <= len(track) else None


def role_deck(players: int) -> list[str]:
    """The Secret Role cards for this many players, unshuffled."""
    order, eaters = ROLES[players]
    return [ORDER] * order + [DEATH_EATER] * eaters + [VOLDEMORT]


def policy_deck() -> list[str]:
    """The 17 policies, unshuffled."""
    return [kind for kind, count in DECK.items() for _ in range(count)]
