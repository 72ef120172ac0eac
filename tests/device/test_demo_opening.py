"""``familiar demo --game G --players N`` opens a table the game accepts, for every game
and every count the demo offers, or refuses the count before the box starts: the
demo used to die at start when its opening table was refused (Kampf at 6 players on
the default scenario, or at 2)."""

from __future__ import annotations

import contextlib
import io
from typing import Any
from unittest import mock

import pytest

from device import cli
from engine.actions import Action, IllegalAction
from engine.games import registry
from engine.table import Table


def opening(argv: list[str]) -> tuple[int, str, Any]:
    """What ``familiar demo`` would start (its first game) and its exit status and words,
    with the daemon not started."""
    started: list[Any] = []
    printed = io.StringIO()

    def serve(config: Any, first_game: Any = None, bots: bool = False) -> int:
        started.append(first_game)
        return 0

    with (
        mock.patch.object(cli, "_serve", serve),
        mock.patch("tempfile.mkdtemp", lambda prefix="": "/nonexistent/demo"),
        contextlib.redirect_stderr(printed),
    ):
        status = cli.main(["demo", "--no-bots", *argv])
    return status, printed.getvalue(), started[0] if started else None


@pytest.mark.parametrize("game", sorted(registry()))
@pytest.mark.parametrize("players", range(1, len(cli.DEMO_NAMES) + 1))
def test_the_demo_starts_every_count_it_offers_or_refuses_it_first(game: str, players: int) -> None:
    status, printed, first = opening(["--game", game, "--players", str(players)])
    if status == 2:
        assert first is None and "players, not" in printed, printed
        return
    assert status == 0, printed
    name, seats, options = first
    try:
        Table().attempt(Action("table.new", {"game": name, "seats": seats, "options": options}), 1)
    except IllegalAction as refused:
        pytest.fail(f"the demo's opening table is refused: {refused}")


def test_kampf_demo_offers_three_to_eight_players() -> None:
    started = [n for n in range(1, 9) if opening(["--game", "kampf", "--players", str(n)])[0] == 0]
    assert started == [3, 4, 5, 6, 7, 8]
