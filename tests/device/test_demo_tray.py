"""The demo's camera rolls on demand: its tray fills no roll until someone rolls (the
board page's button, or a simulated player whose roll it is), then shows a real photo
with as many dice as the table asked for."""

from __future__ import annotations

import time

from gpiozero import Device

from device.demo_players import SimulatedPlayers
from engine.actions import Action
from support.daemon import make_daemon
from support.waiting import wait_for


def test_the_demo_tray_fills_no_roll_until_the_board_page_rolls(tmp_path) -> None:
    box = make_daemon(tmp_path, fps=30)
    box.start()
    try:
        box.service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
        assert wait_for(lambda: box._latest_frame is not None)
        time.sleep(5)  # the tray has been still, and looked at, all this time
        assert box.service.public_view()["view"]["history"] == []
        box.press("roll")
        assert wait_for(lambda: box.service.public_view()["view"]["history"], timeout=30)
        assert 1 <= len(box.service.public_view()["view"]["history"][0]) <= 6
    finally:
        box.close()
        Device.pin_factory = None


def test_simulated_players_roll_for_first_leader_when_asked_and_only_then(tmp_path) -> None:
    box = make_daemon(tmp_path, fps=30)
    box.start()
    players = SimulatedPlayers(box.service, pause=0.2, seed=1, roll=box.throw_dice)
    try:
        box.service.submit(Action("table.new", {"game": "unmask", "seats": ["Ann", "Bob", "Cy", "Dee"]}))
        assert wait_for(lambda: box.service.table.current.state.step != "first_roll", timeout=120)
        rolls = [e.action for e in box.service.store.entries() if e.action.kind == "roll"]
        assert len(rolls) >= 4 and all(len(r.data["dice"]) == 2 for r in rolls)
        assert all(r.seat is None for r in rolls)  # read by the camera, not typed by anyone
        roles = [e.seq for e in box.service.store.entries() if e.action.kind == "role"]
        first_roll = min(e.seq for e in box.service.store.entries() if e.action.kind == "roll")
        assert len(roles) == 4 and min(roles) < first_roll  # each rolled once their Role was taken
        assert box.desk.pending() == []  # every roll read sure: nothing for the host to confirm
    finally:
        players.close()
        box.close()
        Device.pin_factory = None
