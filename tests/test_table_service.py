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

from device.store import SeatTaken, Store, token_hash
from device.table_service import TableService
from engine.actions import Action, IllegalAction
from engine.effects import Say


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
    token = first.claim_seat(1)
    first.store.close()
    again = TableService(Store(tmp_path / "db"))
    assert again.public_view()["view"]["last"] == [6, 1]
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
    token = service.claim_seat(0)
    assert len(token) >= 43  # 256 bits, url-safe base64
    with pytest.raises(SeatTaken):
        service.claim_seat(0)
    with pytest.raises(IllegalAction):
        service.claim_seat(7)
    raw = store.db.execute("SELECT token FROM claims").fetchall()
    assert raw == [(token_hash(token),)]
    assert token not in Path(store.path).read_bytes().decode("latin-1")
    assert service.seat_of(token) == 0 and service.seat_of(token + "x") is None and service.seat_of("") is None


def test_reset_seat_kills_the_old_token_and_says_so(service):
    start(service)
    token = service.claim_seat(2)
    heard = []
    service.add_listener(heard.extend)
    service.reset_seat(2)
    assert service.seat_of(token) is None
    assert any("Cy's seat was reset" in e.text for e in heard if isinstance(e, Say))
    assert service.claim_seat(2) != token


def test_new_game_needs_new_claims(service):
    start(service)
    token = service.claim_seat(0)
    start(service, ("Dee", "Eve"))
    assert service.seat_of(token) is None
    assert service.public_view()["claimed"] == [False, False]


def test_host_is_first_come_then_only_by_the_box_button(service):
    host = service.claim_host()
    assert service.is_host(host) and not service.is_host("nope") and not service.is_host(None)
    with pytest.raises(PermissionError, match="confirm button"):
        service.claim_host()
    service.open_host_pairing()
    second = service.claim_host()
    assert service.is_host(second) and not service.is_host(host)
    with pytest.raises(PermissionError):
        service.claim_host()


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
    root = Path(__file__).resolve().parents[1]
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
