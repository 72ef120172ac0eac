"""Real HTTP clients of a served box, each from a loopback address of its own (another
client to the box's per-address limits), for races between phones."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable
from typing import Any

Seen = list[tuple[int, str]]


def request(
    port: int,
    method: str,
    path: str,
    body: dict | None = None,
    cookie: str = "",
    source: str = "127.0.0.1",
    cookie_name: str = "familiar_host",
) -> tuple[int, Any, str]:
    """One request from ``source`` (a loopback address of its own: another client); its
    status, body (JSON for a POST) and the ``cookie_name`` cookie it was given, if any."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20, source_address=(source, 0))
    headers = {"Cookie": cookie, "Sec-Fetch-Dest": "document", "Sec-Fetch-Site": "none"}
    if body is not None:
        headers = {"Cookie": cookie, "Content-Type": "application/json"}
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = conn.getresponse()
    data = response.read()
    cookies = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie") or []]
    conn.close()
    wanted = f"{cookie_name}="
    given = next((c for c in cookies if c.startswith(wanted)), "")
    return response.status, (json.loads(data) if body is not None else data), given


def strangers(
    port: int, count: int, stop: threading.Event, seen: Seen, work: Callable[[int, str], Seen]
) -> list[threading.Thread]:
    """``count`` clients from addresses of their own, each doing ``work`` until ``stop``."""

    def run(source: str) -> None:
        while not stop.is_set():
            seen.extend(work(port, source))

    threads = [threading.Thread(target=run, args=(f"127.0.0.{10 + n}",)) for n in range(count)]
    for thread in threads:
        thread.start()
    return threads
