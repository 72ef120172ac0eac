"""Kampf gegen die dunklen Mächte: the 16 role cards, their parties, wake order and names.

The names are the German rulebook's, as printed; the English ones are the books'
English names (the rulebook is German, so German is where the names come from).
A role is kept by a plain key (``"hermione"``) in the state and the log; only views
and lines turn it into a name.
"""

from __future__ import annotations

import re

from engine.messages import Msg, words

_, _n = words("kampf")

DEATH_EATER = "death_eater"
STUDENT = "student"
HARRY = "harry"
HERMIONE = "hermione"
RON = "ron"
SIRIUS = "sirius"
NEVILLE = "neville"
GINNY = "ginny"
FRED = "fred"
GEORGE = "george"
LUNA = "luna"
MCGONAGALL = "mcgonagall"
DUMBLEDORE = "dumbledore"

CARDS: dict[str, int] = {
    STUDENT: 3,
    DEATH_EATER: 2,
    HARRY: 1,
    HERMIONE: 1,
    RON: 1,
    SIRIUS: 1,
    NEVILLE: 1,
    GINNY: 1,
    FRED: 1,
    GEORGE: 1,
    LUNA: 1,
    MCGONAGALL: 1,
    DUMBLEDORE: 1,
}
"""The box's 16 role cards: how many of each role there are."""
ROLES = tuple(CARDS)

HOGWARTS = "hogwarts"
DARK = "death_eaters"
PARTY = {role: DARK if role == DEATH_EATER else HOGWARTS for role in ROLES}

ROLE_NAME: dict[str, Msg] = {
    DEATH_EATER: _("Death Eater"),
    STUDENT: _("Hogwarts student"),
    HARRY: _("Harry Potter"),
    # German: "Hermine Granger", the German books' spelling.
    HERMIONE: _("Hermione Granger"),
    RON: _("Ron Weasley"),
    SIRIUS: _("Sirius Black"),
    NEVILLE: _("Neville Longbottom"),
    GINNY: _("Ginny Weasley"),
    FRED: _("Fred Weasley"),
    GEORGE: _("George Weasley"),
    LUNA: _("Luna Lovegood"),
    MCGONAGALL: _("Minerva McGonagall"),
    DUMBLEDORE: _("Albus Dumbledore"),
}
PARTY_NAME: dict[str, Msg] = {HOGWARTS: _("Hogwarts inhabitants"), DARK: _("Death Eaters")}

LEVEL = {role: "*" for role in ROLES} | {FRED: "***", GEORGE: "***", GINNY: "**", RON: "**"}
"""Each role's difficulty as printed: *, ** or ***."""

SPELL: dict[str, Msg] = {
    DUMBLEDORE: _("Cistem Aperio!"),
    GINNY: _("Immobilus!"),
    HARRY: _("Alohomora!"),
    # English books: "Stupefy!"; the German ones (and so the German cards): "Stupor!".
    HERMIONE: _("Stupefy!"),
    LUNA: _("Protego!"),
    MCGONAGALL: _("Lumos!"),
    NEVILLE: _("Expelliarmus!"),
    RON: _("Reducto!"),
    SIRIUS: _("Accio!"),
}
"""The spell printed on each role card that has one."""

TWINS = "twins"
"""Fred and George wake together, as one call of the night."""
WAKE_ORDER: tuple[tuple[str, tuple[str, ...]], ...] = (
    (DEATH_EATER, (DEATH_EATER,)),
    (TWINS, (FRED, GEORGE)),
    (HERMIONE, (HERMIONE,)),
    (SIRIUS, (SIRIUS,)),
    (DUMBLEDORE, (DUMBLEDORE,)),
    (NEVILLE, (NEVILLE,)),
    (RON, (RON,)),
    (HARRY, (HARRY,)),
    (MCGONAGALL, (MCGONAGALL,)),
)
"""The night's calls in wake order (1 to 9), each with the role cards it wakes;
Ginny, Luna and the students sleep through."""
NUMBER = {call: number for number, (call, _roles) in enumerate(WAKE_ORDER, start=1)}
CALL_OF = {role: call for call, roles in WAKE_ORDER for role in roles}

CALL_NAME: dict[str, Msg] = {
    DEATH_EATER: _("Death Eaters"),
    TWINS: _("Fred and George Weasley"),
    **{call: ROLE_NAME[call] for call, _roles in WAKE_ORDER[2:]},
}

CENTRE = ("left", "middle", "right")
"""The three centre positions, as they lie on the table seen from the box."""
CENTRE_NAME: dict[str, Msg] = {
    "left": _("the left card in the middle"),
    "middle": _("the middle card in the middle"),
    "right": _("the right card in the middle"),
}


GERMAN_NAME: dict[str, str] = {
    DEATH_EATER: "Todesser",
    STUDENT: "Hogwarts-Schüler",
    HARRY: "Harry Potter",
    HERMIONE: "Hermine Granger",
    RON: "Ron Weasley",
    SIRIUS: "Sirius Black",
    NEVILLE: "Neville Longbottom",
    GINNY: "Ginny Weasley",
    FRED: "Fred Weasley",
    GEORGE: "George Weasley",
    LUNA: "Luna Lovegood",
    MCGONAGALL: "Minerva McGonagall",
    DUMBLEDORE: "Albus Dumbledore",
}
"""The names on the German cards, which a German host reads off them and types.  They are
rules data, not words of the pages: a name typed is read the same on any box, with or
without its catalogs, so a log replays alike.  The German catalog gives ``ROLE_NAME``
these same words (a test holds the two together)."""

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def _folded(text: str) -> str:
    """A typed name reduced to its letters: case, spaces, hyphens and umlauts aside
    ("Hogwarts-Schüler", "hogwarts schueler" and "Hogwartsschüler" are one name)."""
    return re.sub(r"[\W_]+", "", text.casefold().translate(_UMLAUTS))


def _typed_names() -> dict[str, str]:
    """Every name a host may type for a card, folded: the key, the English and the German
    name, and any one word of those that names one role only ("Hermine", "Dumbledore",
    "Schüler"; never "Weasley", which four cards share)."""
    names = {_folded(n): role for role in ROLES for n in (role, ROLE_NAME[role], GERMAN_NAME[role])}
    words: dict[str, set[str]] = {}
    for role in ROLES:
        for name in (ROLE_NAME[role], GERMAN_NAME[role]):
            for word in re.split(r"[\s-]+", name):
                words.setdefault(_folded(word), set()).add(role)
    return {word: next(iter(roles)) for word, roles in words.items() if len(roles) == 1} | names


TYPED_NAMES = _typed_names()


def named_roles(text: str) -> str | None:
    """A role's key from what a host typed for a card (see :func:`_typed_names`), else None."""
    return TYPED_NAMES.get(_folded(text))
