"""The app served for real by waitress: live streams arrive at once, a table's worth
of open streams does not starve other requests, and stop() ends it all."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import time

import pytest

from engine.actions import Action
from support.web import make_app, make_service
from web import create_app, join_link
from web.events import MAX_UNKNOWN_STREAMS
from web.serve import MAX_PER_CLIENT, serve


@pytest.fixture
def served(tmp_path):
    app, service = make_app(tmp_path)
    server = serve(app, "127.0.0.1", 0)
    yield server, service
    server.stop()


def open_stream(port: int) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/events")
    return conn, conn.getresponse()


def read_event(response: http.client.HTTPResponse) -> str:
    """One SSE block (up to its blank line)."""
    lines = []
    while True:
        line = response.readline().decode()
        if line == "\n" and lines:
            return "".join(lines)
        lines.append(line)


def get_json(port: int, path: str) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    body = json.loads(conn.getresponse().read())
    conn.close()
    return body


def test_a_change_reaches_an_open_stream(served):
    server, service = served
    conn, response = open_stream(server.port)
    assert response.getheader("Content-Type").startswith("text/event-stream")
    assert read_event(response).startswith("retry: ")
    assert read_event(response) == f"data: {service.version}\n"
    service.submit(Action("table.new", {"game": "dice", "seats": []}))
    assert read_event(response) == f"data: {service.version}\n"
    conn.close()


def test_a_full_table_of_streams_does_not_starve_requests(served):
    server, service = served
    streams = [open_stream(server.port) for _ in range(14)]  # 12 phones, the host, the board
    for _, response in streams:
        read_event(response)
    assert get_json(server.port, "/api/table")["game"] is None
    for conn, _ in streams:
        conn.close()


def test_stop_ends_open_streams_promptly(tmp_path):
    app, service = make_app(tmp_path)
    server = serve(app, "127.0.0.1", 0)
    conn, response = open_stream(server.port)
    read_event(response)
    started = time.monotonic()
    server.stop()
    stopped_in = time.monotonic() - started
    try:  # the stream was closed (a socket timeout here would mean it was left hanging)
        response.read()
    except http.client.IncompleteRead:
        pass
    assert stopped_in < 4.0
    with pytest.raises(OSError):
        get_json(server.port, "/api/table")


def post_json(port: int, path: str, body: dict, cookie: str = "") -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "Cookie": cookie})
    response = conn.getresponse()
    set_cookie = response.getheader("Set-Cookie") or ""
    data = json.loads(response.read())
    conn.close()
    return response.status, data, set_cookie


def test_served_requests_log_no_cookie_and_no_secret(tmp_path, caplog):
    """waitress and Flask, at DEBUG, while phones join and read their secrets."""
    caplog.set_level(logging.DEBUG)
    app, service = make_app(tmp_path)
    server = serve(app, "127.0.0.1", 0)
    try:
        service.submit(Action("table.new", {"game": "secrets", "seats": ["Ann", "Bob"]}))
        status, _, set_cookie = post_json(server.port, "/api/join", {"seat": 0}, f"familiar_join={service.join_code()}")
        token = set_cookie.split(";")[0].split("=", 1)[1]
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/api/me", headers={"Cookie": f"familiar_seat={token}"})
        me = json.loads(conn.getresponse().read())
        conn.close()
        post_json(server.port, "/api/me/act", {"kind": "nonsense"}, f"familiar_seat={token}")
        post_json(server.port, "/api/host/act", {"kind": "next"}, f"familiar_seat={token}")
    finally:
        server.stop()
    assert status == 200 and me["view"]["word"] == service.table.current.state.words[0]
    for secret in (token, *service.table.current.state.words):
        assert secret not in caplog.text


def connect_from(source: str, port: int) -> socket.socket:
    """A TCP connection to the box from another loopback address: another client."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    return sock


def stream_from(source: str, port: int, cookie: str = "") -> tuple[socket.socket, bytes]:
    sock = connect_from(source, port)
    sent = f"Cookie: {cookie}\r\n" if cookie else ""
    sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n{sent}\r\n".encode())
    head = b""
    while b"data: " not in head and b"retry: 15000" not in head:  # a live stream, or "come back later"
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def test_one_hostile_client_cannot_freeze_the_box(served):
    """One client opened 32 streams (every worker thread) or ~99 idle sockets (waitress's
    connection limit): the host must still get answers, and other phones their streams."""
    server, service = served
    hostile: list[socket.socket] = []
    try:
        held = [stream_from("127.0.0.2", server.port) for _ in range(40)]
        hostile += [sock for sock, _ in held]
        live = [head for _, head in held if b"data: " in head]
        assert len(live) == 4  # the rest were told to come back later, and their threads freed
        hostile += [connect_from("127.0.0.2", server.port) for _ in range(150)]  # idle, sending nothing
        for _ in range(3):
            assert get_json(server.port, "/api/table")["game"] is None
        phone, head = stream_from("127.0.0.3", server.port)
        hostile.append(phone)
        assert b"retry: 3000" in head  # another phone still gets a real stream
    finally:
        for sock in hostile:
            sock.close()


