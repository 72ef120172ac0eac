"""Kampf gegen die dunklen Mächte: the rulebook's seven scenarios and free choice of roles.

Each scenario is its base line (the fewest players) and, per larger count, what its
"+" line adds to that base, exactly as printed; every list holds three cards more
than there are players.  Free choice takes any of the 16 cards; the rulebook's tips
become warnings, never refusals, because it says the table may choose freely.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.actions import IllegalAction
from engine.games.kampf_roles import (
    CARDS,
    DUMBLEDORE,
    FRED,
    GEORGE,
    GINNY,
    HARRY,
    HERMIONE,
    LEVEL,
    LUNA,
    MCGONAGALL,
    NEVILLE,
    ROLE_NAME,
    RON,
    SIRIUS,
    STUDENT,
    named_roles,
)
from engine.games.kampf_roles import (
    DEATH_EATER as DE,
)
from engine.messages import Msg, words

_, _n = words("kampf")

CENTRE_CARDS = 3
MIN_PLAYERS = 3
MAX_PLAYERS = sum(CARDS.values()) - CENTRE_CARDS
FREE = "free"
SUGGESTED = "suggested"
"""The default: the printed scenario for this many players, or cards the box proposes."""
TWINS_FROM = 7
"""The rulebook: Fred and George only from 7 players, otherwise they are too strong."""


@dataclass(frozen=True)
class Scenario:
    """One printed scenario: its names, difficulty, base line and "+" lines."""

    english: Msg
    difficulty: Msg
    base: tuple[str, ...]
    plus: dict[int, tuple[str, ...]] = field(default_factory=dict)

    @property
    def smallest(self) -> int:
        return len(self.base) - CENTRE_CARDS

    @property
    def counts(self) -> range:
        return range(self.smallest, max([self.smallest, *self.plus]) + 1)

    def roles(self, players: int) -> list[str]:
        if players not in self.counts:
            raise IllegalAction(
                _(
                    "{scenario} is for {least} to {most} players, not {count}",
                    scenario=self.english,
                    least=self.counts.start,
                    most=self.counts.stop - 1,
                    count=players,
                )
            )
        return sorted([*self.base, *self.plus.get(players, ())])


TWIN_CARDS = (FRED, GEORGE)
SCENARIOS: dict[str, Scenario] = {
    "Das erste Schuljahr": Scenario(
        _("The First School Year"),
        _("introductory"),
        (DE, DE, HERMIONE, SIRIUS, NEVILLE, STUDENT),
        {4: (STUDENT,), 5: (STUDENT, STUDENT)},
    ),
    "Besenflug": Scenario(
        _("Broom Flight"),
        _("easy"),
        (DE, DE, MCGONAGALL, SIRIUS, NEVILLE, STUDENT),
        {4: (STUDENT,), 5: (STUDENT, HERMIONE), 6: (STUDENT, STUDENT, HERMIONE)},
    ),
    "Zauberkunst": Scenario(_("Charms"), _("easy"), (DE, HERMIONE, SIRIUS, NEVILLE, STUDENT, STUDENT), {4: (STUDENT,)}),
    "Confundus": Scenario(
        _("Confundus"),
        _("medium"),
        (DE, DE, RON, SIRIUS, NEVILLE, MCGONAGALL),
        {
            4: (STUDENT,),
            5: (STUDENT, HERMIONE),
            6: (STUDENT, STUDENT, HERMIONE),
            7: (STUDENT, STUDENT, STUDENT, HERMIONE),
            8: (STUDENT, STUDENT, STUDENT, HERMIONE, HARRY),
            9: (STUDENT, STUDENT, HERMIONE, HARRY, *TWIN_CARDS),
        },
    ),
    "Finite Incantatem": Scenario(
        _("Finite Incantatem"),
        _("medium"),
        (DE, DE, GINNY, HERMIONE, SIRIUS, RON, MCGONAGALL),
        {5: (NEVILLE,), 6: (NEVILLE, STUDENT), 7: (NEVILLE, STUDENT, HARRY)},
    ),
    "Unter dem Tarnumhang": Scenario(
        _("Under the Invisibility Cloak"),
        _("medium"),
        (DE, DE, HARRY, GINNY, HERMIONE, DUMBLEDORE, NEVILLE, *TWIN_CARDS),
        {7: (STUDENT,)},
    ),
    "Kampf gegen die dunklen Mächte": Scenario(
        _("Fight Against the Dark Forces"),
        _("hard"),
        (DE, DE, DUMBLEDORE, HERMIONE, SIRIUS, RON, MCGONAGALL),
        {
            5: (NEVILLE,),
            6: (NEVILLE, STUDENT),
            7: (NEVILLE, *TWIN_CARDS),
            8: (NEVILLE, *TWIN_CARDS, LUNA),
            9: (NEVILLE, *TWIN_CARDS, LUNA, GINNY),
            10: (NEVILLE, *TWIN_CARDS, LUNA, GINNY, STUDENT),
        },
    ),
}
"""The scenarios by the name printed in the German rulebook (the option's value)."""


def suggested(players: int) -> tuple[str, list[str]]:
    """The scenario that fits ``players``: the first printed one for that count (they are
    printed easiest first, so a table of 3 to 5 gets "Das erste Schuljahr", as the
    rulebook advises for a first game), else :func:`proposed` as a free choice."""
    for name, scenario in SCENARIOS.items():
        if players in scenario.counts:
            return name, scenario.roles(players)
    return FREE, proposed(players)


def proposed(players: int) -> list[str]:
    """Cards for a table larger than any printed scenario (11 to 13 players).  The rulebook
    prints none, but lets the table choose freely; the box proposes the largest printed
    set (the hard scenario for 10) and fills it with the cards it leaves, Hogwarts
    students first since they are the simplest role."""
    largest = max(SCENARIOS.values(), key=lambda s: s.counts.stop)
    roles = largest.roles(largest.counts.stop - 1)
    left = Counter(CARDS) - Counter(roles)
    spare = sorted(left.elements(), key=lambda role: (role != STUDENT, role))
    return sorted([*roles, *spare[: players + CENTRE_CARDS - len(roles)]])


def free_roles(raw: object, players: int) -> list[str]:
    """Roles chosen freely: any name a host types for a card (key, English or German),
    as a list or separated by commas, from the 16 cards that exist, three more than
    there are players."""
    items = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(items, list | tuple) or not all(isinstance(i, str) for i in items):
        raise IllegalAction(_("roles must be a list of role cards"))
    roles = []
    for item in items:
        role = named_roles(item)
        if role is None:
            raise IllegalAction(_("there is no role card called {name!r}", name=item.strip()[:40]))
        roles.append(role)
    for role, count in Counter(roles).items():
        if count > CARDS[role]:
            raise IllegalAction(
                _n(
                    "the game has only one {role} card",
                    "the game has only {count} {role} cards",
                    CARDS[role],
                    role=ROLE_NAME[role],
                )
            )
    if len(roles) != players + CENTRE_CARDS:
        raise IllegalAction(
            _(
                "choose {wanted} role cards for {players} players (three more than players), not {count}",
                wanted=players + CENTRE_CARDS,
                players=players,
                count=len(roles),
            )
        )
    if (FRED in roles) != (GEORGE in roles):
        raise IllegalAction(_("Fred and George Weasley come into the game only together"))
    return sorted(roles)


def tips(roles: Sequence[str], players: int) -> list[Msg]:
    """The rulebook's tips that a free choice goes against: warnings for the host."""
    found = []
    if FRED in roles and players < TWINS_FROM:
        found.append(
            _(
                "Tip: Fred and George Weasley should only come into the game from 7 players, otherwise they are too strong."
            )
        )
    if MCGONAGALL in roles and SIRIUS not in roles and NEVILLE not in roles:
        found.append(_("Tip: use Minerva McGonagall only if Sirius Black and/or Neville Longbottom are in the game."))
    if any(LEVEL[role] == "***" for role in roles):
        found.append(_("Tip: in your first games play only with roles of levels * and **."))
    return found
