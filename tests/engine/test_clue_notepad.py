"""Harry Potter Clue notepads: each phone's own ticks, and the optional helper."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import IllegalAction
from support.clue import Play, rig_hands

ENVELOPE = ["Snatchers", "Jinxed Broomstick", "Malfoy Manor"]
HANDS = [["Fenrir Greyback", "Cursed Necklace"], ["Peter Pettigrew", "Love Potion"], ["Gringotts", "Forbidden Forest"]]


def table() -> Play:
    play = Play(3)
    rig_hands(play.s, HANDS, ENVELOPE)
    play.choose_all(first=0)
    return play


def line(play: Play, seat: int, card: str) -> dict[str, Any]:
    pad = play.seen_by(seat)["notepad"]
    return next(entry for entry in pad if entry["card"] == card)


def test_the_notepad_ticks_own_burrow_and_shown_cards() -> None:
    """ "Look at the cards in your hand and faceup in The Burrow and tick them off on your
    notepad."; "Check this card off on your notepad – this proves the card is not in the
    envelope." """
    play = table()
    assert line(play, 0, "Fenrir Greyback") == {
        "card": "Fenrir Greyback",
        "kind": "suspect",
        "ticked": True,
        "why": "your card",
    }
    assert line(play, 0, "Lucius Malfoy")["why"] == "in The Burrow"
    assert not line(play, 0, "Peter Pettigrew")["ticked"]
    play.walk_to("Gringotts")
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    play.act("show", by=1, choice="Peter Pettigrew")
    assert line(play, 0, "Peter Pettigrew") == {
        "card": "Peter Pettigrew",
        "kind": "suspect",
        "ticked": True,
        "why": "held by Bob",
    }
    assert not line(play, 2, "Peter Pettigrew")["ticked"], "Cat saw only that Bob showed a card"


def deduced() -> Play:
    """Ann's suggestion nobody can answer; then Cat shows Bob a card for Fenrir Greyback
    (Ann's own), the Jinxed Broomstick (Cat passed on it) and Gringotts."""
    play = table()
    play.walk_to("Malfoy Manor")
    play.suggest("Snatchers", "Jinxed Broomstick")
    play.walk_to("Gringotts")
    play.suggest("Fenrir Greyback", "Jinxed Broomstick")
    play.act("show", by=2, choice="Gringotts")
    return play


def test_the_helper_is_off_unless_the_player_turns_it_on() -> None:
    """Off by default, each player's own choice on their own phone."""
    play = deduced()
    assert line(play, 0, "Gringotts")["ticked"] is False and line(play, 0, "Snatchers")["why"] == ""
    with pytest.raises(IllegalAction):
        play.act("notepad", choice="turn the notepad helper on", seat=0)
    play.act("notepad", by=0, choice="turn the notepad helper on")
    assert play.seen_by(0)["helper"] and not play.seen_by(1)["helper"]
    assert "helper" not in str(play.table.public_view()["view"]).lower().replace("notepad helper", "")


def test_the_helper_deduces_from_passes_and_the_public_record() -> None:
    play = deduced()
    play.act("notepad", by=0, choice="turn the notepad helper on")
    assert line(play, 0, "Gringotts") == {"card": "Gringotts", "kind": "location", "ticked": True, "why": "held by Cat"}
    for card in ENVELOPE:
        assert line(play, 0, card)["why"] == "in the envelope"
    play.act("notepad", by=0, choice="turn the notepad helper off")
    assert not line(play, 0, "Gringotts")["ticked"]


def test_the_helper_knows_no_more_than_its_player() -> None:
    """Bob, who never passed on the envelope's cards himself, is told only what follows
    from his own hand, the card he was shown and the record."""
    play = deduced()
    play.act("notepad", by=1, choice="turn the notepad helper on")
    assert line(play, 1, "Gringotts")["why"] == "held by Cat"
    assert line(play, 1, "Fenrir Greyback")["ticked"] is False
