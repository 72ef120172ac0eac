"""Cards read where they lie: each card's seat and zone from the configured areas, and
only the cards newly laid answer a prompt that lists what its game already places."""

from __future__ import annotations

import math
import tomllib

import numpy as np
import pytest

from device.areas import ZONE_COLOUR, Place, outlined, place
from device.config import ConfigError, config_from_dict
from device.readings import ReadingDesk
from engine.actions import Action
from engine.effects import Expect
from vision.cards import Card

FRAME = np.full((400, 200, 3), 60, np.uint8)
"""200 wide, 400 high: Ann's area the lower half, Bob's the upper."""
AREAS = config_from_dict(
    tomllib.loads(
        """
[[vision.areas]]
bank = [0.0, 0.55, 0.5, 1.0]
items = [0.5, 0.55, 1.0, 1.0]

[[vision.areas]]
area = [0.0, 0.0, 1.0, 0.45]
"""
    )
).vision.areas


def card(name: str | None, x: float, y: float, confidence: float = 0.95) -> Card:
    """A 40 x 60 px card centred at (x, y) in frame pixels."""
    return Card(name, ((x - 20, y - 30), (x + 20, y - 30), (x + 20, y + 30), (x - 20, y + 30)), confidence)


def no_data(name: str) -> dict:
    return {}


def prompt(*laid: tuple[str, int, str | None]) -> Expect:
    return Expect("cards", "play", "Ann: play a card", seat=0, laid=tuple(laid))


class Table:
    def __init__(self) -> None:
        self.actions: list[Action] = []

    def submit(self, action: Action) -> None:
        self.actions.append(action)

    def played(self) -> list[list[dict]]:
        return [a.data["cards"] for a in self.actions]


def test_a_card_belongs_to_the_zone_its_centre_lies_in() -> None:
    corners = card("x", 50, 300).corners
    assert place(corners, 200, 400, AREAS) == Place(0, "bank", True)
    assert place(card("x", 150, 390).corners, 200, 400, AREAS) == Place(0, "items", True)
    assert place(card("x", 100, 20).corners, 200, 400, AREAS) == Place(1, None, False)  # undivided, and Bob faces Ann
    assert place(card("x", 100, 200).corners, 200, 400, AREAS) is None  # the piles in the middle
    assert place(corners, 200, 400, ()) is None


def test_the_camera_picture_outlines_each_zone_for_lining_up_the_table() -> None:
    image = outlined(FRAME, AREAS)
    assert tuple(image[220, 100]) == ZONE_COLOUR  # the top edge of Ann's Bank and items, at 0.55
    assert tuple(image[200, 100]) == tuple(FRAME[200, 100])  # the middle of the table: untouched
    assert tuple(FRAME[220, 100]) != ZONE_COLOUR


def turned(laid: Card, degrees: float) -> tuple[tuple[float, float], ...]:
    """The card's corners turned about its centre (image coordinates: y down)."""
    cx = sum(x for x, _ in laid.corners) / 4
    cy = sum(y for _, y in laid.corners) / 4
    a = math.radians(degrees)
    return tuple(
        (cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a), cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a))
        for x, y in laid.corners
    )


@pytest.mark.parametrize(
    ("degrees", "ann", "bob"), [(0, True, False), (30, True, False), (180, False, True), (90, None, None)]
)
def test_which_way_up_a_card_lies_for_its_owner(degrees: float, ann: bool | None, bob: bool | None) -> None:
    """Ann sits at the lower edge, Bob at the upper: a card the right way up for Ann is
    upside down for Bob; a card lying sideways says nothing."""
    at_ann = place(turned(card("x", 150, 300), degrees), 200, 400, AREAS)
    at_bob = place(turned(card("x", 100, 60), degrees), 200, 400, AREAS)
    assert at_ann is not None and at_bob is not None
    assert (at_ann.upright, at_bob.upright) == (ann, bob)


def test_each_card_is_sent_with_its_seat_and_zone() -> None:
    table = Table()
    desk = ReadingDesk(table.submit, 0.0, AREAS)
    desk.cards(FRAME, [card("5 Points", 50, 300)], lambda name: {"value": 5}, prompt())
    assert table.played() == [[{"card": "5 Points", "value": 5, "seat": 0, "zone": "bank", "upright": True}]]


def test_a_still_table_is_not_a_play_and_only_the_card_laid_is() -> None:
    table = Table()
    desk = ReadingDesk(table.submit, 0.0, AREAS)
    first = [card("5 Points", 50, 300)]
    desk.cards(FRAME, first, no_data, prompt())
    assert desk.cards(FRAME, [card("5 Points", 52, 301)], no_data, prompt()) == "nothing newly laid"
    # the game has banked it; a second copy laid beside it is new, the first is not
    both = [card("5 Points", 52, 301), card("5 Points", 52, 360)]
    desk.cards(FRAME, both, no_data, prompt(("5 Points", 0, "bank")))
    assert [[c["card"] for c in cards] for cards in table.played()] == [["5 Points"], ["5 Points"]]
    assert table.played()[1][0]["seat"] == 0


