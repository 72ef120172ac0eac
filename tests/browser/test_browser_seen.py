"""A phone's memory of a secret an older log's undo took back (issue 45.5) is drawn in
Debian's chromium as the secret view draws it: names and the table's words, never
the state's raw ids."""

from __future__ import annotations

from device.store import Store
from device.table_service import TableService
from engine.actions import Action
from engine.games.voldemort import Voldemort
from support.browser import MARKS, PER_CLIENT, join, reveal
from web import create_app
from web.serve import serve

pytestmark = MARKS
SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def test_the_phone_shows_what_it_saw_before_an_undo_in_words(browser, tmp_path) -> None:
    service = TableService(Store(tmp_path / "table.db"), games={"voldemort": Voldemort()}, language="de")
    service.submit(Action("table.new", {"game": "voldemort", "seats": SEATS}))
    state = service.table.current.state
    eater = next(s for s in range(1, 5) if state.roles[s] != "order")
    # as an older log's undone Crucio left it (the box now refuses that undo)
    service.table.seen.setdefault(service.table.game_seq, {})[0] = [{"crucio": {eater: "death_eater"}}]
    server = serve(
        create_app(service, None, public_url="http://familiar.test:8080"), "127.0.0.1", 0, per_client=PER_CLIENT
    )
    try:
        ann = join(browser, f"http://127.0.0.1:{server.port}", "Ann", service.join_code())
        shown = reveal(ann)
        memory = shown[shown.index("Vor dem Zurücknehmen gesehen") :]
        assert SEATS[eater] in memory and "Dunkle Mächte" in memory, memory
        for raw in ("death_eater", "{", "crucio"):
            assert raw not in memory, raw
    finally:
        server.stop()
