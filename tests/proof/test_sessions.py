"""Sessions and tokens, one test per claim of issue 24 that tests/web did not already
prove (rate-limited joins and the reset seat's dead cookie are in tests/web/test_web.py):

* tokens carry at least 128 random bits and are compared in constant time;
* no token is ever in an address, a page or an answer's body after joining, and the join
  code leaves the address bar at once (so no Referer can carry it either);
* every cookie is HttpOnly and SameSite=Strict;
* every state-changing route refuses a cross-site request and changes nothing;
* a reset seat's old token stays refused, also after a restart of the box;
* host rights are held by one device at a time and handed over only by the box's button.
"""

from __future__ import annotations

import base64
import hmac
import re
from http.cookies import SimpleCookie
from unittest import mock

import pytest

from device.store import Store
from device.table_service import TableService, new_token
from support.web import make_app
from web.security import HOST_COOKIE, JOIN_COOKIE, SEAT_COOKIE

SEATS = ["Ann", "Bob", "Cy"]
NEW_GAME = {"kind": "table.new", "data": {"game": "secrets", "seats": SEATS}}


@pytest.fixture
def box(tmp_path):
    app, service = make_app(tmp_path)
    host = app.test_client()
    assert host.get("/host").status_code == 200
    assert host.post("/api/host/act", json=NEW_GAME).status_code == 200
    return app, service, host


def joined(app, service, seat):
    phone = app.test_client()
    phone.get(f"/j/{service.join_code()}")
    assert phone.post("/api/join", json={"seat": seat}).status_code == 200
    return phone


def token_of(client, name):
    found = client.get_cookie(name)
    return found.value if found else None


def test_tokens_carry_at_least_128_random_bits():
    tokens = {new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    assert all(len(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))) >= 16 for t in tokens)
    # Each of the 8 bits of the decoded bytes is set about half the time: not a counter or a clock.
    raw = b"".join(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4)) for t in tokens)
    ones = [sum((byte >> bit) & 1 for byte in raw) / len(raw) for bit in range(8)]
    assert all(0.45 < share < 0.55 for share in ones), ones


def test_seat_and_host_tokens_and_join_codes_are_compared_in_constant_time(box):
    app, service, host = box
    phone = joined(app, service, 0)
    seat_token, host_token = token_of(phone, SEAT_COOKIE), token_of(host, HOST_COOKIE)
    assert len(seat_token) >= 22 and len(host_token) >= 22  # 128 bits of URL-safe base64
    with mock.patch("hmac.compare_digest", wraps=hmac.compare_digest) as compared:
        assert service.seat_of(seat_token) == 0
        assert service.is_host(host_token)
        assert not service.is_host(seat_token)
        with pytest.raises(PermissionError):
            service.claim_seat(1, "AAAAAAAA")
    assert compared.call_count >= 4  # each check above went through compare_digest


def test_no_token_in_an_address_a_page_or_a_body_after_joining(box):
    app, service, host = box
    phone = app.test_client()
    code = service.join_code()
    landing = phone.get(f"/j/{code}")
    assert landing.status_code == 303 and landing.headers["Location"] == "/"  # the code leaves the address
    assert landing.headers["Referrer-Policy"] == "no-referrer"
    assert code not in landing.get_data(as_text=True)
    joining = phone.post("/api/join", json={"seat": 0})
    token = token_of(phone, SEAT_COOKIE)
    assert token and token not in joining.get_data(as_text=True) and "Location" not in joining.headers
    hosting = token_of(host, HOST_COOKIE)
    for client in (phone, host, app.test_client()):
        for path in ("/", "/me", "/host", "/board", "/api/me", "/api/table", "/api/host/join", "/api/host/games"):
            reply = client.get(path)
            text = reply.get_data(as_text=True) + reply.headers.get("Location", "")
            assert token not in text and hosting not in text, path
            assert "Set-Cookie" not in reply.headers or path == "/host", path


def cookie_attributes(header: str) -> dict[str, str]:
    parsed = SimpleCookie()
    parsed.load(header)
    (morsel,) = parsed.values()
    flags = {k for k in ("httponly", "secure") if re.search(rf";\s*{k}\b", header, re.I)}
    return {**{k: v for k, v in morsel.items() if v}, **dict.fromkeys(flags, "yes")}


