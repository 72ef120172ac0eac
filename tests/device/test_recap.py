"""After a restart the box says where the table is (issue 50.10), from the public
table only: the game, its status and who is asked what, never a seat's secret."""

from __future__ import annotations

from device.recap import recap
from device.store import Store
from device.table_service import TableService
from engine.actions import Action
from web.language import Language

SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def restarted(tmp_path, game: str, seats: list[str]) -> TableService:
    first = TableService(Store(tmp_path / "db"))
    first.submit(Action("table.new", {"game": game, "seats": seats}))
    first.store.close()
    return TableService(Store(tmp_path / "db"))


def test_a_restart_says_the_game_its_status_and_who_is_asked(tmp_path) -> None:
    service = restarted(tmp_path, "voldemort", SEATS)
    table = service.public_view()
    lines = [Language("en").text(line) for line in recap(table)]
    assert lines[0] == "Back to Secret Voldemort."
    assert lines[1] == table["view"]["status"]
    (asked,) = table["expects"]
    minister = SEATS[asked["seat"]]
    assert lines[2:] == [asked["prompt"] if asked["prompt"].startswith(minister) else f"{minister}: {asked['prompt']}"]
    german = [Language("de").text(line) for line in recap(table)]
    assert german[0] == "Zurück bei Secret Voldemort."


def test_many_prompts_are_said_by_their_count(tmp_path) -> None:
    service = restarted(tmp_path, "unmask", SEATS)  # every seat picks a Role card
    lines = [Language("en").text(line) for line in recap(service.public_view())]
    assert lines[0].startswith("Back to Harry Potter")
    assert lines[-1] == "5 answers are awaited."


def test_no_game_no_recap_and_an_ended_game_says_it_is_over(tmp_path) -> None:
    assert recap(TableService(Store(tmp_path / "db")).public_view()) == []
    ended = {"game": "voldemort", "title": "Secret Voldemort", "over": True, "view": {}, "expects": [], "seats": []}
    assert [str(line) for line in recap(ended)] == ["Secret Voldemort is over: its end is on the pages."]


def test_the_box_says_the_recap_after_it_is_ready_again(tmp_path) -> None:
    from gpiozero import Device

    from support.daemon import make_daemon
    from support.waiting import wait_for

    first = make_daemon(tmp_path, source="usb:/dev/familiar-no-such-camera")
    first.service.submit(Action("table.new", {"game": "voldemort", "seats": SEATS}))
    first.close()
    Device.pin_factory = None
    again = make_daemon(tmp_path, source="usb:/dev/familiar-no-such-camera")
    try:
        again.start()
        assert wait_for(lambda: "Back to Secret Voldemort." in again.narrator.history, timeout=30)
        history = again.narrator.history
        assert history.index("Familiar is ready.") < history.index("Back to Secret Voldemort.")
    finally:
        again.close()
        Device.pin_factory = None
