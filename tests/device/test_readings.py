"""The reading desk: confident readings become actions, the rest wait for the host."""

from __future__ import annotations

import numpy as np
import pytest

from device.readings import ReadingDesk
from engine.actions import Action, IllegalAction
from engine.effects import Expect
from vision.dice import DiceReading, Die

FRAME = np.full((120, 160, 3), 90, np.uint8)
ROLL = Expect("dice", "roll", "Roll 2 dice", count=2)


def die(value, x, y, confidence=0.99) -> Die:
    return Die(
        value=value,
        x=x,
        y=y,
        corners=((x - 5, y - 5), (x + 5, y - 5), (x + 5, y + 5), (x - 5, y + 5)),
        confidence=confidence,
    )


class Table:
    def __init__(self, refuse: str | None = None) -> None:
        self.actions: list[Action] = []
        self.refuse = refuse

    def submit(self, action: Action) -> None:
        if self.refuse:
            raise IllegalAction(self.refuse)
        self.actions.append(action)


def test_a_confident_roll_is_submitted_as_the_expected_action():
    table = Table()
    desk = ReadingDesk(table.submit, 0.9)
    desk.dice(FRAME, DiceReading((die(3, 20, 20), die(5, 60, 40))), ROLL)
    assert table.actions == [Action("roll", {"dice": [3, 5]})] and desk.pending() == []


def test_unsure_dice_go_to_the_host_with_a_marked_photo_and_can_be_corrected():
    table = Table()
    desk = ReadingDesk(table.submit, 0.9)
    desk.dice(FRAME, DiceReading((die(3, 20, 20), die(None, 60, 40, 0.4))), ROLL)
    [pending] = desk.pending()
    assert pending["unsure"] == [1] and table.actions == []
    assert desk.photo(pending["id"]).startswith(b"\xff\xd8")
    desk.resolve(pending["id"], [3, 6])
    assert table.actions == [Action("roll", {"dice": [3, 6]})] and desk.pending() == []
    with pytest.raises(KeyError):
        desk.resolve(pending["id"], [1, 1])


def test_a_roll_the_rules_refuse_waits_with_the_reason():
    desk = ReadingDesk(Table("expected 2 dice, got 3").submit, 0.9)
    desk.dice(FRAME, DiceReading((die(1, 10, 10), die(2, 40, 10), die(3, 80, 10))), ROLL)
    assert desk.pending()[0]["why"] == "expected 2 dice, got 3"


def test_the_same_dice_in_the_same_places_are_not_a_new_roll_but_a_reroll_is():
    table = Table()
    desk = ReadingDesk(table.submit, 0.9)
    desk.dice(FRAME, DiceReading((die(3, 20, 20), die(5, 60, 40))), ROLL)
    assert desk.dice(FRAME, DiceReading((die(5, 61, 41), die(3, 19, 20))), ROLL).startswith("same dice")
    desk.dice(FRAME, DiceReading((die(3, 20, 20), die(5, 90, 70))), ROLL)  # one die re-rolled to the same face
    assert len(table.actions) == 2


def test_known_cards_are_sent_with_their_deck_data_unknown_ones_wait():
    from vision.cards import Card

    corners = ((0, 0), (10, 0), (10, 14), (0, 14))
    table = Table()
    desk = ReadingDesk(table.submit, 0.9)
    deck = {"Galleon": {"dice": 2}, "Crucio": {"dice": 0, "curse": True}}
    reveal = Expect("cards", "reveal", "Reveal the cards")
    desk.cards(FRAME, [Card("Galleon", corners, 0.97), Card("Crucio", corners, 0.95)], deck.__getitem__, reveal)
    assert table.actions == [
        Action("reveal", {"cards": [{"card": "Galleon", "dice": 2}, {"card": "Crucio", "dice": 0, "curse": True}]})
    ]
    desk.cards(FRAME, [Card("Galleon", corners, 0.97), Card(None, corners, 0.3)], deck.__getitem__, reveal)
    assert desk.pending()[0]["unsure"] == [1] and len(table.actions) == 1


def test_only_readings_that_can_still_answer_are_kept_newest_first():
    """Tapping "Right" on a roll the table no longer waits for would only be refused: such
    readings go when the table moves on, and the host sees the newest first."""
    desk = ReadingDesk(Table().submit, 0.9)
    for x in (20, 40, 60):
        desk.dice(FRAME, DiceReading((die(3, x, 20), die(None, x + 30, 40, 0.4))), ROLL)
    cards = Expect("cards", "reveal", "Reveal the pool")
    desk.cards(
        FRAME,
        [type("Card", (), {"name": None, "confidence": 0.3, "corners": ((1, 1), (9, 1), (9, 9), (1, 9))})()],
        dict,
        cards,
    )
    listed = desk.pending()
    assert [p["action"] for p in listed] == ["reveal", "roll", "roll", "roll"]
    assert desk.keep_only({"roll"}) == 1 and [p["action"] for p in desk.pending()] == ["roll"] * 3
    assert desk.keep_only(set()) == 3 and desk.pending() == []


def test_a_roll_when_nothing_is_expected_is_not_parked():
    desk = ReadingDesk(Table().submit, 0.9)
    desk.dice(FRAME, DiceReading((die(3, 20, 20), die(None, 60, 40, 0.4))), None)
    assert desk.pending() == []
