"""Dice results as the rules see them: validation and how a roll is said aloud.

A die is a pip value (1..faces) or, where a game allows it, the name of a face of a
symbol die taught to the box (Harry Potter Clue's black die: ``"dark-mark"``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.actions import IllegalAction
from engine.messages import _, _n

FACE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""What a taught face may be called: the same rule as ``vision.dice.taught`` names
faces by (the engine imports nothing of vision, so it checks its input itself)."""


def parse_roll(raw: Any, count: int | None = None, faces: int = 6, named: bool = False) -> list[Any]:
    """Validate a roll from an action: a list of ints 1..faces (``count`` of them if
    given); with ``named``, taught face names are dice too."""
    if not isinstance(raw, list) or not raw:
        raise IllegalAction(_("a roll is a non-empty list of dice values"))
    for v in raw:
        if named and isinstance(v, str) and FACE_NAME.fullmatch(v):
            continue
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= faces:
            if named:
                raise IllegalAction(
                    _("each die must be a whole number from 1 to {faces} or a taught face's name", faces=faces)
                )
            raise IllegalAction(_("each die must be a whole number from 1 to {faces}", faces=faces))
    if count is not None and len(raw) != count:
        raise IllegalAction(
            _n("expected {count} die, got {got}", "expected {count} dice, got {got}", count, got=len(raw))
        )
    return list(raw)


def pip_total(values: Sequence[Any]) -> int:
    """The sum of the pipped dice (symbol faces count nothing)."""
    return sum(v for v in values if isinstance(v, int))


LONG_ROLL = 6
"""More pipped dice than this are said by count and total (``"22 dice: 79"``): a list of
twenty-two numbers is not heard; the pages show each die."""


def in_order(values: Sequence[Any]) -> list[Any]:
    """A roll in the one order the box lists and says it: pips from low to high (pairs
    together), then the symbol faces as they were read."""
    return sorted(v for v in values if isinstance(v, int)) + [v for v in values if isinstance(v, str)]


def say_roll(values: Sequence[Any]) -> str:
    """Spoken form, in :func:`in_order` so the table hears pairs together, symbols after
    them: ``"3, 3, 5: 11"``, ``"4; dark mark"``; a long roll by its count and total."""
    ordered = [v for v in in_order(values) if isinstance(v, int)]
    if len(ordered) > LONG_ROLL and not any(isinstance(v, str) for v in values):
        return _n("{count} die: {total}", "{count} dice: {total}", len(ordered), total=sum(ordered))
    listed = ", ".join(str(v) for v in ordered)
    symbols = ", ".join(re.sub(r"[-_.]+", " ", v) for v in values if isinstance(v, str))
    pips = _("{dice}: {total}", dice=listed, total=sum(ordered)) if len(ordered) > 1 else listed
    if pips and symbols:
        return _("{pips}; {symbols}", pips=pips, symbols=symbols)
    return pips or _("{symbols}", symbols=symbols)
