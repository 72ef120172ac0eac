"""The app served for real by waitress: live streams arrive at once, a table's worth
of open streams does not starve other requests, and stop() ends it all."""
from __future__ import annotations

import http.client
import json
import time

import pytest

from engine.actions import Action
from web.serve import serve
from web_helpers import make_app


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
