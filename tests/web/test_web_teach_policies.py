"""The host page's step to teach Secret Voldemort's two policy cards once: the games list
gives it filled in, in the table's language, under names the game reads back."""

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
