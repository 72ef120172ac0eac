"""Options kept per board (a board's wheels): saved with the game that started with them,
in the same transaction as its log entry, offered at the next set-up and filled in when
the host leaves them out; a saved one that no longer fits is set aside with a notice.

The game here is a tiny one declared below, so the mechanism is tested without any
real game's rules."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from device.store import Store
from device.table_service import TableService
from engine.actions import Action, IllegalAction
from engine.effects import Effect
from engine.game import Turn
from support.web import SecretsState, SecretWords

LAYOUT = {"holes": [2, 5]}


class BoardWords(SecretWords):
    """Secret words on a board whose ``board`` the box keeps: a list of whole numbers."""

    name = "board_words"
    kept_options = {"board": LAYOUT}

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[SecretsState, list[Effect]]:
        board = options.get("board")
        if board is not None and not (
            isinstance(board, dict) and all(isinstance(h, int) for h in board.get("holes", [None]))
        ):
            raise IllegalAction("a board is {holes: [whole numbers]}")
        return super().setup(options, turn)


def served(path: Path) -> TableService:
    return TableService(Store(path / "table.db"), games={"board_words": BoardWords()})


def start(service: TableService, **options: Any) -> dict[str, Any]:
    """A new game as the host sends it; the options the game got, as logged."""
    service.submit(Action("table.new", {"game": "board_words", "seats": ["Ann", "Bob"], "options": options}))
    return dict(service.store.entries()[-1].action.data.get("options", {}))


def test_the_store_keeps_options_with_the_log_entry_across_a_restart(tmp_path):
    store = Store(tmp_path / "table.db")
    store.append(Action("table.new", {"game": "g"}), 1, keep=("g", {"board": LAYOUT, "other": None}))
    store.close()
    again = Store(tmp_path / "table.db")
    assert {k: json.loads(v) for k, v in again.kept("g").items()} == {"board": LAYOUT}
    assert again.kept("h") == {}
    again.append(Action("table.new", {"game": "g"}), 2, keep=("g", {"board": None}))  # None forgets
    assert again.kept("g") == {}


def test_the_kept_options_and_the_log_entry_are_written_together_or_not_at_all(tmp_path):
    store = Store(tmp_path / "table.db")
    store.db.execute("CREATE TRIGGER refuse BEFORE INSERT ON kept_options BEGIN SELECT RAISE(ABORT, 'no'); END")
    with pytest.raises(sqlite3.IntegrityError):
        store.append(Action("table.new", {"game": "g"}), 1, keep=("g", {"board": LAYOUT}))
    assert store.entries() == []
    assert store.kept("g") == {}


def test_a_board_entered_once_is_offered_and_filled_in_at_the_next_set_up(tmp_path):
    service = served(tmp_path)
    assert service.kept_options("board_words") == {"board": None}
    assert start(service, board=LAYOUT) == {"board": LAYOUT}
    service.store.close()
    service = served(tmp_path)  # a restart: the box still knows the board
    assert service.kept_options("board_words") == {"board": LAYOUT}
    assert start(service) == {"board": LAYOUT}  # left out: the saved one, in the log itself
    other = {"holes": [7]}
    assert start(service, board=other) == {"board": other}  # the second board replaces it
    assert service.kept_options("board_words") == {"board": other}
    assert start(service, board=None) == {"board": None}  # cleared on purpose: forgotten
    assert service.kept_options("board_words") == {"board": None}
    assert service.kept_options("no such game") == {}


def test_a_refused_start_keeps_nothing(tmp_path):
    service = served(tmp_path)
    start(service, board=LAYOUT)
    with pytest.raises(IllegalAction):
        start(service, board={"holes": ["x"]})
    assert service.kept_options("board_words") == {"board": LAYOUT}


@pytest.mark.parametrize("saved", ['{"holes": ["x"]}', "{not json", "[" * 100_000])
def test_a_saved_board_that_no_longer_fits_is_set_aside_with_one_notice(tmp_path, saved):
    service = served(tmp_path)
    service.store.db.execute(
        "INSERT INTO kept_options (game, name, value, at) VALUES ('board_words', 'board', ?, 0)", (saved,)
    )
    assert service.kept_options("board_words") == {"board": None}
    assert service.kept_options("board_words") == {"board": None}
    notices = [n for n in service.notices if "The saved option 'board' for Secret words was set aside" in n]
    assert len(notices) == 1
    assert start(service) == {}  # the game starts as if nothing were saved
