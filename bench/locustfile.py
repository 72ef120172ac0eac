"""Locust users for bench/load.py: phones and a host with live updates connected.

Each user makes ``FAMILIAR_LOAD_RATE`` requests a second (locust's constant_throughput)
and keeps the page's live-update stream open in a greenlet beside its requests, as a
browser tab does.  Phones read their own view and answer their own prompts; the host
reads the table, the board and the pending readings and answers the table's prompts,
undoing once the game is over so that play never stops.  Only the load runner starts
this file (it passes the host's cookie and the join code in the environment).
"""

from __future__ import annotations

import itertools
import os
import random

import gevent
from locust import HttpUser, constant_throughput, events, task
from requests.adapters import HTTPAdapter

RATE = float(os.environ.get("FAMILIAR_LOAD_RATE", "5"))
SEATS = itertools.count()


def _answer(expect: dict, rng: random.Random) -> dict:
    """A page's answer to a prompt, picked at random from what it offers."""
    if expect["kind"] == "vote":
        return {"vote": rng.random() < 0.6}
    if expect["kind"] == "choice" and (expect.get("count") or 1) > 1:
        return {"choices": rng.sample(expect["options"], min(expect["count"], len(expect["options"])))}
    if expect["kind"] == "choice" and expect["options"]:
        return {"choice": rng.choice(expect["options"])}
    if expect["kind"] == "dice":
        return {"dice": [rng.randint(1, 6) for _ in range(expect.get("count") or 2)]}
    return {}


class FromAddress(HTTPAdapter):
    """Connects from one loopback address: each phone is its own client, as on the table
    (the box caps connections and live-update streams per client address)."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


class Page(HttpUser):
    """A browser tab with its live-update stream open."""

    abstract = True
    wait_time = constant_throughput(RATE)

    source = "127.0.0.1"

    def on_start(self) -> None:
        self.client.mount("http://", FromAddress(self.source))
        self.rng = random.Random()
        self.stream = gevent.spawn(self._listen)

    def on_stop(self) -> None:
        self.stream.kill()

    def _listen(self) -> None:
        """Hold /api/events open; each version is a "SSE version" sample (its gap since
        the previous one), a dropped stream a failure, and the stream is opened again."""
        while True:
            start = gevent.get_hub().loop.now()
            try:
                with self.client.get("/api/events", stream=True, name="/api/events", catch_response=True) as resp:
                    resp.success()
                    for line in resp.iter_lines():
                        if line.startswith(b"data:"):
                            now = gevent.get_hub().loop.now()
                            events.request.fire(
                                request_type="SSE",
                                name="version",
                                response_time=(now - start) * 1000,
                                response_length=len(line),
                                exception=None,
                                context={},
                            )
                            start = now
            except Exception as exc:  # noqa: BLE001 - reported to locust as a failure
                events.request.fire(
                    request_type="SSE", name="version", response_time=0, response_length=0, exception=exc, context={}
                )
            gevent.sleep(1)

    def answer(self, path: str, expects: list[dict]) -> None:
        if expects:
            expect = self.rng.choice(expects)
            body = {"kind": expect["action"], "data": _answer(expect, self.rng)}
            with self.client.post(path, json=body, name=path, catch_response=True) as resp:
                if resp.status_code in (200, 403, 409):  # the prompt moved on, or the rules refused
                    resp.success()


class Phone(Page):
    weight = 10

    def on_start(self) -> None:
        self.seat = next(SEATS)
        self.source = f"127.0.1.{self.seat + 1}"
        super().on_start()
        self.client.get(f"/j/{os.environ['FAMILIAR_JOIN_CODE']}", name="/j/CODE", allow_redirects=False)
        self.client.post("/api/join", json={"seat": self.seat}, name="/api/join")

    @task(8)
    def me(self) -> None:
        self.client.get("/api/me", name="/api/me")

    @task(1)
    def table(self) -> None:
        self.client.get("/api/table", name="/api/table")

    @task(1)
    def baseline(self) -> None:
        """A static file through the same server and headers, no table work: latencies
        are reported as a ratio to it, since the machine's load moves both alike."""
        self.client.get("/static/common.js", name="baseline")

    @task(1)
    def act(self) -> None:
        me = self.client.get("/api/me", name="/api/me").json()
        self.answer("/api/me/act", me.get("expects", []))


class Host(Page):
    weight = 1
    fixed_count = 1

    def on_start(self) -> None:
        self.client.cookies.set("familiar_host", os.environ["FAMILIAR_HOST_TOKEN"])
        super().on_start()

    @task(5)
    def table(self) -> None:
        self.client.get("/api/table", name="/api/table (host)")

    @task(2)
    def board(self) -> None:
        self.client.get("/api/board", name="/api/board")

    @task(1)
    def pending(self) -> None:
        self.client.get("/api/host/pending", name="/api/host/pending")

    @task(2)
    def act(self) -> None:
        table = self.client.get("/api/table", name="/api/table (host)").json()
        if table.get("over"):
            self.client.post("/api/host/undo", json={"confirm": True}, name="/api/host/undo")
        else:
            self.answer("/api/host/act", [e for e in table.get("expects", []) if e["seat"] is None])
