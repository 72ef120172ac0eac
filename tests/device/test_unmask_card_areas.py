"""Unmask the Death Eaters read by the camera on a box with card areas (as set up for
Monopoly Deal on the same box): the Encounter card laid in front of the Leader, then the
revealed pool, go to the game without the host.

The stand-in cards are real photos of SET cards (tests/data/cards, Apache-2.0), taught
as two decks the way an owner teaches theirs: the green cards as the Encounter deck,
each with the data the Encounter prompt reads (group size, directive, target), the red
ones as Wizarding World cards with their dice values.  The photos are laid on a real
table photo and replayed through the daemon's own camera loop and card reading
(:mod:`support.card_table`, as in the Deal camera test).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero import Device

from device.daemon import Daemon
from engine.actions import Action
from engine.games.unmask_rules import LOCATIONS
from engine.games.unmask_state import UnmaskState
from support.card_table import Camera, Laid, box_with_areas
from support.cards import LABELS, photo
from vision.cards import Catalog

ENCOUNTERS, WIZARDING = "green-1-20161231_114459.jpg", "red-2-20161231_114330.jpg"
"""The photos each deck is taught from (the set's ``enroll`` photos)."""
GREEN, RED = "green-1-20170101_124953.jpg", "red-2-20170101_124832.jpg"
"""Other photos of the same cards: the cards laid are cut from these."""
ENCOUNTER_CARD = "1-green-solid-oval"
POOL = {"2-red-solid-oval": 2, "2-red-striped-diamond": 3}
"""The two cards the group hands in, and the dice each shows."""
AREAS = """
[[vision.areas]]
bank = [0.0, 0.58, 0.4, 1.0]
items = [0.4, 0.58, 1.0, 1.0]

[[vision.areas]]
area = [0.0, 0.0, 1.0, 0.42]
"""
"""Ann (seat 0) along the near edge, with the Bank and items zones of Monopoly Deal; Ben facing her."""


def teach(deck: Path, image: str, data: dict[str, dict]) -> None:
    """A taught deck: the 3 x 3 grid photo, each card named as the set names it, with its data."""
    names = LABELS[image][1]
    Catalog(deck).enroll_grid(photo(image), 3, 3, names, [data.get(n, {}) for n in names])


@pytest.fixture
def box(tmp_path: Path):
    daemon = box_with_areas(tmp_path / "state", AREAS)
    config = daemon.config
    decks = config.state_path(config.vision.card_catalog)
    encounter = {"group": 2, "check": "cards_total", "target": 4}
    teach(decks / "encounters", ENCOUNTERS, {n: encounter for n in LABELS[ENCOUNTERS][1]})
    teach(decks / "wizarding", WIZARDING, {n: {"dice": POOL.get(n, 1)} for n in LABELS[WIZARDING][1]})
    yield daemon
    daemon.close()
    Device.pin_factory = None


def state(box: Daemon) -> UnmaskState:
    return box.service.table.current.state


def act(box: Daemon, kind: str, **data: object) -> None:
    box.service.submit(Action(kind, data))


@pytest.mark.slow
def test_an_encounter_card_and_a_pool_in_the_leaders_area_are_read_without_the_host(
    box: Daemon, tmp_path: Path
) -> None:
    act(box, "table.new", game="unmask", seats=["Ann", "Ben", "Cat", "Dan"], options={})
    for seat in range(4):
        act(box, "role", seat=seat, choice=LOCATIONS[seat])
    for seat in range(4):
        act(box, "roll", dice=[6, 6] if seat == 0 else [1, 2])
    assert state(box).step == "encounter" and state(box).leader == 0
    camera = Camera(box, tmp_path / "frames")

    # The Encounter card, face up in front of Ann: in her Bank zone.
    camera.sees([Laid(ENCOUNTER_CARD, GREEN, 0.2, 0.75, 3.0)])
    assert box.pending() == []
    card = state(box).card()
    assert (card.name, card.group, card.check, card.target) == (ENCOUNTER_CARD, 2, "cards_total", 4)
    assert state(box).step == "group"

    act(box, "group", choices=[0, 1])
    act(box, "look", choice="no Curse")
    act(box, "swap", choice="no swap")
    # The pool revealed in Ann's area, the Encounter card still face up beside it.
    encounter = Laid(ENCOUNTER_CARD, GREEN, 0.2, 0.75, 3.0)
    camera.sees([encounter, *(Laid(name, RED, x, 0.75, 2.0) for name, x in zip(POOL, (0.5, 0.8), strict=True))])
    assert box.pending() == []
    assert state(box).now.pool.card_dice == 5 and state(box).step == "token"
