"""A seat belongs to its phone once the secrets are dealt, served for real: after a seat
reset, squatters with the join code racing from fresh addresses read nothing (issue 51:
a squatter won 20 of 20 races); the seat goes to the phone the host approves."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from device.store import Store
from device.table_service import TableService
from support.clients import Seen, request, strangers
from web import create_app
from web.serve import WebServer, serve

SEAT = "familiar_seat"
SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[WebServer, Any]]:
    service = TableService(Store(tmp_path / "table.db"))  # the box's own games: Secret Voldemort's roles
    server = serve(create_app(service), "127.0.0.1", 0)
    yield server, service
    server.stop()


def phone_joins(port: int, code: str, seat: int, source: str) -> tuple[int, Any, str]:
    """A phone that scanned the QR code (``/j/CODE``) taps ``seat``: the answer and the
    cookies it then holds."""
    _, _, join = request(port, "GET", f"/j/{code}", source=source, cookie_name="familiar_join")
    status, reply, seat_cookie = request(port, "POST", "/api/join", {"seat": seat}, join, source, SEAT)
    return status, reply, "; ".join(c for c in (join, seat_cookie) if c)


def test_squatters_racing_for_a_reset_seat_read_nothing(served) -> None:
    server, service = served
    port = server.port
    _, _, host = request(port, "GET", "/host")
    assert (
        request(
            port, "POST", "/api/host/act", {"kind": "table.new", "data": {"game": "voldemort", "seats": SEATS}}, host
        )[0]
        == 200
    )
    code = service.join_code()
    status, _, ann = phone_joins(port, code, 0, "127.0.0.2")
    assert status == 200 and request(port, "GET", "/api/me", cookie=ann)[0] == 200
    assert request(port, "POST", "/api/host/reset", {"seat": 0}, host)[0] == 200  # Ann's phone was lost
    joined = threading.Barrier(6)

    def squat(port: int, source: str) -> Seen:
        """The probe's squat-and-read: take the seat with the code, then read it, again and again."""
        status, _, cookies = phone_joins(port, code, 0, source)
        seen = [(status, "join")]
        joined.wait(30)
        for _ in range(20):
            seen.append((request(port, "GET", "/api/me", cookie=cookies)[0], "me"))
        return seen

    stop, seen = threading.Event(), []
    threads = strangers(port, 5, stop, seen, squat)
    stop.set()  # each squats once
    joined.wait(30)  # every squatter has asked for the seat before Ann's new phone does
    status, reply, new_phone = phone_joins(port, code, 0, "127.0.0.3")
    assert status == 202 and reply["number"] in reply["message"]
    requests = json.loads(request(port, "GET", "/api/host/seats", cookie=host)[1])
    assert [r["name"] for r in requests["requests"]] == ["Ann"] * 6  # every claim is on the host page
    (mine,) = [r for r in requests["requests"] if r["number"] == reply["number"]]  # the number on Ann's phone
    assert request(port, "POST", "/api/host/seats", {"id": mine["id"], "approve": True}, host)[0] == 200
    for thread in threads:
        thread.join(60)
    assert [s for s, what in seen if what == "join"] == [202] * 5
    assert {s for s, what in seen if what == "me"} == {403}  # 100 reads, none of them the seat
    status, me, _ = request(port, "GET", "/api/me", cookie=new_phone)
    assert status == 200 and json.loads(me)["name"] == "Ann"
    notices = json.loads(request(port, "GET", "/api/table")[1])["notices"]
    assert any("asks for Ann" in n for n in notices) and any("gave Ann's seat" in n for n in notices)
