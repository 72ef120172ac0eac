"""The web side through Flask's test client: seats and the host by cookie only, each
phone sees only its own secret, every refusal is JSON and changes nothing."""

from __future__ import annotations

import json
import logging
import re
import socket

import pytest

from engine.actions import Action
from support.web import make_app
from web.events import StreamSlots, version_events
from web.join_link import join_url, lan_address, qr_data_uri

SEATS = ["Ann", "Bob", "Cy"]


@pytest.fixture
def table(tmp_path):
    """A served table with a host device and a game of secret words for three."""
    app, service = make_app(tmp_path)
    host = app.test_client()
    assert host.get("/host").status_code == 200
    started = host.post("/api/host/act", json={"kind": "table.new", "data": {"game": "secrets", "seats": SEATS}})
    assert started.status_code == 200, started.json
    return app, service, host


def words(service):
    return service.table.current.state.words


def phone_with_link(app, code=None):
    """A phone that opened the join link of the QR code (or ``code``, a guess)."""
    phone = app.test_client()
    code = code or app.extensions["familiar"].service.join_code()
    assert phone.get(f"/j/{code}").status_code == 303
    return phone


def join(app, seat):
    phone = phone_with_link(app)
    reply = phone.post("/api/join", json={"seat": seat})
    assert reply.status_code == 200, reply.json
    return phone


def cookie(client, name):
    found = client.get_cookie(name)
    return found.value if found else None


def test_each_phone_sees_only_its_own_secret(table):
    app, service, host = table
    ann, bob = join(app, 0), join(app, 1)
    secret = words(service)
    mine, theirs = ann.get("/api/me"), bob.get("/api/me")
    assert mine.json["name"] == "Ann" and mine.json["view"] == {"word": secret[0]}
    assert theirs.json["name"] == "Bob" and theirs.json["view"] == {"word": secret[1]}
    assert secret[1] not in mine.get_data(as_text=True) and secret[2] not in mine.get_data(as_text=True)
    assert secret[0] not in theirs.get_data(as_text=True)
    # The secret prompt for seat 0 reaches Ann alone.
    assert [e["action"] for e in mine.json["expects"]] == ["peek", "vote"]
    assert [e["action"] for e in theirs.json["expects"]] == ["vote"]


def test_host_page_and_public_api_hold_no_secret(table):
    app, service, host = table
    ann = join(app, 0)
    ann.post("/api/me/act", json={"kind": "peek", "data": {"choice": "Bob"}})
    stranger = app.test_client()
    bodies = [
        host.get(p).get_data(as_text=True)
        for p in ("/host", "/api/table", "/api/board", "/api/host/pending", "/", "/me", "/board")
    ]
    bodies.append(stranger.get("/api/table").get_data(as_text=True))
    for word in words(service):
        assert not any(word in body for body in bodies)
    assert "peek" not in host.get("/api/table").get_data(as_text=True)
    assert host.get("/api/me").status_code == 403  # the host device has no seat, so no private view


def test_a_taken_seat_cannot_be_taken_and_a_phone_holds_one_seat(table):
    app, service, host = table
    ann = join(app, 0)
    before = service.version
    third = phone_with_link(app)
    taken = third.post("/api/join", json={"seat": 0})
    assert taken.status_code == 409 and "taken" in taken.json["error"]
    assert cookie(third, "familiar_seat") is None
    assert ann.post("/api/join", json={"seat": 1}).status_code == 409
    assert third.post("/api/join", json={"seat": 7}).status_code == 404
    assert service.version == before
    assert host.get("/api/table").json["claimed"] == [True, False, False]