def test_every_cookie_is_httponly_and_samesite_strict(tmp_path):
    app, service = make_app(tmp_path)
    host = app.test_client()
    set_by = {HOST_COOKIE: host.get("/host").headers["Set-Cookie"]}
    host.post("/api/host/act", json=NEW_GAME)
    phone = app.test_client()
    set_by[JOIN_COOKIE] = phone.get(f"/j/{service.join_code()}").headers["Set-Cookie"]
    set_by[SEAT_COOKIE] = phone.post("/api/join", json={"seat": 0}).headers["Set-Cookie"]
    for name, header in set_by.items():
        assert header.startswith(f"{name}="), header
        attributes = cookie_attributes(header)
        assert attributes.get("httponly") and attributes.get("samesite") == "Strict", (name, header)
        assert attributes.get("path") == "/", (name, header)


def state_changing_routes(app) -> list[str]:
    return sorted(rule.rule for rule in app.url_map.iter_rules() if rule.methods & {"POST", "PUT", "PATCH", "DELETE"})


CROSS_SITE = [{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}]


def test_every_state_changing_route_refuses_a_cross_site_request(box):
    app, service, host = box
    phone = joined(app, service, 0)
    routes = state_changing_routes(app)
    assert "/api/join" in routes and "/api/host/act" in routes and len(routes) >= 10

    def state():
        return (service.version, len(service.store.entries()), service.store.claimed(service.game_seq))

    before = state()
    for route in routes:
        path = re.sub(r"<[^>]+>", "x", route)
        for client in (host, phone):
            for headers in CROSS_SITE:
                reply = client.post(path, json={"seat": 1, "kind": "next", "data": {}}, headers=headers)
                assert reply.status_code == 403 and "cross-site" in reply.json["error"], (route, headers)
    assert state() == before
    assert service.is_host(token_of(host, HOST_COOKIE)) and service.seat_of(token_of(phone, SEAT_COOKIE)) == 0


def test_a_reset_seats_old_token_stays_refused_after_a_restart(box, tmp_path):
    app, service, host = box
    ann = joined(app, service, 0)
    old = token_of(ann, SEAT_COOKIE)
    assert host.post("/api/host/reset", json={"seat": 0}).status_code == 200
    newcomer = app.test_client()
    newcomer.get(f"/j/{service.join_code()}")
    assert newcomer.post("/api/join", json={"seat": 0}).status_code == 202  # the host approves it first
    (request,) = host.get("/api/host/seats").json["requests"]
    assert host.post("/api/host/seats", json={"id": request["id"], "approve": True}).status_code == 200
    assert ann.get("/api/me").status_code == 403 and newcomer.get("/api/me").json["name"] == "Ann"
    restarted = TableService(Store(service.store.path), games=service.games)
    assert restarted.seat_of(old) is None and restarted.seat_of(token_of(newcomer, SEAT_COOKIE)) == 0


def test_host_rights_are_held_by_one_device_and_handed_over_only_by_the_box_button(box):
    app, service, host = box
    ann = joined(app, service, 0)
    newcomer = app.test_client()
    assert newcomer.get("/host").status_code == 403
    for asker in (ann, newcomer):  # a phone cannot open the pairing: the simulated buttons are not there
        assert asker.post("/api/board/press", json={"button": "confirm-hold"}).status_code == 403
    service.open_host_pairing()  # the box's confirm button, held
    assert newcomer.get("/host").status_code == 403  # the code from the host's screen is needed
    code = host.get("/api/host/join").json["pairing"]
    assert newcomer.post("/api/host/pair", json={"code": code}).status_code == 200
    assert newcomer.get("/host").status_code == 200
    assert service.is_host(token_of(newcomer, HOST_COOKIE)) and not service.is_host(token_of(host, HOST_COOKIE))
    assert host.get("/api/host/games").status_code == 403 and newcomer.get("/api/host/games").status_code == 200
    third = app.test_client()
    assert third.get("/host").status_code == 403  # one hand-over per press
    assert ann.get("/host").status_code == 403
