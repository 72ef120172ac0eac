"""Monopoly Deal Wizarding World: a card laid where the camera saw it (its seat and zone)."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.games.deal_state import COLOUR, HOW, PLAY, TARGET
from support.deal import Play


def lay(play: Play, card: str, seat: int | None = None, zone: str | None = None, upright: bool | None = None) -> None:
    seen: dict[str, object] = {"card": card} if upright is None else {"card": card, "upright": upright}
    if seat is not None:
        seen["seat"] = seat
    if zone is not None:
        seen["zone"] = zone
    play.act("play", cards=[seen])  # as the box's reading desk sends it, for the host


def test_a_spell_in_the_bank_zone_is_banked_and_among_the_items_cast() -> None:
    """RULEBOOK: "Add to your Bank by placing Point or Spell cards in front of you" and
    "Play a Spell card by reading it aloud": the zone says which, so nothing is asked."""
    play = Play(2, deck="physical")
    lay(play, "Draw Two", 0, "bank")
    assert play.s.banks[0] == ["Draw Two"] and play.s.step == PLAY and play.s.plays == 1
    lay(play, "Collect 5 Points", 0, "items")
    assert play.s.step == TARGET and play.s.pending is not None and play.s.pending.card == "Collect 5 Points"
    assert "Ann casts Collect 5 Points." in play.said


def test_a_card_without_a_zone_is_laid_by_its_kind_and_a_spell_asked_about() -> None:
    play = Play(2, deck="physical")
    lay(play, "Red Item", 0)
    lay(play, "5 Points", 0)
    lay(play, "Draw Two", 0)
    assert [p.card for p in play.s.items[0]] == ["Red Item"] and play.s.banks[0] == ["5 Points"]
    assert play.s.step == HOW and play.offered("how") == ("cast it", "bank it")


@pytest.mark.parametrize(("upright", "colour"), [(True, "dark_blue"), (False, "green")])
def test_a_two_colour_wild_counts_as_the_colour_on_top(upright: bool, colour: str) -> None:
    """RULEBOOK: "Choose one color and flip it so the color you'd like it to represent is
    on top": the deck file lists first the colour at the top of the card as taught."""
    play = Play(2, deck="physical")
    lay(play, "Dark Blue/Green Wild", 0, "items", upright)
    assert [(p.card, p.colour) for p in play.s.items[0]] == [("Dark Blue/Green Wild", colour)]
    assert play.s.step == PLAY and play.s.plays == 1


def test_the_every_colour_wild_and_a_wild_lying_sideways_are_asked_about() -> None:
    play = Play(2, deck="physical")
    lay(play, "Every-Colour Wild", 0, "items", True)
    assert play.s.step == COLOUR
    play.answer("Red")
    lay(play, "Dark Blue/Green Wild", 0, "items")
    assert play.s.step == COLOUR and play.offered("colour") == ("Dark Blue", "Green")


@pytest.mark.parametrize(
    ("card", "seat", "zone", "why"),
    [
        ("5 Points", 1, "bank", "5 Points lies in Bob's area, and it is Ann's turn: lay it in your own area"),
        ("Red Item", 4, "items", "Red Item lies in an area where no player of this game sits"),
        ("Red Item", 0, "bank", "items never go in the Bank: lay Red Item among your items"),
        ("Red/Yellow Wild", 0, "bank", "items never go in the Bank: lay Red/Yellow Wild among your items"),
        ("5 Points", 0, "items", "Point cards go in the Bank: lay 5 Points in your Bank"),
        ("Protego", 0, "items", "Protego can do nothing now: lay it in your Bank"),
    ],
)
def test_a_place_the_rules_forbid_is_refused_and_changes_nothing(card: str, seat: int, zone: str, why: str) -> None:
    play = Play(2, deck="physical")
    before = (list(play.s.hands[0]), play.s.plays, [list(b) for b in play.s.banks], [list(i) for i in play.s.items])
    with pytest.raises(IllegalAction) as refused:
        lay(play, card, seat, zone)
    assert str(refused.value) == why
    assert before == (list(play.s.hands[0]), play.s.plays, play.s.banks, play.s.items)


@pytest.mark.parametrize("place", [{"seat": -1}, {"seat": "Bob"}, {"seat": True}, {"zone": "hand"}, {"upright": 1}])
def test_a_malformed_place_is_refused(place: dict[str, object]) -> None:
    play = Play(2, deck="physical")
    with pytest.raises(IllegalAction, match="a card's seat|bank or items|upright"):
        play.act("play", cards=[{"card": "5 Points", **place}])


def test_the_prompt_lists_every_card_the_box_places() -> None:
    """So the box answers it only with cards newly laid (device.readings)."""
    play = Play(2, deck="physical", characters=["Reader", "Helper"])
    play.bank(1, "5 Points")
    play.items(0, "Red Item")
    lay(play, "2 Points", 0, "bank")
    (prompt,) = [e for e in play.table.expects() if e.kind == "cards"]
    assert prompt.action == "play" and prompt.seat == 0
    assert prompt.laid is not None
    assert sorted(prompt.laid, key=str) == sorted(
        [
            ("2 Points", 0, "bank"),
            ("5 Points", 1, "bank"),
            ("Red Item", 0, "items"),
            ("Reader", 0, None),
            ("Helper", 1, None),
        ],
        key=str,
    )