def test_strangers_cannot_take_the_live_updates_of_seated_phones_and_the_host(served):
    """6 addresses without a seat or host cookie held all 20 live-update slots."""
    server, service = served
    service.submit(Action("table.new", {"game": "secrets", "seats": ["Ann", "Bob"]}))
    seat = service.claim_seat(0, service.join_code())
    host = service.claim_host()
    held: list[socket.socket] = []
    try:
        strangers = [stream_from(f"127.0.0.{2 + n}", server.port) for n in range(6) for _ in range(4)]
        held += [sock for sock, _ in strangers]
        assert sum(b"data: " in head for _, head in strangers) == MAX_UNKNOWN_STREAMS
        for source, cookie in (("127.0.0.20", f"familiar_seat={seat}"), ("127.0.0.21", f"familiar_host={host}")):
            sock, head = stream_from(source, server.port, cookie)
            held.append(sock)
            assert b"retry: 3000" in head and b"data: " in head  # a real stream, not "come back later"
    finally:
        for sock in held:
            sock.close()


def test_several_addresses_of_idle_sockets_cannot_shut_out_the_host_or_a_phone(served):
    """7 addresses x 15 idle sockets (under the per-address cap, over waitress's 100 in
    all) timed out 6 of 10 host requests: each new socket beyond EVICT_ABOVE now closes
    idle ones, strangers' first, so the host is answered and a seated phone keeps its
    keep-alive socket."""
    server, service = served
    service.submit(Action("table.new", {"game": "secrets", "seats": ["Ann", "Bob"]}))
    seat, host = service.claim_seat(0, service.join_code()), service.claim_host()
    phone = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5, source_address=("127.0.0.40", 0))
    phone.connect()

    def ask(conn: http.client.HTTPConnection, path: str, cookie: str) -> int:
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        response.read()
        return response.status

    hostile: list[socket.socket] = []
    try:
        assert ask(phone, "/api/me", f"familiar_seat={seat}") == 200  # the phone's socket stays open
        hostile += [connect_from(f"127.0.0.{2 + n}", server.port) for n in range(7) for _ in range(15)]
        answered = 0
        for _ in range(10):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5, source_address=("127.0.0.30", 0))
            answered += ask(conn, "/api/host/join", f"familiar_host={host}") == 200
            conn.close()
        assert answered == 10
        assert ask(phone, "/api/me", f"familiar_seat={seat}") == 200  # on the same socket: not closed
    finally:
        phone.close()
        for sock in hostile:
            sock.close()


@pytest.mark.slow
def test_idle_sockets_are_closed_soon(served):
    server, service = served
    idle = connect_from("127.0.0.2", server.port)
    idle.settimeout(60)
    assert idle.recv(1) == b""  # closed by the box within CHANNEL_TIMEOUT + CLEANUP_INTERVAL
    idle.close()


def test_a_stream_whose_page_has_gone_frees_its_slot_soon(served):
    """A page navigated away closes its socket; its slot must not wait for a heartbeat
    (a phone going from the join page to its own page would hold two)."""
    server, service = served
    slots = server.app.extensions["familiar"].streams
    for _ in range(3):
        sock, head = stream_from("127.0.0.4", server.port)
        assert b"data: " in head
        sock.close()
    deadline = time.monotonic() + 10
    while slots.held() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert slots.held() == 0


def test_the_box_s_own_browser_is_not_held_to_a_stranger_s_share(served):
    """The demo's host opens a tab per phone in one browser, all from 127.0.0.1: more
    connections than a stranger's share still get answers (issue 50)."""
    server, service = served
    own = [connect_from("127.0.0.1", server.port) for _ in range(MAX_PER_CLIENT + 4)]
    try:
        own[-1].sendall(b"GET /api/table HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert own[-1].recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        for sock in own:
            sock.close()


def test_the_join_link_points_where_the_server_listens(tmp_path, monkeypatch):
    """Served on loopback only (the demo), the join link keeps the loopback address the
    host used; a phone could not reach the LAN address, which nothing listens on."""
    monkeypatch.setattr(join_link, "lan_address", lambda: "192.0.2.7")
    app = create_app(make_service(tmp_path))
    server = serve(app, "127.0.0.1", 0)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/host")
        page = conn.getresponse().read().decode()
        url = f"http://127.0.0.1:{server.port}/j/{app.extensions['familiar'].service.join_code()}"
        assert url in page and "192.0.2.7" not in page
        conn.request("GET", url.removeprefix(f"http://127.0.0.1:{server.port}"))
        assert conn.getresponse().status in (200, 302, 303)  # the link opens: the demo listens there
        conn.close()
    finally:
        server.stop()


def test_the_join_link_uses_the_lan_address_only_where_served(monkeypatch):
    monkeypatch.setattr(join_link, "lan_address", lambda: "192.0.2.7")
    url = join_link.join_url
    assert url("http://localhost:8080/", None, "X", "0.0.0.0") == "http://192.0.2.7:8080/j/X"
    assert url("http://localhost:8080/", None, "X") == "http://192.0.2.7:8080/j/X"  # not known: everywhere
    assert url("http://127.0.0.1:8080/", None, "X", "127.0.0.1") == "http://127.0.0.1:8080/j/X"
    assert url("http://127.0.0.1:8080/", None, "X", "192.168.1.5") == "http://192.168.1.5:8080/j/X"
    assert url("http://192.168.1.5:8080/", None, "X", "127.0.0.1") == "http://192.168.1.5:8080/j/X"
