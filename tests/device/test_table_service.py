"""The durable table: accepted actions survive restarts and kill -9; seats and host tokens."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from device import table_service as table_service_module
from device.store import SeatTaken, Store, token_hash
from device.table_service import (
    PAIRING_TRIES,
    SEAT_JOINS_PER_MINUTE,
    AwaitsHost,
    TableService,
    WrongPairingCode,
)
from engine.actions import Action, IllegalAction
from engine.effects import Say
from support import ROOT


def start(service: TableService, seats=("Ann", "Bob", "Cy")) -> None:
    service.submit(Action("table.new", {"game": "dice", "seats": list(seats)}))


def test_effects_run_only_after_the_action_is_in_the_log(service, store):
    seen = []
    service.add_listener(lambda effects: seen.append((len(store.entries()), effects)))
    start(service)
    service.submit(Action("roll", {"dice": [2, 2]}))
    assert seen[-1] == (2, [Say("2, 2: 4")])


def test_refused_action_writes_nothing_and_tells_no_one(service, store):
    start(service)
    heard = []
    service.add_listener(heard.append)
    version = service.version
    with pytest.raises(IllegalAction):
        service.submit(Action("roll", {"dice": [0]}))
    assert len(store.entries()) == 1 and service.version == version and heard == []


def test_restart_resumes_from_the_log(tmp_path):
    first = TableService(Store(tmp_path / "db"))
    start(first)
    first.submit(Action("roll", {"dice": [6, 1]}))
    token = first.claim_seat(1, first.join_code())
    first.store.close()
    again = TableService(Store(tmp_path / "db"))
    assert again.public_view()["view"]["last"] == [1, 6]  # listed as said
    assert again.seat_of(token) == 1


def test_undo_is_durable_and_replayed(tmp_path):
    first = TableService(Store(tmp_path / "db"))
    start(first)
    first.submit(Action("roll", {"dice": [3]}))
    first.submit(Action("roll", {"dice": [4]}))
    first.undo()
    assert first.public_view()["view"]["history"] == [[3]]
    again = TableService(Store(tmp_path / "db"))
    assert again.public_view()["view"]["history"] == [[3]]


def test_nothing_to_undo(service):
    with pytest.raises(IllegalAction, match="nothing to undo"):
        service.undo()


def test_seats_tokens_are_random_hashed_and_exclusive(service, store):
    start(service)
    token = service.claim_seat(0, service.join_code())
    assert len(token) >= 43  # 256 bits, url-safe base64
    with pytest.raises(SeatTaken):
        service.claim_seat(0, service.join_code())
    with pytest.raises(IllegalAction):
        service.claim_seat(7, service.join_code())
    raw = store.db.execute("SELECT token FROM claims").fetchall()
    assert raw == [(token_hash(token),)]
    assert token not in Path(store.path).read_bytes().decode("latin-1")
    assert service.seat_of(token) == 0 and service.seat_of(token + "x") is None and service.seat_of("") is None


def test_reset_seat_kills_the_old_token_and_says_so(service):
    start(service)
    token = service.claim_seat(2, service.join_code())
    heard = []
    service.add_listener(heard.extend)
    service.reset_seat(2)
    assert service.seat_of(token) is None
    assert any("Cy's seat was reset" in e.text for e in heard if isinstance(e, Say))
    with pytest.raises(AwaitsHost) as waiting:  # its secrets were dealt: the host approves the next phone
        service.claim_seat(2, service.join_code())
    assert waiting.value.token != token and service.seat_of(waiting.value.token) is None
    (request,) = service.seat_requests()
    assert request["name"] == "Cy" and request["number"] == waiting.value.number
    service.answer_seat_request(request["id"], approve=True)
    assert service.seat_of(waiting.value.token) == 2


def test_a_reset_seat_goes_only_to_the_phone_the_host_approves(service):
    start(service)
    service.claim_seat(0, service.join_code())
    service.reset_seat(0)
    asked = []
    for _ in range(3):
        with pytest.raises(AwaitsHost) as waiting:
            service.claim_seat(0, service.join_code())
        asked.append(waiting.value)
    requests = {r["number"]: r["id"] for r in service.seat_requests()}
    assert all(service.seat_of(a.token) is None for a in asked)  # nobody sees the seat while waiting
    service.answer_seat_request(requests[asked[0].number], approve=False)
    assert service.seat_of(asked[0].token) is None
    service.answer_seat_request(requests[asked[1].number], approve=True)
    assert [service.seat_of(a.token) for a in asked] == [None, 0, None]
    assert service.seat_requests() == []  # the other phone's request went with the approval
    with pytest.raises(IllegalAction):
        service.answer_seat_request(requests[asked[2].number], approve=True)
    notices = service.public_view()["notices"]
    assert "A phone took Ann's seat." in notices  # every claim is announced
    assert any("asks for Ann's seat" in n for n in notices)
    assert any("gave Ann's seat to the phone showing" in n for n in notices)


def test_joining_is_limited_per_seat_whoever_tries(service):
    start(service)
    service.claim_seat(0, service.join_code())
    service.reset_seat(0)
    for _ in range(SEAT_JOINS_PER_MINUTE - 1):
        with pytest.raises(AwaitsHost):
            service.claim_seat(0, service.join_code())
    with pytest.raises(PermissionError, match="too many tries to take Ann's seat"):
        service.claim_seat(0, service.join_code())
    assert service.claim_seat(1, service.join_code())  # another seat has its own limit


def test_new_game_needs_new_claims(service):
    start(service)
    token = service.claim_seat(0, service.join_code())
    start(service, ("Dee", "Eve"))
    assert service.seat_of(token) is None
    assert service.public_view()["claimed"] == [False, False]


def test_host_is_first_come_then_only_by_the_box_button_and_its_code(service):
    host = service.claim_host()
    assert service.is_host(host) and not service.is_host("nope") and not service.is_host(None)
    with pytest.raises(PermissionError, match="confirm button"):
        service.claim_host()
    assert service.pairing_code() is None
    service.open_host_pairing()
    code = service.pairing_code()
    assert code is not None and len(code) == 6 and code.isdigit()
    with pytest.raises(WrongPairingCode):
        service.claim_host()  # the window alone no longer makes anyone host
    with pytest.raises(WrongPairingCode):
        service.claim_host(f"{(int(code) + 1) % 10**6:06d}")
    assert service.is_host(host)
    second = service.claim_host(code)
    assert service.is_host(second) and not service.is_host(host)
    assert service.pairing_code() is None
    with pytest.raises(PermissionError):
        service.claim_host(code)  # one hand-over per hold


def test_wrong_pairing_codes_close_the_pairing(service):
    host = service.claim_host()
    service.open_host_pairing()
    code = service.pairing_code()
    assert code is not None
    wrong = [f"{(int(code) + n) % 10**6:06d}" for n in range(1, PAIRING_TRIES + 1)]
    for guess in wrong:
        with pytest.raises(WrongPairingCode):
            service.claim_host(guess)
    assert service.pairing_code() is None
    with pytest.raises(PermissionError, match="confirm button"):
        service.claim_host(code)  # even the right code: the box's button must be held again
    assert service.is_host(host)


def test_the_pairing_code_lasts_its_minute_only(service, monkeypatch):
    service.claim_host()
    now = [1000.0]
    monkeypatch.setattr(table_service_module.time, "monotonic", lambda: now[0])
    service.open_host_pairing(seconds=60)
    code = service.pairing_code()
    now[0] += 61
    assert service.pairing_code() is None
    with pytest.raises(PermissionError, match="confirm button"):
        service.claim_host(code)


CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from device.store import Store
    from device.table_service import TableService
    from engine.actions import Action
    service = TableService(Store(Path(sys.argv[1])))
    if not service.public_view()["game"]:
        service.submit(Action("table.new", {"game": "dice", "seats": ["Ann"]}))
    i = 0
    while True:
        i += 1
        service.submit(Action("roll", {"dice": [i % 6 + 1]}))
        print(i, flush=True)
    """
)


