"""Host pairing, served for real: holding the box's button no longer hands the host page
to whoever polls ``/host`` first (issue 51: a stranger's device became host 86 ms after
the hold); the new device must type the code the old host's screen shows."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from device.table_service import PAIRING_TRIES
from support.clients import request, strangers
from support.web import make_app
from web.serve import WebServer, serve


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[WebServer, Any]]:
    app, service = make_app(tmp_path)
    server = serve(app, "127.0.0.1", 0)
    yield server, service
    server.stop()


def poll_host(port: int, source: str) -> list[tuple[int, str]]:
    """What the issue's probe did: open /host, and ask to pair without the code."""
    status, _, cookie = request(port, "GET", "/host", source=source)
    pair, _, pair_cookie = request(port, "POST", "/api/host/pair", {}, source=source)
    return [(status, cookie), (pair, pair_cookie)]


def test_strangers_polling_during_the_pairing_window_never_become_host(served) -> None:
    server, service = served
    status, _, old_host = request(server.port, "GET", "/host")
    assert status == 200 and old_host
    stop, seen = threading.Event(), []
    threads = strangers(server.port, 8, stop, seen, poll_host)
    try:
        service.open_host_pairing()  # the box's confirm button, held, while they poll
        status, link, _ = request(server.port, "GET", "/api/host/join", cookie=old_host)
        code = json.loads(link)["pairing"]  # on the old host's screen
        status, reply, new_host = request(server.port, "POST", "/api/host/pair", {"code": code}, source="127.0.0.99")
        assert status == 200 and reply == {"ok": True} and new_host
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
    assert len(seen) >= 16 and {status for status, _ in seen} == {403}
    assert not [cookie for _, cookie in seen if cookie]
    assert service.is_host(new_host.split("=", 1)[1]) and not service.is_host(old_host.split("=", 1)[1])
    assert request(server.port, "GET", "/host", cookie=new_host)[0] == 200


def test_guessers_together_get_only_the_pairings_few_tries(served) -> None:
    server, service = served
    _, _, old_host = request(server.port, "GET", "/host")
    service.open_host_pairing()
    code = service.pairing_code()
    guesses = iter(f"{(int(code) + n) % 10**6:06d}" for n in range(1, 10**5))  # every one wrong
    lock = threading.Lock()

    def guess(port: int, source: str) -> list[tuple[int, str]]:
        with lock:
            typed = next(guesses)
        status, reply, cookie = request(port, "POST", "/api/host/pair", {"code": typed}, source=source)
        return [(status, cookie if status != 403 else reply["error"])]

    stop, seen = threading.Event(), []
    threads = strangers(server.port, 10, stop, seen, guess)
    try:
        while len(seen) < 40:
            threading.Event().wait(0.05)
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
    assert {status for status, _ in seen} == {403}
    wrong = [why for _, why in seen if why == "that is not the code on the host's screen"]
    assert len(wrong) == PAIRING_TRIES  # the rest were told to hold the button again
    assert service.pairing_code() is None
    status, reply, _ = request(server.port, "POST", "/api/host/pair", {"code": code})
    assert status == 403 and "confirm button" in reply["error"]
    assert service.is_host(old_host.split("=", 1)[1])
