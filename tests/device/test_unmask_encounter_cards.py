"""An Encounter card read by the camera from a taught Encounter deck: the card reader's
name for it, with the data taught beside it, fills the whole Encounter in one step."""

from __future__ import annotations

import numpy as np

from device.readings import ReadingDesk
from support.unmask import started
from vision.cards import Card

FRAME = np.full((120, 160, 3), 90, np.uint8)
CORNERS = ((0, 0), (10, 0), (10, 14), (0, 14))
ENCOUNTERS = {
    "Break-in at Gringotts": {"group": 3, "check": "cards_total", "target": 7, "needs": ["ministry", "hogwarts"]},
    "Battle of Hogwarts": {"group": 6, "check": "of_a_kind", "target": 4, "rolls": 3, "six_plus": True},
}
"""What the host taught with each card (the catalog's per-card data)."""


def test_a_taught_encounter_card_fills_size_directive_target_and_locations_at_once() -> None:
    """Set-up 3 and steps 1-2: "The Leader draws an Encounter card and places it face up",
    "The number of players ... required for each group is shown on the Encounter card, as
    are any players needed from specific Locations"."""
    play = started()
    desk = ReadingDesk(play.submit, 0.9)
    wanted = next(e for e in play.table.expects() if e.kind == "cards")
    assert wanted.action == "encounter"
    said = desk.cards(FRAME, [Card("Break-in at Gringotts", CORNERS, 0.97)], ENCOUNTERS.__getitem__, wanted)
    card = play.s.card()
    assert said.startswith("read") and play.s.step == "group" and desk.pending() == []
    assert (card.name, card.group, card.check, card.target, card.needs) == (
        "Break-in at Gringotts",
        3,
        "cards_total",
        7,
        ["ministry", "hogwarts"],
    )
    assert "It needs players from: Ministry of Magic and Hogwarts." in play.said[-1]


def test_a_6_plus_encounter_or_a_card_of_another_deck_waits_for_the_host() -> None:
    """Set-up 3: "For a 4 or 5 player game, remove all cards noted 6+ and return them to the box." """
    play = started()
    desk = ReadingDesk(play.submit, 0.9)
    wanted = next(e for e in play.table.expects() if e.kind == "cards")
    desk.cards(FRAME, [Card("Battle of Hogwarts", CORNERS, 0.97)], ENCOUNTERS.__getitem__, wanted)
    galleon = {"Galleon": {"dice": 2}}
    desk.cards(FRAME, [Card("Galleon", CORNERS, 0.97)], galleon.__getitem__, wanted)
    whys = [p["why"] for p in desk.pending()]  # the newest first
    assert whys == [
        "that is not a card of a taught Encounter deck: tap the Encounter in instead",
        "this Encounter is marked 6+: with 5 players it goes back in the box",
    ]
    assert play.s.step == "encounter" and play.s.now.card is None
