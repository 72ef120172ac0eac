"""Monopoly Deal Wizarding World served: the host page shows every player's Bank total
and sets, whose turn it is and how many plays are left; each phone shows its own hand,
and no hand reaches the host page, the public API or another phone."""

from __future__ import annotations

import json

from device.store import Store
from device.table_service import TableService
from engine.games.deal import Deal
from support.deal import ability_deck
from web import create_app

SEATS = ["Ann", "Bob", "Cy"]


def served(tmp_path):
    deal = Deal(ability_deck())
    service = TableService(Store(tmp_path / "table.db"), games={"deal": deal})
    app = create_app(service, None, public_url="http://familiar.test:8080")
    host = app.test_client()
    assert host.get("/host").status_code == 200
    started = host.post("/api/host/act", json={"kind": "table.new", "data": {"game": "deal", "seats": SEATS}})
    assert started.status_code == 200, started.json
    act = lambda kind, **data: host.post("/api/host/act", json={"kind": kind, "data": data})  # noqa: E731
    assert act("youngest", choice="Ann").status_code == 200
    for seat, character in enumerate(["Reader", "Helper", "Drawer"]):
        assert act("character", choice=character, seat=seat).status_code == 200, character
    return app, service, host, deal


def join(app, seat):
    phone = app.test_client()
    code = app.extensions["familiar"].service.join_code()
    assert phone.get(f"/j/{code}").status_code == 303
    assert phone.post("/api/join", json={"seat": seat}).status_code == 200
    return phone


def test_the_host_page_shows_banks_sets_turn_and_plays_left(tmp_path):
    app, service, host, deal = served(tmp_path)
    ann = join(app, 0)
    card = service.table.current.state.hands[0][0]
    reply = ann.post("/api/me/act", json={"kind": "play", "data": {"choice": card}})
    assert reply.status_code == 200, reply.json
    for kind in ("how", "colour"):
        prompt = next((e for e in service.table.expects() if e.action == kind), None)
        if prompt is not None:
            ann.post("/api/me/act", json={"kind": kind, "data": {"choice": prompt.options[-1]}})
    view = host.get("/api/table").json["view"]
    assert view["turn_name"] == "Ann" and view["plays_left"] == 2
    assert [p["name"] for p in view["players"]] == SEATS
    laid = view["players"][0]
    assert (laid["bank_total"] > 0) != bool(laid["sets"])  # "bank it" is the last option of a Spell
    assert all("complete_colours" in p for p in view["players"])


def test_each_phone_shows_its_own_hand_and_no_one_elses(tmp_path):
    app, service, host, deal = served(tmp_path)
    hands = service.table.current.state.hands
    phones = [join(app, seat) for seat in range(len(SEATS))]
    # card names the pages print anyway (labels, titles) cannot tell anything
    printed = {str(label) for label in deal.labels.values()}
    for seat, phone in enumerate(phones):
        mine = phone.get("/api/me").json["view"]["hand"]
        assert sorted(c["card"] for c in mine) == sorted(hands[seat])
    public = [host.get(p).get_data(as_text=True) for p in ("/host", "/api/table", "/api/board", "/", "/board")]
    for seat, hand in enumerate(hands):
        others = [phones[s].get("/api/me").get_data(as_text=True) for s in range(len(SEATS)) if s != seat]
        for card in set(hand) - {c for s, h in enumerate(hands) if s != seat for c in h}:
            if any(card in label for label in printed):
                continue
            quoted = json.dumps(card)  # as it would be sent ("5 Points" is in "Collect 5 Points")
            assert quoted in phones[seat].get("/api/me").get_data(as_text=True)  # the check can see it
            assert not any(quoted in body for body in public), f"{card} (seat {seat}) on a public page"
            assert not any(quoted in body for body in others), f"{card} (seat {seat}) on another phone"
