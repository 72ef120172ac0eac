"""Monopoly Deal Wizarding World kept by the camera: cards laid in two players' areas,
photographed after each play, become the right Banks and item sets.

There are no photos of this edition's cards, so the cards are stand-ins: real photos
of SET cards (tests/data/cards, Apache-2.0), taught to the box with its own deck
teaching (a 3 x 3 grid photo each, named as the deck file names the Deal cards, the
way an owner teaches their printed cards; :data:`AS_DEAL` is the test's mapping).  The
cards laid are cut from photos of the same cards taken on another day under another
light and laid on a real photo of the set's table (:mod:`support.card_table`); each
new photo is replayed after the one before through the replay camera (the table as it
was, a hand sweeping in as the photo changes, the new table held still with sensor
noise), the settle detector and the daemon's own card reading, and the reading desk
answers the game's own prompts.  What is asserted is the engine's state: the Banks and
sets the host page shows.

The layout is the one hardware.md describes: Ann's area along the near edge (the
frame's lower part), Ben's along the far edge, each a Bank zone and an items zone, the
draw and discard piles between them in nobody's area.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero import Device

from device.daemon import Daemon
from device.teach import teach_cards
from engine.actions import Action
from engine.games.deal_state import DealState
from support.card_table import Camera, Laid, box_with_areas
from support.cards import LABELS, photo

TAUGHT = ("green-1-20161231_114459.jpg", "red-2-20161231_114330.jpg")
"""The photos the deck is taught from (the set's ``enroll`` photos)."""
GREEN, RED = "green-1-20170101_124953.jpg", "red-2-20170101_124832.jpg"
"""Other photos of the same cards: the cards laid are cut from these."""
AS_DEAL = {
    "1-green-solid-oval": "1 Point",
    "1-green-solid-diamond": "2 Points",
    "1-green-solid-squiggle": "5 Points",
    "1-green-striped-oval": "Draw Two",
    "1-green-striped-diamond": "Collect 5 Points",
    "1-green-striped-squiggle": "Protego",
    "1-green-empty-oval": "Brown Item",
    "1-green-empty-diamond": "Dark Blue Item",
    "1-green-empty-squiggle": "Grey Item",
    "2-red-solid-oval": "3 Points",
    "2-red-solid-diamond": "4 Points",
    "2-red-solid-squiggle": "10 Points",
    "2-red-striped-oval": "Accio Light Blue/Brown",
    "2-red-striped-diamond": "Summon an Item",
    "2-red-striped-squiggle": "Take a Set",
    "2-red-empty-oval": "Green Item",
    "2-red-empty-diamond": "Red Item",
    "2-red-empty-squiggle": "Black Item",
}
"""Each SET card as the Deal card it stands in for (the names the host typed when teaching)."""
DEAL = {deal: (card, GREEN if card.startswith("1-") else RED) for card, deal in AS_DEAL.items()}
AREAS = """
[[vision.areas]]
bank = [0.0, 0.58, 0.4, 1.0]
items = [0.4, 0.58, 1.0, 1.0]

[[vision.areas]]
bank = [0.55, 0.0, 1.0, 0.42]
items = [0.0, 0.0, 0.55, 0.42]
"""
"""Ann (seat 0) along the near edge, her Bank on her left; Ben (seat 1) facing her."""


def card(name: str, x: float, y: float, turn: float) -> Laid:
    taught, image = DEAL[name]
    return Laid(taught, image, x, y, turn)


def ann(name: str, x: float, y: float) -> Laid:
    return card(name, x, y, 4.0)


def ben(name: str, x: float, y: float) -> Laid:
    return card(name, x, y, 176.0)  # facing Ben, across the table


@pytest.fixture
def box(tmp_path: Path):
    daemon = box_with_areas(tmp_path / "state", AREAS)
    config = daemon.config
    deck = config.state_path(config.vision.card_catalog) / "deal"
    for image in TAUGHT:
        teach_cards(photo(image), deck, 3, 3, [AS_DEAL[n] for n in LABELS[image][1]], commit=True)
    yield daemon
    daemon.close()
    Device.pin_factory = None


def state(box: Daemon) -> DealState:
    return box.service.table.current.state


def shown(box: Daemon) -> list[tuple[int, list[str], list[tuple[str, list[str], int]]]]:
    """Each player as the host page shows them: Bank total, Bank, sets (colour, items,
    complete sets)."""
    view = box.service.table.public_view()["view"]
    return [
        (p["bank_total"], sorted(bank), [(s["colour"], sorted(s["items"]), s["complete"]) for s in p["sets"]])
        for p, bank in zip(view["players"], view["banks"], strict=True)
    ]


def act(box: Daemon, kind: str, **data: object) -> None:
    box.service.submit(Action(kind, data))


@pytest.mark.slow
def test_cards_laid_in_two_areas_become_the_right_banks_and_sets(box: Daemon, tmp_path: Path) -> None:
    act(box, "table.new", game="deal", seats=["Ann", "Ben"], options={"deck": "physical"})
    act(box, "youngest", choice="Ann")
    act(box, "character", choice="Character 1")
    act(box, "character", choice="Character 2")
    camera = Camera(box, tmp_path / "frames")
    table: dict[str, Laid] = {}  # what lies on the table, by a name for each card

    def lays(key: str, laid: Laid) -> None:
        table[key] = laid
        camera.sees(list(table.values()))

    # Ann's turn: a Point card and a Spell in her Bank, an item among her items.
    lays("ann 3", ann("3 Points", 0.2, 0.69))
    assert shown(box) == [(3, ["3 Points"], []), (0, [], [])] and state(box).plays == 1
    lays("ann brown", ann("Brown Item", 0.55, 0.69))
    assert shown(box)[0] == (3, ["3 Points"], [("Brown", ["Brown Item"], 0)])
    lays("ann draw", ann("Draw Two", 0.2, 0.89))  # in her Bank zone: banked, not cast, nothing asked
    assert shown(box)[0] == (4, ["3 Points", "Draw Two"], [("Brown", ["Brown Item"], 0)])
    assert state(box).step == "play" and state(box).plays == 3
    act(box, "end")

    # Ben's turn: a Point card; an item laid on Ann's side by mistake is refused, then moved.
    lays("ben 2", ben("2 Points", 0.66, 0.13))
    assert shown(box)[1] == (2, ["2 Points"], [])
    lays("ben brown", ben("Brown Item", 0.75, 0.85))
    (refused,) = box.pending()
    assert "lies in Ann's area, and it is Ben's turn" in refused["why"], refused
    assert shown(box)[0][2] == [("Brown", ["Brown Item"], 0)] and state(box).plays == 1  # nothing changed
    box.resolve(refused["id"], None)  # the host drops the reading, and Ben moves his card
    lays("ben brown", ben("Brown Item", 0.14, 0.13))
    assert shown(box)[1] == (2, ["2 Points"], [("Brown", ["Brown Item"], 0)]) and box.pending() == []

    # A Spell laid among Ben's items is cast: Ann, short of the 5 points, pays everything,
    # her item into Ben's collection, which completes his Brown set.
    lays("ben collect", ben("Collect 5 Points", 0.34, 0.13))
    assert state(box).step == "target"
    act(box, "target", choice="Ann")
    act(box, "let")
    act(box, "pay", choice=next(e.options[0] for e in box.service.table.expects() if e.action == "pay"))
    assert shown(box) == [
        (0, [], []),
        (6, ["2 Points", "3 Points", "Draw Two"], [("Brown", ["Brown Item", "Brown Item"], 1)]),
    ]
    act(box, "end")

    # Ann's turn.  The table as the players left it: the paid cards moved to Ben's area,
    # the Spell on the discard pile in the middle.  None of that is a play.
    for key in ("ann 3", "ann draw", "ann brown", "ben collect"):
        del table[key]
    table["paid 3"] = ben("3 Points", 0.85, 0.13)
    table["paid draw"] = ben("Draw Two", 0.66, 0.32)
    table["paid brown"] = ben("Brown Item", 0.14, 0.32)
    table["discard"] = card("Collect 5 Points", 0.5, 0.5, 90.0)
    camera.sees(list(table.values()))
    assert state(box).plays == 0 and box.pending() == [] and shown(box)[0] == (0, [], [])
    lays("ann 5", ann("5 Points", 0.2, 0.69))
    assert shown(box) == [
        (5, ["5 Points"], []),
        (6, ["2 Points", "3 Points", "Draw Two"], [("Brown", ["Brown Item", "Brown Item"], 1)]),
    ]
    assert state(box).plays == 1
