"""The games the box knows, by the name stored in the action log."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.games.clue import Clue
from engine.games.deal import Deal
from engine.games.dice_reader import DiceReader
from engine.games.kampf import Kampf
from engine.games.unmask import Unmask
from engine.games.voldemort import Voldemort


def registry() -> dict[str, Game[Any]]:
    """Every game by its log name; adding a game is one entry here."""
    games: list[Game[Any]] = [Clue(), Deal(), DiceReader(), Kampf(), Unmask(), Voldemort()]
    return {game.name: game for game in games}
