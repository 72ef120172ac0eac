"""The demo's simulated players answer their own seats' prompts and leave phones' seats alone."""

from __future__ import annotations

import random

from device.demo_players import SimulatedPlayers
from engine.actions import Action, IllegalAction
from support.unmask import page_action


def test_simulated_players_and_the_host_finish_an_unmask_game(service):
    service.submit(Action("table.new", {"game": "unmask", "seats": ["Ann", "Bob", "Cy", "Dee", "Eve"]}))
    phone = service.claim_seat(1, service.join_code())
    players = SimulatedPlayers(service, pause=3600)  # never wakes by itself: the test drives it
    played_as, rng = [], random.Random(4)
    service.add_listener(lambda effects: None)
    for _ in range(3000):
        if service.table.game.is_over(service.table.current.state):
            break
        before = len(service.store.entries())
        if players.play_one():
            played_as.append(service.store.entries()[-1].action.seat)
            continue
        for expect in service.table.expects():  # the host (and Bob's phone) do the rest
            if expect.seat not in (None, 1) and expect.kind not in ("dice", "cards"):
                continue
            try:
                service.submit(page_action(expect, rng))
                break
            except IllegalAction:
                continue
        assert len(service.store.entries()) > before, "nobody could answer the table's prompts"
    players.close()
    assert service.table.game.is_over(service.table.current.state)
    assert played_as and 1 not in played_as and None not in played_as
    assert service.seat_of(phone) == 1