def test_kill_9_loses_no_acknowledged_action(tmp_path):
    """A child appends rolls as fast as it can and prints each one after it is accepted;
    we kill -9 it mid-stream: every roll it acknowledged must be in the replayed table."""
    db = tmp_path / "db"
    root = ROOT
    env = {**os.environ, "PYTHONPATH": str(root)}
    for _ in range(3):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(db)], stdout=subprocess.PIPE, text=True, env=env)
        acknowledged = 0
        deadline = time.monotonic() + 20
        while acknowledged < 30 and time.monotonic() < deadline:
            acknowledged = int(child.stdout.readline())
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        service = TableService(Store(db))
        history_len = len(service.store.entries()) - 1
        assert acknowledged >= 30
        assert history_len >= acknowledged
        service.store.close()


def test_actions_refuse_deep_or_large_data():
    deep: object = 1
    for _ in range(17):
        deep = [deep]
    with pytest.raises(IllegalAction, match="deeper"):
        Action("roll", {"extra": deep})
    with pytest.raises(IllegalAction, match="larger"):
        Action("roll", {"pad": "x" * 17_000})
    Action("roll", {"dice": [[[1]]]})  # a few levels are fine


def write_raw(store: Store, action_json: str) -> None:
    """An entry written by an older box (before today's checks), straight into the log."""
    with store.db:
        store.db.execute("INSERT INTO log (action, seed, at) VALUES (?, 0, 0)", (action_json,))