def test_reset_seat_kills_the_old_cookie(table):
    app, service, host = table
    ann = join(app, 0)
    old = cookie(ann, "familiar_seat")
    assert host.post("/api/host/reset", json={"seat": 0}).status_code == 200
    gone = ann.get("/api/me")
    assert gone.status_code == 403 and gone.json["rejoin"] is True
    assert ann.post("/api/me/act", json={"kind": "vote", "data": {"vote": True}}).status_code == 403
    # Replaying the old token from another device does not work either.
    thief = app.test_client()
    thief.set_cookie("familiar_seat", old)
    assert thief.get("/api/me").status_code == 403
    again = phone_with_link(app)
    waiting = again.post("/api/join", json={"seat": 0})
    assert waiting.status_code == 202 and waiting.json["waiting"] is True  # the host approves it first
    assert cookie(again, "familiar_seat") != old and again.get("/api/me").status_code == 403
    (request,) = host.get("/api/host/seats").json["requests"]
    assert request["name"] == "Ann" and request["number"] == waiting.json["number"]
    assert waiting.json["number"] in waiting.json["message"]  # shown on the phone, for the host to compare
    assert host.post("/api/host/seats", json={"id": request["id"], "approve": True}).status_code == 200
    assert again.get("/api/me").json["name"] == "Ann"
    assert host.post("/api/host/reset", json={"seat": 2}).status_code == 409  # nobody there
    assert ann.get("/api/host/seats").status_code == 403  # the requests are the host's alone


def test_reset_is_said_aloud(table):
    app, service, host = table
    said = []
    service.add_listener(lambda effects: said.extend(getattr(e, "text", "") for e in effects))
    join(app, 1)
    host.post("/api/host/reset", json={"seat": 1})
    assert any("Bob's seat was reset" in line for line in said)


def test_a_new_game_sends_every_phone_to_rejoin(table):
    app, service, host = table
    ann = join(app, 0)
    host.post("/api/host/act", json={"kind": "table.new", "data": {"game": "secrets", "seats": SEATS}})
    assert ann.get("/api/me").status_code == 403


HOST_ROUTES = [
    ("get", "/api/host/games", None),
    ("post", "/api/host/act", {"kind": "next", "data": {}}),
    ("post", "/api/host/undo", {}),
    ("post", "/api/host/reset", {"seat": 0}),
    ("get", "/api/host/pending", None),
    ("get", "/api/host/pending/r1/photo", None),
    ("post", "/api/host/pending/r1", {"values": [1]}),
    ("get", "/api/host/camera", None),
    ("post", "/api/host/teach", {"catalog": "d", "rows": 1, "cols": 1, "names": ["a"], "commit": True}),
]


@pytest.mark.parametrize("method,path,body", HOST_ROUTES)
def test_host_routes_refuse_players_and_strangers(table, method, path, body):
    app, service, host = table
    ann = join(app, 0)
    before = (service.version, len(service.store.entries()))
    for client in (ann, app.test_client()):
        reply = getattr(client, method)(path, json=body) if body is not None else getattr(client, method)(path)
        assert reply.status_code == 403 and "host" in reply.json["error"]
    assert (service.version, len(service.store.entries())) == before
    assert join(app, 1).get("/api/me").status_code == 200  # the seat claim above changed nothing else


def test_a_second_device_needs_the_box_button_to_become_host(table):
    app, service, host = table
    other = app.test_client()
    locked = other.get("/host")
    assert locked.status_code == 403 and b"confirm" in locked.data
    assert cookie(other, "familiar_host") is None
    service.open_host_pairing()
    assert other.get("/host").status_code == 403  # opening the page is no longer enough
    code = host.get("/api/host/join").json["pairing"]  # shown on the old host's screen
    assert other.post("/api/host/pair", json={"code": code}).status_code == 200
    assert other.get("/host").status_code == 200
    assert other.get("/api/host/games").status_code == 200
    assert host.get("/api/host/games").status_code == 403  # the old host device was replaced


def test_players_answer_only_their_own_prompts(table):
    app, service, host = table
    ann, bob = join(app, 0), join(app, 1)
    assert bob.post("/api/me/act", json={"kind": "peek", "data": {"choice": "Cy"}}).status_code == 403
    assert bob.post("/api/me/act", json={"kind": "next", "data": {}}).status_code == 403
    assert bob.post("/api/me/act", json={"kind": "vote", "data": {"vote": True}}).status_code == 200
    assert service.table.current.state.votes == {1: True}
    assert ann.post("/api/me/act", json={"kind": "peek", "data": {"choice": "Cy"}}).status_code == 200
    assert ann.get("/api/me").json["view"]["peeked_word"] == words(service)[2]
    # The host may answer for a seat (votes entered by the host), with the seat in the data.
    assert host.post("/api/host/act", json={"kind": "vote", "data": {"vote": False, "seat": 2}}).status_code == 200
    assert service.table.current.state.votes == {1: True, 2: False}


