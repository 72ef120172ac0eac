"""The leak audit through the box's HTTP side: random legal games of every registered
game played by a host and one phone per seat, while an unauthenticated client, the
phones and the box's log are watched.  What a response *is* derives from the views
(audited in test_secret_leaks.py); this checks what the HTTP side adds: pages carry no
state, the public answers are the same for everyone, the stream carries only a version,
and no hidden secret's value reaches a log line or a spoken line."""

from __future__ import annotations

import logging
import random
import re

import pytest

from device.store import Store
from device.table_service import TableService
from engine.effects import Say
from engine.games import registry
from engine.secrets import marked, plain
from support.random_play import FlaskClient, HttpTable
from web import create_app

GAMES = sorted(registry())
STEPS = 40
PAGES = ("/", "/me", "/board")


def hidden_words(table) -> set[str]:
    """The text values of every secret not yet shown (any seat's, or nobody's)."""
    state = table.current.state
    words: set[str] = set()
    for node, f, mark in marked(state) if state is not None else ():
        if mark.shown is not None and mark.shown(state):
            continue
        stack = [plain(getattr(node, f.name))]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack += list(item.values())
            elif isinstance(item, list):
                stack += item
            elif isinstance(item, str) and len(item) >= 3:
                words.add(item)
    return words


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_no_response_page_stream_log_or_line_carries_a_hidden_secret(name, tmp_path, caplog):
    service = TableService(Store(tmp_path / "table.db"))
    service.clock = lambda: 1_800_000_000.0  # a still clock: a running timer reads the same on every page
    said: list[str] = []
    service.add_listener(lambda effects: said.extend(e.text for e in effects if isinstance(e, Say)))
    app = create_app(service)
    player = HttpTable(lambda source: FlaskClient(app, source), GAMES, random.Random(name), keep=True)
    anon = FlaskClient(app, "127.0.2.1")
    player.become_host()
    pages = {p: anon.request(p).text for p in PAGES}
    caplog.set_level(logging.DEBUG)
    public_text, hidden, checks = [], set(), 0
    for _ in range(2):
        player.new_game(name, registry()[name])
        for _ in range(STEPS):
            if player.over() or not player.step():
                break
            hidden |= hidden_words(service.table)
            host_table = player.host.request("/api/table").body
            public_text.append(repr(host_table))
            assert anon.request("/api/table").body == host_table
            assert not any(e["secret"] for e in host_table["expects"])  # glanceable or not: its seat's alone
            assert anon.request("/api/me").status == 403
            assert anon.request("/api/host/undo", {}).status == 403
            board = anon.request("/api/board").body
            for phone in player.phones[: len(host_table["seats"])]:
                assert phone.request("/api/board").body == board
                assert phone.request("/api/table").body == host_table
                for path in PAGES:
                    assert phone.request(path).text == pages[path], f"{path} carries state"
            checks += 3 + len(host_table["seats"]) * (2 + len(PAGES))
    stream = app.test_client().get("/api/events", buffered=False)
    first = next(stream.response).decode()
    stream.close()
    assert re.fullmatch(r"retry: \d+\n\ndata: \d+\n\n", first)
    public = "\n".join(public_text + said)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    leaked = {w for w in hidden if w not in public and (w in logged or w in "\n".join(said))}
    print(f"\n{name}: {checks} HTTP leak checks, {len(player.seen)} replies, {len(hidden)} hidden values")
    assert leaked == set()
    assert len(player.acked) >= 3  # the games were played (Kampf's night waits on its timers)
