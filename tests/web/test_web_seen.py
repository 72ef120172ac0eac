"""What a phone saw before an undo (the core's ``seen``, from an older log's undone
reveal) comes to the phone as it first showed it (issue 45.5): names and words in the
table's language, drawn like the secret view, never the state's raw data."""

from __future__ import annotations

import json

import pytest

from device.store import Store
from device.table_service import TableService
from engine.games.voldemort import Voldemort
from web import create_app

SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def phone(tmp_path, language: str):
    service = TableService(Store(tmp_path / "table.db"), games={"voldemort": Voldemort()}, language=language)
    app = create_app(service, None, public_url="http://familiar.test:8080")
    host = app.test_client()
    host.get("/host")
    started = host.post("/api/host/act", json={"kind": "table.new", "data": {"game": "voldemort", "seats": SEATS}})
    assert started.status_code == 200, started.json
    ann = app.test_client()
    assert ann.get(f"/j/{service.join_code()}").status_code == 303
    assert ann.post("/api/join", json={"seat": 0}).status_code == 200
    return service, ann


def remember(service: TableService, seat: int, memory: dict) -> None:
    """The memory an older log's undo left (the box now refuses such an undo): as the
    core keeps it, the seat's secret fields as they were."""
    service.table.seen.setdefault(service.table.game_seq, {}).setdefault(seat, []).append(memory)
    service.touch()


@pytest.mark.parametrize(
    ("language", "party", "policies"),
    [
        ("en", "Death Eater", ["Order", "Dark Arts", "Order"]),
        ("de", "Dunkle Mächte", ["Orden", "Dunkle Künste", "Orden"]),
    ],
)
def test_a_remembered_crucio_and_stupor_come_as_the_phone_showed_them(tmp_path, language, party, policies) -> None:
    service, ann = phone(tmp_path, language)
    state = service.table.current.state
    eater = next(s for s in range(1, 5) if state.roles[s] != "order")
    remember(service, 0, {"crucio": {eater: "death_eater"}})
    remember(service, 0, {"peeks": ["order", "dark_arts", "order"]})
    seen = ann.get("/api/me").json["seen"]
    assert seen[0] == {"crucio": [{"name": SEATS[eater], "party": party}]}
    assert seen[1] == {"stupor": policies}
    said = json.dumps(seen, ensure_ascii=False)
    for raw in ("death_eater", "dark_arts", '"order"', "peeks"):
        assert raw not in said, raw


def test_no_memory_no_seen(tmp_path) -> None:
    service, ann = phone(tmp_path, "en")
    assert ann.get("/api/me").json["seen"] == []
