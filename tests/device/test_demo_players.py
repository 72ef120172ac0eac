"""The demo's simulated players answer their own seats' prompts and leave phones' seats alone."""

from __future__ import annotations

import itertools
import json
import random
import urllib.request

import pytest

from device.cli import demo_options
from device.demo_players import SimulatedPlayers
from engine.actions import Action, IllegalAction
from support.daemon import free_port, start_demo
from support.unmask import page_action
from support.waiting import wait_for


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


def play_with_host(service, players: SimulatedPlayers, rng: random.Random, steps: int, host_seats=()) -> None:
    """The simulated players answer what they can; the host answers the rest (the rolls,
    and the prompts of ``host_seats``, for the table, never as the seat's phone)."""
    for _ in range(steps):
        if service.table.game.is_over(service.table.current.state):
            return
        if players.play_one():
            continue
        for expect in service.table.expects():
            if expect.seat not in (None, *host_seats) and expect.kind not in ("dice", "cards"):
                continue
            action = page_action(expect, rng)
            data = {**action.data, **({"seat": expect.seat} if expect.seat is not None else {})}
            try:
                service.submit(Action(expect.action, data))
                break
            except IllegalAction:
                continue
        else:
            raise AssertionError("nobody could answer the table's prompts")


def test_a_simulated_leaders_pool_follows_the_decks_mix(service):
    """Not a Curse every turn: the made-up pools hold Curses about as often as the deck
    does, and the pool's questions come one at a time, each answered by the Leader."""
    service.submit(Action("table.new", {"game": "unmask", "seats": ["Ann", "Bob", "Cy", "Dee", "Eve"]}))
    players = SimulatedPlayers(service, pause=3600, seed=1)
    play_with_host(service, players, random.Random(2), 3000)
    players.close()
    looks = [e.action for e in service.store.entries() if e.action.kind == "look"]
    assert looks and all(a.seat is not None for a in looks)
    first_looks, found = 0, 0
    entries = service.store.entries()
    for before, entry in itertools.pairwise(entries):
        if entry.action.kind == "look" and before.action.kind not in ("curse", "look"):
            first_looks += 1
            found += entry.action.data["choice"] == "a Curse"
    assert first_looks >= 8
    assert 0.1 <= found / first_looks <= 0.7, (found, first_looks)
    reveals = [e.action.data["cards"] for e in entries if e.action.kind == "reveal"]
    dice = [int(c) for cards in reveals for c in cards if c != "curse"]
    assert dice and 0.8 <= sum(dice) / len(dice) <= 2.2


def test_a_seat_a_phone_claimed_is_never_played_even_after_the_host_reset_it(service):
    service.submit(Action("table.new", {"game": "unmask", "seats": ["Ann", "Bob", "Cy", "Dee", "Eve"]}))
    players = SimulatedPlayers(service, pause=3600, seed=3)
    service.claim_seat(2, service.join_code())
    service.reset_seat(2)  # a lost phone: Cy joins again later
    assert 2 not in service.store.claimed(service.game_seq)
    play_with_host(service, players, random.Random(5), 400, host_seats=(2,))
    players.close()
    by_seat = {e.action.seat for e in service.store.entries()}
    assert 2 not in by_seat and {0, 1, 3, 4} & by_seat
    answered_for_cy = [e for e in service.store.entries() if e.action.data.get("seat") == 2]
    assert answered_for_cy  # the host answered Cy's prompts meanwhile


def test_simulated_players_start_by_themselves_on_a_table_already_dealt(service):
    """The demo deals its opening game, then seats the simulated players: they answer the
    prompts already waiting, with no change from the host to wake them (issue 50)."""
    seats = ["Harry", "Hermione", "Ron", "Ginny", "Neville"]
    service.submit(Action("table.new", {"game": "unmask", "seats": seats, "options": demo_options("unmask")}))
    assert any(e.seat is not None for e in service.table.expects())
    players = SimulatedPlayers(service, pause=0.01, seed=5)
    try:
        wait_for(lambda: any(e.action.seat is not None for e in service.store.entries()), timeout=10)
    finally:
        players.close()


@pytest.mark.slow
def test_familiar_demo_with_bots_plays_without_the_host(tmp_path):
    """``familiar demo --game unmask``: every seat is asked for its Role card at once, and
    the simulated players answer with nobody at the host page (issue 50)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/api/table"
    proc = start_demo(tmp_path, port, "device.cli", "--game", "unmask", bots=True)
    try:
        wait_for(lambda: _seats_asked(url) is not None, timeout=60)
        wait_for(lambda: len(_seats_asked(url) or range(5)) < 5, timeout=60)  # a seat answered
    finally:
        proc.kill()
        proc.wait(10)


def _seats_asked(url: str) -> list[int] | None:
    """The seats the public table waits for, or None while the demo is not up."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            table = json.load(answer)
    except OSError:
        return None
    return [e["seat"] for e in table["expects"] if e["seat"] is not None] if table.get("game") else None