BAD_POSTS = [
    ("/api/host/act", "{not json", "application/json", 400),
    ("/api/host/act", "[1, 2]", "application/json", 400),
    ("/api/host/act", '{"kind": "next"}', "text/plain", 400),
    ("/api/host/act", '{"kind": "next"}', "application/x-www-form-urlencoded", 400),
    ("/api/host/act", '{"kind": 5, "data": {}}', "application/json", 400),
    ("/api/host/act", '{"kind": "next", "data": []}', "application/json", 400),
    ("/api/host/act", '{"kind": "next", "data": {}, "seat": 0}', "application/json", 400),
    ("/api/host/act", '{"kind": "fly", "data": {}}', "application/json", 409),
    ("/api/host/act", '{"kind": "vote", "data": {"vote": "yes", "seat": 0}}', "application/json", 409),
    ("/api/host/act", '{"kind": "table.undo", "data": {}}', "application/json", 409),
    ("/api/host/act", '{"kind": "table.new", "data": {"game": "chess", "seats": ["a", "b"]}}', "application/json", 409),
    (
        "/api/host/act",
        '{"kind": "table.new", "data": {"game": "secrets", "seats": ["a", "a"]}}',
        "application/json",
        409,
    ),
    ("/api/host/act", '{"kind": "next", "data": {"x": NaN}}', "application/json", 400),
    ("/api/host/reset", '{"seat": "0"}', "application/json", 400),
    ("/api/host/reset", '{"seat": true}', "application/json", 400),
    ("/api/host/reset", '{"seat": 99}', "application/json", 409),
    ("/api/join", '{"seat": 1.5}', "application/json", 400),
    ("/api/join", '{"seat": -1}', "application/json", 403),  # no join code: refused first
    ("/api/host/act", '{"kind": "next", "data": {"pad": "' + "x" * 70_000 + '"}}', "application/json", 413),
    ("/api/host/teach", '{"catalog": "../etc", "rows": 1, "cols": 1, "names": ["a"]}', "application/json", 400),
    ("/api/host/teach", '{"catalog": "d", "rows": 2, "cols": 2, "names": ["a"]}', "application/json", 400),
    ("/api/host/teach", '{"catalog": "d", "rows": 1, "cols": 2, "names": ["a", "a"]}', "application/json", 400),
    ("/api/host/teach", '{"catalog": "d", "rows": 0, "cols": 2, "names": []}', "application/json", 400),
    ("/api/host/pending/r1", '{"values": 3}', "application/json", 400),
    ("/api/host/act", "[" * 30_000 + "]" * 30_000, "application/json", 400),
    ("/api/nowhere", "{}", "application/json", 404),
]


