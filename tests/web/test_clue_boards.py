"""Harry Potter Clue's wheels are entered once per board: through the JSON API, the box
offers the last game's wheels for the next one and starts it with them when the host
leaves them out; a saved layout that no longer fits is set aside with a notice, and the
game still starts (never a 5xx)."""

from __future__ import annotations

import json

from device.store import Store
from device.table_service import TableService
from engine.games.clue import Clue
from engine.games.clue_wheels import parse_wheels
from support.clue import WHEELS
from web import create_app

SEATS = ["Ann", "Bob", "Cy"]


def served(tmp_path):
    service = TableService(Store(tmp_path / "table.db"), games={"clue": Clue()})
    host = create_app(service, None, public_url="http://familiar.test:8080").test_client()
    assert host.get("/host").status_code == 200
    return service, host


def new_game(host, **options):
    data = {"game": "clue", "seats": SEATS, "options": options}
    return host.post("/api/host/act", json={"kind": "table.new", "data": data})


def offered(host):
    return next(g for g in host.get("/api/host/games").json["games"] if g["name"] == "clue")["kept"]


def test_the_second_game_gets_the_saved_wheels_by_default(tmp_path):
    service, host = served(tmp_path)
    assert offered(host) == {"wheels": None}
    assert new_game(host, wheels=WHEELS).status_code == 200
    assert offered(host) == {"wheels": WHEELS}
    assert new_game(host, cards="physical").status_code == 200  # no wheels sent
    assert service.table.current.state.wheels == parse_wheels(WHEELS)
    assert service.store.entries()[-1].action.data["options"]["wheels"] == WHEELS  # the log replays it


def test_another_board_replaces_the_saved_wheels_and_a_bad_one_changes_nothing(tmp_path):
    service, host = served(tmp_path)
    assert new_game(host, wheels=WHEELS).status_code == 200
    other = {"gringotts": {"notches": 9, "dark_marks": [4, 8]}}
    bad = {"gringotts": {"notches": 9, "dark_marks": [9]}}  # notch 9 is START again
    refused = new_game(host, wheels=bad)
    assert refused.status_code == 409 and "Gringotts" in refused.json["error"]
    assert offered(host) == {"wheels": WHEELS}
    assert new_game(host, wheels=other).status_code == 200
    assert offered(host) == {"wheels": other}


def test_a_saved_layout_that_no_longer_fits_is_set_aside_with_a_notice(tmp_path):
    service, host = served(tmp_path)
    outdated = {"gringotts": {"notches": 8, "dark_marks": [3], "colour": "red"}}
    service.store.db.execute(
        "INSERT INTO kept_options (game, name, value, at) VALUES ('clue', 'wheels', ?, 0)", (json.dumps(outdated),)
    )
    listed = host.get("/api/host/games")
    assert listed.status_code == 200 and offered(host) == {"wheels": None}
    notices = host.get("/api/table").json["notices"]
    assert any("The saved option 'wheels' for Harry Potter Clue was set aside" in n for n in notices)
    assert new_game(host).status_code == 200
    assert service.table.current.state.wheels == parse_wheels(None)


def test_the_form_names_the_kept_wheels_in_the_tables_language(tmp_path):
    service = TableService(Store(tmp_path / "table.db"), games={"clue": Clue()}, language="de")
    host = create_app(service, None, public_url="http://familiar.test:8080").test_client()
    assert host.get("/host").status_code == 200
    listed = next(g for g in host.get("/api/host/games").json["games"] if g["name"] == "clue")
    assert listed["labels"]["wheels"] == "Drehscheiben"


def test_the_form_shows_the_wheels_form_by_an_example_that_the_box_takes(tmp_path):
    service, host = served(tmp_path)
    listed = next(g for g in host.get("/api/host/games").json["games"] if g["name"] == "clue")
    example = listed["kept_examples"]["wheels"]
    assert set(example) == {"gringotts", "hogwarts-castle", "hogs-head", "ministry-of-magic"}
    assert offered(host) == {"wheels": None}  # an example is shown, never kept unasked
    assert new_game(host, wheels=example).status_code == 200
