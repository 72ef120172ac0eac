"""Harry Potter Clue: the fixed tables of the game, as pure data.

The rulebook names some of the 21 Mystery cards (in its story and its examples) and the
four wheel locations, the first of each kind below.  The rest are the edition's deck as
fans' notepad and solver apps list it, with the board's nine locations as a German fan
site describes them (the publisher's own card list was not found); the rulebook's own
spelling wins ("Snatchers", where those lists say "Snatcher").  A host whose deck
differs renames them at set-up (``suspects``, ``items`` and ``locations`` options).  Card, character and
location names are printed on the cards and the board, so they are said as printed.
"""

from __future__ import annotations

from engine.messages import words

_, _n = words("clue")

BURROW = "The Burrow"
"""Where accusations are made: a space on the board, never a Mystery card."""

SUSPECTS = (
    "Fenrir Greyback",
    "Snatchers",
    "Peter Pettigrew",
    "Lucius Malfoy",
    "Draco Malfoy",
    "Bellatrix Lestrange",
)
ITEMS = ("Cursed Necklace", "Jinxed Broomstick", "Love Potion", "Poisoned Mead", "Incendio", "Stupefy")
LOCATIONS = (
    "Forbidden Forest",
    "Gringotts",
    "Malfoy Manor",
    "Hogwarts Castle",
    "The Hog's Head",
    "Ministry of Magic",
    "The Shrieking Shack",
    "Weasleys' Wizard Wheezes",
    "12 Grimmauld Place",
)
COUNTS = {"suspect": len(SUSPECTS), "item": len(ITEMS), "location": len(LOCATIONS)}

IDENTITIES = ("Harry", "Ron", "Hermione", "Ginny", "Luna", "Neville")
"""The six Identity cards; one is removed at random as the missing student."""

FLOO = {3: 8, 4: 10, 5: 12}
"""Pinches of Floo powder each player starts with, by player count."""

# The black die's faces, by the names they are taught to the box with.
STAR = "star"
DARK_MARK = "dark-mark"
WHEELS = {
    "gringotts": "Gringotts",
    "hogwarts-castle": "Hogwarts Castle",
    "hogs-head": "The Hog's Head",
    "ministry-of-magic": "Ministry of Magic",
}
"""Each wheel by its die face's name, with the location in its corner of the board (named
as on the location cards, which the host may rename: names are the deck's, not the box's)."""


def wheel_place(face: str) -> str:
    """A wheel's place said after "the": "the Hog's Head wheel", never "the The Hog's Head
    wheel" (the board prints that name with its article)."""
    place = WHEELS.get(face, face)
    return place[4:] if place.startswith("The ") else place


BLACK_FACES = (*WHEELS, DARK_MARK, STAR)
FACE_NAME: dict[str, str] = {**WHEELS, DARK_MARK: _("Dark Mark"), STAR: _("Star")}
"""What a page shows on the button for each face of the black die."""

MOST_NOTCHES = 60
"""No wheel has more notches than this: a typing slip, not a board."""
MOST_PINCHES = 12
"""No Dark card costs more pinches than a player can start with."""