def test_cards_the_game_moved_or_outside_every_area_are_not_plays() -> None:
    """A payment moves Ann's card into Bob's area; the discard pile lies in the middle."""
    table = Table()
    desk = ReadingDesk(table.submit, 0.0, AREAS)
    desk.cards(FRAME, [card("3 Points", 50, 300)], no_data, prompt(("3 Points", 0, "bank")))
    moved = [card("3 Points", 60, 100), card("Draw Two", 100, 200)]
    assert desk.cards(FRAME, moved, no_data, prompt(("3 Points", 1, "bank"))) == "nothing newly laid"
    assert table.actions == []


def test_an_unknown_card_newly_laid_waits_for_the_host_and_once_only() -> None:
    table = Table()
    desk = ReadingDesk(table.submit, 0.0, AREAS)
    desk.cards(FRAME, [card(None, 150, 300, 0.3)], no_data, prompt())
    assert desk.cards(FRAME, [card(None, 150, 300, 0.3)], no_data, prompt()) == "nothing newly laid"
    (pending,) = desk.pending()
    assert pending["values"] == [{"card": None, "seat": 0, "zone": "items", "upright": True}] and table.actions == []


def test_without_areas_every_new_card_is_sent_without_a_place() -> None:
    table = Table()
    desk = ReadingDesk(table.submit, 0.0)
    desk.cards(FRAME, [card("5 Points", 100, 200)], no_data, prompt(("Red Item", 0, "items")))
    assert table.played() == [[{"card": "5 Points"}]]


def test_a_prompt_for_revealed_cards_still_takes_every_card_seen() -> None:
    table = Table()
    desk = ReadingDesk(table.submit, 0.0, AREAS)
    reveal = Expect("cards", "reveal", "reveal the cards")
    for _ in range(2):
        desk.cards(FRAME, [card("Galleon", 100, 200)], no_data, reveal)
    assert table.played() == [[{"card": "Galleon"}], [{"card": "Galleon"}]]


def test_cards_revealed_in_a_players_area_are_sent_without_a_place() -> None:
    """A prompt without ``laid`` never asks where a card lies: an Encounter card laid in
    front of Ann, in her area, is sent as its deck knows it, seat and zone left out."""
    table = Table()
    desk = ReadingDesk(table.submit, 0.0, AREAS)
    shown = Expect("cards", "encounter", "Ann: show the Encounter card to the camera", seat=0, count=1)
    desk.cards(FRAME, [card("Dementors", 50, 300)], lambda name: {"group": 3, "check": "host"}, shown)
    assert table.played() == [[{"card": "Dementors", "group": 3, "check": "host"}]]


@pytest.mark.parametrize(
    ("areas", "message"),
    [
        ("areas = 3", "vision.areas: expected a list of tables"),
        ("areas = [{ bank = [0, 0, 1] }]", "vision.areas[0].bank: expected [left, top, right, bottom]"),
        ("areas = [{ bank = [0.5, 0, 0.2, 1] }]", "vision.areas[0].bank: needs 0 <= left < right <= 1"),
        ("areas = [{ Bank = [0, 0, 1, 1] }]", "vision.areas[0].Bank: a zone name is lower-case"),
        (
            "areas = [{ bank = [0, 0, 0.6, 1] }, { items = [0.5, 0, 1, 1] }]",
            "vision.areas[1].items: overlaps vision.areas[0].bank",
        ),
        ("areas = [{ area = [0, 0, 0.5, 1], bank = [0.5, 0, 1, 1] }]", "vision.areas[0]: 'area' is a whole area"),
    ],
)
def test_bad_areas_name_the_key_and_the_fault(areas: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_dict(tomllib.loads(f"[vision]\n{areas}\n"))
    assert str(caught.value).startswith(message), caught.value


REVEAL_AREAS = config_from_dict(tomllib.loads("[[vision.areas]]\nreveal = [0.25, 0.35, 0.75, 0.65]\n")).vision.areas
"""Secret Voldemort's board: one zone in the middle where the Headmaster lays the policy."""


def reveal_prompt() -> Expect:
    return Expect("cards", "policy", "Reveal the policy", count=1, zone="reveal")


def test_a_prompt_with_a_zone_is_answered_only_by_the_cards_lying_in_it() -> None:
    """The policies already on the board's tracks are in view too: only the card in the
    reveal zone answers, and a frame with none there answers nothing (nothing parked)."""
    table = Table()
    desk = ReadingDesk(table.submit, 0.0, REVEAL_AREAS)
    on_tracks = [card("Order Policy", 30, 40), card("Dark Arts Policy", 170, 360)]
    assert desk.cards(FRAME, on_tracks, no_data, reveal_prompt()) == "no cards in the reveal zone"
    assert table.actions == [] and desk.pending() == []
    desk.cards(FRAME, [*on_tracks, card("Dark Arts Policy", 100, 200)], no_data, reveal_prompt())
    assert table.played() == [[{"card": "Dark Arts Policy", "seat": 0, "zone": "reveal"}]]


def test_without_areas_a_prompt_with_a_zone_takes_every_card_seen() -> None:
    table = Table()
    ReadingDesk(table.submit, 0.0, ()).cards(FRAME, [card("Order Policy", 30, 40)], no_data, reveal_prompt())
    assert table.played() == [[{"card": "Order Policy"}]]