@pytest.mark.parametrize("path,body,content_type,status", BAD_POSTS)
def test_bad_input_is_a_json_error_and_changes_nothing(table, path, body, content_type, status):
    app, service, host = table
    before = (service.version, len(service.store.entries()), host.get("/api/table").json)
    reply = host.post(path, data=body, content_type=content_type)
    assert reply.status_code == status, reply.get_data(as_text=True)[:200]
    assert reply.is_json and isinstance(reply.json["error"], str) and reply.json["error"]
    assert (service.version, len(service.store.entries()), host.get("/api/table").json) == before


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}],
)
def test_cross_site_posts_are_refused(table, headers):
    app, service, host = table
    before = service.version
    reply = host.post("/api/host/act", json={"kind": "next", "data": {}}, headers=headers)
    assert reply.status_code == 403 and "cross-site" in reply.json["error"]
    assert service.version == before
    same = host.post(
        "/api/host/act",
        json={"kind": "next", "data": {}},
        headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status_code == 200 and service.version == before + 1


def test_security_headers_and_no_store_everywhere(table):
    app, service, host = table
    ann = join(app, 0)
    for client, path in [
        (ann, "/api/me"),
        (ann, "/me"),
        (host, "/host"),
        (host, "/api/table"),
        (ann, "/"),
        (host, "/board"),
    ]:
        reply = client.get(path)
        assert reply.headers["Cache-Control"] == "no-store", path
        csp = reply.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert reply.headers["X-Content-Type-Options"] == "nosniff"
        assert reply.headers["Referrer-Policy"] == "no-referrer"
    # No page carries inline script: every script is a static file.
    for path in ("/", "/me", "/host", "/board"):
        html = host.get(path).get_data(as_text=True)
        assert re.findall(r"<script(?![^>]*\ssrc=)[^>]*>", html) == [], path
        assert " on" + "click=" not in html


def test_seat_cookie_attributes(tmp_path):
    app, service = make_app(tmp_path)
    host = app.test_client()
    host.get("/host")
    host.post("/api/host/act", json={"kind": "table.new", "data": {"game": "secrets", "seats": SEATS}})
    plain = phone_with_link(app).post("/api/join", json={"seat": 0}).headers["Set-Cookie"]
    assert "HttpOnly" in plain and "SameSite=Strict" in plain and "Path=/" in plain and "Secure" not in plain
    assert re.search(r"Max-Age=(\d+)", plain) and int(re.search(r"Max-Age=(\d+)", plain)[1]) >= 30 * 24 * 3600
    token = re.match(r"familiar_seat=([^;]+)", plain)[1]
    assert len(token) >= 22  # at least 128 bits of URL-safe base64
    secure = app.test_client()
    secure.get(f"/j/{service.join_code()}", base_url="https://familiar.test")
    secure = secure.post("/api/join", json={"seat": 1}, base_url="https://familiar.test")
    assert "Secure" in secure.headers["Set-Cookie"]
    assert "HttpOnly" in host.get("/host").headers.get("Set-Cookie", "HttpOnly")


def test_private_pages_carry_no_view(table):
    app, service, host = table
    ann = join(app, 0)
    page = ann.get("/me").get_data(as_text=True)
    assert words(service)[0] not in page and "Ann" not in page


def test_event_stream_sends_versions_only(table):
    app, service, host = table
    ann = join(app, 0)
    stopping = app.extensions["familiar"].stopping
    stream = version_events(service, stopping, StreamSlots(), "phone", heartbeat=0.05)
    first = next(stream)
    assert first.startswith("retry: ") and f"data: {service.version}\n\n" in first
    service.submit(Action("vote", {"vote": True}, seat=0))
    assert next(stream) == f"data: {service.version}\n\n"
    assert next(stream) == ": keep-alive\n\n"
    stopping.set()
    assert list(stream) == []
    # Through the app: the same shape, nothing else.
    stopping.clear()
    reply = ann.get("/api/events", buffered=False)
    assert reply.mimetype == "text/event-stream" and reply.headers["Cache-Control"] == "no-store"
    chunks = iter(reply.response)
    body = next(chunks).decode()
    stopping.set()
    body += b"".join(chunks).decode()
    reply.close()
    assert re.fullmatch(r"retry: \d+\n\ndata: \d+\n\n(: keep-alive\n\n|data: \d+\n\n)*", body)
    for word in words(service):
        assert word not in body


def test_stream_ends_after_its_lifetime(table):
    app, service, host = table
    stream = version_events(
        service, app.extensions["familiar"].stopping, StreamSlots(), "phone", heartbeat=10, lifetime=0.2
    )
    assert len(list(stream)) == 1


def test_logs_hold_no_tokens_and_no_secrets(table, caplog):
    app, service, host = table
    caplog.set_level(logging.DEBUG)
    ann, bob = join(app, 0), join(app, 1)
    ann.get("/api/me")
    bob.post("/api/me/act", json={"kind": "vote", "data": {"vote": True}})
    host.post("/api/host/act", data="{broken", content_type="application/json")
    host.post("/api/host/reset", json={"seat": 1})
    tokens = [cookie(c, n) for c, n in ((ann, "familiar_seat"), (bob, "familiar_seat"), (host, "familiar_host"))]
    logged = caplog.text
    for secret in [*tokens, *words(service)]:
        assert secret and secret not in logged


def test_join_link_and_qr(tmp_path):
    assert join_url("http://127.0.0.1:8080/", "http://box.local:8080", "C0DE") == "http://box.local:8080/j/C0DE"
    assert join_url("http://192.168.1.20:8080/", None, "C0DE") == "http://192.168.1.20:8080/j/C0DE"
    lan = lan_address()
    assert join_url("http://localhost:8080/", None, "X") == (
        f"http://{lan}:8080/j/X" if lan else "http://localhost:8080/j/X"
    )
    qr = qr_data_uri("http://192.168.1.20:8080/j/C0DE")
    assert qr.startswith("data:image/svg+xml") and "script" not in qr
    app, service = make_app(tmp_path)
    page = app.test_client().get("/host").get_data(as_text=True)
    assert page.count('src="data:image/svg+xml') == 1 and f"http://familiar.test:8080/j/{service.join_code()}" in page


def test_games_list_for_the_new_game_form(table):
    app, service, host = table
    listed = {g["name"]: g for g in host.get("/api/host/games").json["games"]}
    assert listed["secrets"]["options"] == {"mode": ["plain", "fancy"]}
    assert listed["dice"]["min_seats"] == 0


def test_undo_through_the_host(table):
    app, service, host = table
    host.post("/api/host/act", json={"kind": "next", "data": {}})
    assert service.table.current.state.rounds == 1
    assert host.post("/api/host/undo", json={}).status_code == 200
    assert service.table.current.state.rounds == 0


def test_json_errors_for_unknown_api_paths_and_methods(table):
    app, service, host = table
    assert host.get("/api/nothing").json["error"]
    assert host.get("/api/host/undo").status_code == 405 and host.get("/api/host/undo").json["error"]
    assert json.loads(host.delete("/api/table").data)["error"]


HOSTNAME = socket.gethostname().lower().split(".")[0]
LAN = lan_address()


@pytest.mark.parametrize(
    "host,allowed",
    [
        ("evil.example.com", False),
        (f"{LAN}:8080" if LAN else "127.0.0.2:8080", True),
        (f"{HOSTNAME}.local", True),
        (HOSTNAME, True),
        ("[::1]:8080", True),
        ("familiar.test:8080", True),
        ("familiar.local.evil.com", False),
        # single-label names and *.lan are names anyone can give a device on the router's DNS
        ("printer", False),
        ("evil.lan", False),
        ("evil.home.arpa", False),
        (f"{HOSTNAME}.evil.com", False),
        ("192.0.2.7:8080", False),
        ("0.0.0.0:8080", False),
        ("localhost:8080", True),
    ],
)
def test_only_the_box_own_names_are_answered(tmp_path, host, allowed):
    """DNS rebinding: a public domain pointed at the box must not reach it as "same origin"."""
    app, service = make_app(tmp_path)
    client = app.test_client()
    for path in ("/", "/api/table"):
        reply = client.get(path, headers={"Host": host})
        assert (reply.status_code == 200) is allowed, (host, path)
    claimed = client.get("/host", headers={"Host": host})
    assert (claimed.status_code == 200) is allowed and service.store.has_host() is allowed


def test_host_is_claimed_only_by_a_page_opened_on_purpose(tmp_path):
    app, service = make_app(tmp_path)
    embedded = app.test_client().get("/host", headers={"Sec-Fetch-Dest": "image", "Sec-Fetch-Site": "cross-site"})
    assert embedded.status_code == 403 and not service.store.has_host()
    opened = app.test_client().get("/host", headers={"Sec-Fetch-Dest": "document", "Sec-Fetch-Site": "none"})
    assert opened.status_code == 200 and service.store.has_host()


def test_undo_of_a_shown_secret_is_refused_in_public_words_and_changes_nothing(table):
    """A peek showed Ann a word: undo answers 409 with words naming neither Ann nor the
    word, the log gains nothing, and an undo with options is a 400."""
    app, service, host = table
    ann = join(app, 0)
    assert ann.post("/api/me/act", json={"kind": "peek", "data": {"choice": "Cy"}}).status_code == 200
    peeked = words(service)[2]
    logged = len(service.table.kept)
    refused = host.post("/api/host/undo", json={})
    assert refused.status_code == 409 and "cannot be unseen" in refused.json["error"]
    assert "Ann" not in refused.json["error"] and peeked not in refused.get_data(as_text=True)
    assert host.get("/api/table").json["undo_refused"] == refused.json["error"]
    assert host.post("/api/host/undo", json={"confirm": True}).status_code == 400
    assert service.table.current.state.peeked == "Cy" and len(service.table.kept) == logged
    assert peeked not in host.get("/api/table").get_data(as_text=True)


def nested(depth: int) -> object:
    """A value nested ``depth`` lists deep, built without recursion."""
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("depth", [18, 900])
def test_deeply_nested_move_is_refused_and_undo_keeps_working(table, depth):
    """The probe's roll with an extra field nested ~975 lists deep was logged, and every
    later undo then failed: too deep is a 400 at the edge and never reaches the log."""
    app, service, host = table
    ann = join(app, 0)
    logged = len(service.store.entries())
    reply = ann.post("/api/me/act", json={"kind": "vote", "data": {"vote": True, "extra": nested(depth)}})
    assert reply.status_code == 400 and "deeper" in reply.json["error"]
    assert len(service.store.entries()) == logged
    assert host.post("/api/host/act", json={"kind": "next", "data": {}}).status_code == 200
    assert host.post("/api/host/undo", json={}).status_code == 200


def test_move_data_over_the_size_cap_is_refused(table):
    app, service, host = table
    logged = len(service.store.entries())
    reply = host.post("/api/host/act", json={"kind": "next", "data": {"pad": "x" * 20_000}})
    assert reply.status_code == 400 and "larger" in reply.json["error"]
    assert len(service.store.entries()) == logged


def test_a_move_that_is_logged_is_answered_as_accepted_even_if_an_output_fails(table):
    app, service, host = table

    def broken(effects):
        raise RuntimeError("cannot join thread before it is started")

    service.add_listener(broken)
    reply = host.post("/api/host/act", json={"kind": "next", "data": {}})
    assert reply.status_code == 200 and service.table.current.state.rounds == 1


def test_joining_needs_the_current_games_code(table):
    """One anonymous client claimed all 6 seats in 43 ms: a seat now needs the code that
    only the host's screen shows (its QR code and short address)."""
    app, service, host = table
    link = host.get("/api/host/join").json
    assert link["url"] == f"http://familiar.test:8080/j/{service.join_code()}" and link["qr"].startswith("data:")
    assert service.join_code() not in app.test_client().get("/api/table").get_data(as_text=True)
    assert app.test_client().get("/api/host/join").status_code == 403
    for phone in (app.test_client(), phone_with_link(app, "AAAAAAAA")):  # no link, a guessed one
        refused = phone.post("/api/join", json={"seat": 0})
        assert refused.status_code == 403 and "QR code" in refused.json["error"]
        assert cookie(phone, "familiar_seat") is None
    assert host.get("/api/table").json["claimed"] == [False, False, False]
    old = phone_with_link(app)
    host.post("/api/host/act", json={"kind": "table.new", "data": {"game": "secrets", "seats": SEATS}})
    assert host.get("/api/host/join").json["url"] != link["url"]  # a new game, a new code
    assert old.post("/api/join", json={"seat": 0}).status_code == 403
    assert join(app, 0).get("/api/me").json["name"] == "Ann"


def test_join_attempts_are_rate_limited_per_client(table):
    app, service, host = table
    squatter = phone_with_link(app)
    answers = []
    for seat in range(30):  # the probe tried 1,000 at 188 a second
        squatter.delete_cookie("familiar_seat")
        answers.append(squatter.post("/api/join", json={"seat": seat % 3}).status_code)
    assert answers.count(429) >= 20
    limited = squatter.post("/api/join", json={"seat": 0})
    assert limited.status_code == 429 and "wait" in limited.json["error"]
    other = app.test_client()  # another phone is not held back
    other.environ_base["REMOTE_ADDR"] = "192.168.1.77"
    other.get(f"/j/{service.join_code()}")
    assert other.post("/api/join", json={"seat": 2}).status_code in (200, 409)
