"""The German left-overs of a game night (issue 50.9): the new-game form names every
option and its values in the table's words (with units), the box's own words (parts,
states, the status light) are in the pages' catalog, the timers and tracks are named
by their games, the narrator's hardware notice is a message, and "Resume" and "Next"
are two different German words."""

from __future__ import annotations

import re

import pytest

from device.store import Store
from device.table_service import TableService
from engine.games.clue import Clue
from engine.games.kampf import Kampf
from engine.games.unmask import Unmask
from engine.messages import Msg
from web import create_app
from web.language import Language, catalog, script_words

RAW_ID = re.compile(r"^[a-z0-9_ ]+$")
"""A value the game checks, shown as it is: lowercase words or a number, no unit."""


@pytest.fixture
def games_list(tmp_path):
    service = TableService(Store(tmp_path / "table.db"), language="de")
    host = create_app(service, None, public_url="http://familiar.test:8080").test_client()
    host.get("/host")
    return {game["name"]: game for game in host.get("/api/host/games").json["games"]}


def test_every_option_of_every_game_is_named_and_shown_in_german(games_list) -> None:
    shown = []
    for game in games_list.values():
        for name, values in game["option_labels"].items():
            label = game["labels"].get(name)
            assert label and not RAW_ID.match(label), (game["name"], name, label)
            assert len(values) == len(game["options"][name])
            shown += [
                (game["name"], name, str(value), sent)
                for value, sent in zip(values, game["options"][name], strict=True)
            ]
    # a printed scenario's name is sent and shown alike; an id or a bare number is not shown
    raw = [entry for entry in shown if entry[2] == entry[3] and RAW_ID.match(entry[2])]
    assert shown and raw == []


def test_the_form_words_say_what_the_values_mean(games_list) -> None:
    kampf = games_list["kampf"]
    assert kampf["option_labels"]["discussion"] == ["10 Minuten", "5 Minuten", "3 Minuten"]
    assert kampf["options"]["discussion"] == ["10", "5", "3"]  # sent as the game checks them
    assert kampf["labels"]["ginny_luna"] == "Wenn Ginny auf Luna zeigt"
    assert games_list["unmask"]["option_labels"]["talk"] == ["Die Grundlagen", "Das Wesentliche", "Alles erlaubt"]
    # the form's name for an option wins over a view's label for the same key
    assert games_list["clue"]["labels"]["cards"] == "Karten"


@pytest.mark.parametrize(
    ("game", "key", "german"),
    [(Kampf(), "discussion", "Diskussion"), (Unmask(), "threat", "Bedrohungsleiste"), (Clue(), "floo", "Flohpulver")],
)
def test_the_timers_and_tracks_are_named_by_their_games(game, key: str, german: str) -> None:
    assert Language("de").text(game.labels[key]) == german


def test_the_box_words_of_the_pages_are_german() -> None:
    words = script_words("de")
    for english in ["attention", "waiting", "ready", "off", "ok", "missing", "simulated", "Camera", "Speaker"]:
        assert words[english] != english, english
    assert words["missing: WAV files only"] == "fehlt: nur WAV-Dateien"


def test_resume_and_next_are_two_german_words() -> None:
    pages = catalog("de", "messages")
    assert pages.gettext("Next") != pages.gettext("Resume")


def test_the_narrators_notice_without_a_sound_card_is_said_in_the_tables_language(monkeypatch) -> None:
    from device import narrator
    from device.config import Config

    monkeypatch.setattr(narrator, "find_sound_card", lambda: None)
    notices: list[str] = []
    speaking = narrator.Narrator.from_config(Config(), on_problem=notices.append)
    try:
        (notice,) = notices
        assert isinstance(notice, Msg)
        assert Language("de").text(notice).startswith("keine Soundkarte gefunden (aplay -l)")
    finally:
        speaking.close()


def test_a_missing_camera_is_explained_in_the_tables_language() -> None:
    from device.daemon import _failure
    from vision.camera import CameraError
    from vision.camera.base import NO_CAMERA_HINT

    notice = _failure(CameraError(f"no camera at /dev/video9: {NO_CAMERA_HINT}"))
    german = Language("de").text(notice)
    assert german.startswith("Die Kamera funktioniert nicht (no camera at /dev/video9): schließt")
    assert NO_CAMERA_HINT not in german
    assert _failure(CameraError("the sensor overheated")) == "the sensor overheated"  # no advice to translate