def test_an_entry_that_no_longer_parses_is_set_aside_with_what_followed(tmp_path):
    """One bad entry must not make every later start and undo fail: the table is
    restored to just before it, the host is told which entry, and play goes on."""
    first = TableService(Store(tmp_path / "db"))
    start(first)
    first.submit(Action("roll", {"dice": [3]}))
    deep = "[" * 975 + "]" * 975
    write_raw(first.store, '{"kind": "roll", "data": {"dice": [2], "x": ' + deep + '}, "seat": null}')
    write_raw(first.store, Action("roll", {"dice": [5]}).to_json())  # accepted after the bad one
    first.store.close()
    again = TableService(Store(tmp_path / "db"))
    assert again.public_view()["view"]["history"] == [[3]]
    assert any("#3" in n and "set aside" in n for n in again.public_view()["notices"])
    again.submit(Action("roll", {"dice": [6]}))
    again.undo()
    assert again.public_view()["view"]["history"] == [[3]]
    again.submit(Action("roll", {"dice": [4]}))
    again.store.close()
    third = TableService(Store(tmp_path / "db"))  # the next start replays cleanly, losing nothing new
    assert third.public_view()["view"]["history"] == [[3], [4]]
    assert not any("set aside" in n for n in third.public_view()["notices"])


def test_an_entry_the_rules_now_refuse_is_set_aside(tmp_path):
    first = TableService(Store(tmp_path / "db"))
    start(first)
    first.submit(Action("roll", {"dice": [3]}))
    write_raw(first.store, Action("roll", {"dice": [9]}).to_json())  # no die shows 9
    first.store.close()
    again = TableService(Store(tmp_path / "db"))
    assert again.public_view()["view"]["history"] == [[3]]
    assert any("#3" in n for n in again.public_view()["notices"])
    again.undo()
    assert again.public_view()["view"]["history"] == []


def test_undoing_a_new_game_does_not_bring_back_the_old_games_seat_tokens(tmp_path):
    """Seats of the game that comes back belong to whoever joins it now, not to the phones
    that held them before the new game (they may have changed hands since)."""
    first = TableService(Store(tmp_path / "db"))
    start(first)
    old = first.claim_seat(1, first.join_code())
    start(first, ("Di", "Ed"))
    first.undo()
    assert first.table.current.seats == ("Ann", "Bob", "Cy")
    assert first.seat_of(old) is None and first.public_view()["claimed"] == [False, False, False]
    fresh = first.claim_seat(1, first.join_code())
    first.submit(Action("roll", {"dice": [2]}))
    first.undo()  # undoing a roll keeps the seats
    assert first.seat_of(fresh) == 1
    first.store.close()
    again = TableService(Store(tmp_path / "db"))
    assert again.seat_of(old) is None and again.seat_of(fresh) == 1


def test_a_failing_listener_does_not_stop_the_others_or_the_answer(service, store, caplog):
    """The action is durable before the listeners run: a failing output is logged, the
    other listeners still hear of the change, and the caller is told it was accepted."""
    heard = []

    def broken(effects):
        raise RuntimeError("cannot join thread before it is started")

    service.add_listener(broken)
    service.add_listener(heard.append)
    start(service)
    effects = service.submit(Action("roll", {"dice": [2, 2]}))
    assert effects == [Say("2, 2: 4")] and heard[-1] == effects
    assert len(store.entries()) == 2
    assert "a listener failed" in caplog.text


def test_a_night_answer_wakes_no_other_page_and_names_nobody(tmp_path):
    """Kampf's night: Hermione looking at a card on her phone changes nothing any other
    page shows, so the live-update version (sent to every page) must not move either:
    its tick would tell the table that the role called is with a player."""
    from engine.effects import TIMER_DONE
    from engine.games.kampf_roles import HERMIONE
    from engine.games.kampf_state import NIGHT_TIMER

    service = TableService(Store(tmp_path / "t.db"))
    now = [1000.0]
    service.clock = lambda: now[0]
    new = Action("table.new", {"game": "kampf", "seats": ["Ann", "Bob", "Cy"], "options": {"scenario": "Zauberkunst"}})
    for _ in range(200):  # the deal comes from each new game's own seed: until Ann is Hermione
        service.submit(new)
        if service.table.current.state.dealt[0] == HERMIONE:
            break
    service.submit(Action("start"))
    state = service.table.current.state
    while state.calls[state.call] != HERMIONE:
        now[0] = service.table.current.timers[NIGHT_TIMER].deadline
        service.submit(Action(TIMER_DONE, {"name": NIGHT_TIMER}))
        state = service.table.current.state
    [look] = [e for e in service.table.expects() if e.seat == 0]
    before, public = service.version, service.table.public_view()
    service.submit(Action(look.action, {"choice": "Bob"}, seat=0))
    assert service.version == before  # no page woke
    assert service.table.public_view() == public and public["last_by"] is None
    assert service.private_view(0)["view"] != {}  # Ann's own page shows what she saw when it looks
