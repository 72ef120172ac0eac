"""Dice results as the rules see them: validation and how a roll is said aloud."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import IllegalAction


def parse_roll(raw: Any, count: int | None = None, faces: int = 6) -> list[int]:
    """Validate a roll from an action: a list of ints 1..faces (``count`` of them if given)."""
    if not isinstance(raw, list) or not raw:
        raise IllegalAction("a roll is a non-empty list of dice values")
    if any(not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= faces for v in raw):
        raise IllegalAction(f"each die must be a whole number from 1 to {faces}")
    if count is not None and len(raw) != count:
        raise IllegalAction(f"expected {count} dice, got {len(raw)}")
    return list(raw)


def say_roll(values: Sequence[int]) -> str:
    """Spoken form, sorted so the table hears pairs together: ``"3, 3, 5: 11"``."""
    ordered = sorted(values)
    listed = ", ".join(str(v) for v in ordered)
    return f"{listed}: {sum(ordered)}" if len(ordered) > 1 else listed
