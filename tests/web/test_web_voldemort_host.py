"""The host page for Secret Voldemort: the step to teach its two policy cards once (the
games list gives it filled in, in the table's language, under names the game reads
back), and its new-game options sent as the game's own values on a German box."""

from __future__ import annotations

import pytest

from device.store import Store
from device.table_service import TableService
from engine.games.voldemort import Voldemort
from engine.games.voldemort_legislation import policy_kind
from web import create_app


@pytest.mark.parametrize(
    ("language", "names"), [("en", ["Order Policy", "Dark Arts Policy"]), ("de", ["Orden", "Dunkle Künste"])]
)
def test_the_games_list_fills_in_the_policy_cards_to_teach(tmp_path, language: str, names: list[str]) -> None:
    service = TableService(Store(tmp_path / "table.db"), games={"voldemort": Voldemort()}, language=language)
    host = create_app(service, None, public_url="http://familiar.test:8080").test_client()
    assert host.get("/host").status_code == 200
    page = host.get("/host").get_data(as_text=True)
    assert 'id="teach-games"' in page
    (voldemort,) = host.get("/api/host/games").json["games"]
    (deck,) = voldemort["teach"]
    assert (deck["deck"], deck["rows"], deck["cols"], deck["names"]) == ("secret-voldemort", 1, 2, names)
    assert [policy_kind({"card": name}) for name in deck["names"]] == ["order", "dark_arts"]
    assert deck["title"] and deck["how"] and "Secret Voldemort" in deck["title"]


def test_the_games_list_sends_the_games_own_option_values_and_shows_them_translated(tmp_path) -> None:
    service = TableService(Store(tmp_path / "table.db"), games={"voldemort": Voldemort()}, language="de")
    host = create_app(service, None, public_url="http://familiar.test:8080").test_client()
    host.get("/host")
    (voldemort,) = host.get("/api/host/games").json["games"]
    assert voldemort["options"]["spells"] == ["original game's board", "a spell on every Dark Arts policy"]
    assert voldemort["option_labels"]["spells"][1] == "ein Zauber bei jedem Gesetz der Dunklen Künste"
    options = {key: values[1] for key, values in voldemort["options"].items() if key != "voldemort_knows"}
    seats = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    started = host.post(
        "/api/host/act", json={"kind": "table.new", "data": {"game": "voldemort", "seats": seats, "options": options}}
    )
    assert started.status_code == 200, started.json
    state = service.table.current.state
    assert (state.physical, state.few_alive_limits, state.every_spell) == (True, True, True)
