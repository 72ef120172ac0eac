"""Harry Potter Clue: the four wheels, each turned a notch clockwise by its face of the
black die, and whether the Dark Mark shows on the one just turned.

The rulebook does not say how many notches a wheel has or where its Dark Marks are, so
the host enters them once per board, as the ``wheels`` option (kept by the box, see
``Clue.kept_options``, and given again at each set-up, so the log still holds them)::

    {"gringotts": {"notches": 8, "dark_marks": [3, 6]}, ...}

Notch 0 is START (where every wheel begins, so no Dark Mark is there); a wheel turned
past its last notch comes back to START.  A wheel the host has not entered is still
counted, and the host says whether the Dark Mark shows, once per notch: the box keeps
each answer, and when the host says the wheel shows START again it knows the whole wheel
(its notches, and its Dark Marks) and asks no more for the rest of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import IllegalAction
from engine.args import whole_number
from engine.games.clue_rules import MOST_NOTCHES, WHEELS, wheel_place
from engine.games.clue_state import Wheel
from engine.messages import listing, words

_, _n = words("clue")

WHEELS_EXAMPLE = {face: {"notches": 8, "dark_marks": [3, 6]} for face in WHEELS}
"""The form of the ``wheels`` option, shown to the host, and the demo's virtual board
(not a default for a real one: neither the rulebook nor any published source found
gives the printed wheels' notches, so a real wheel is only counted as its board is)."""


def parse_wheels(raw: Any) -> list[Wheel]:
    """The four wheels from the ``wheels`` option (missing: none entered), validated."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise IllegalAction(_("wheels must be an object of wheel name to its notches and Dark Marks"))
    unknown = sorted(set(raw) - set(WHEELS))
    if unknown:
        raise IllegalAction(
            _("no wheel is called {name!r}: the wheels are {known}", name=str(unknown[0])[:40], known=listing(WHEELS))
        )
    return [_wheel(face, raw[face]) if face in raw else Wheel(face) for face in WHEELS]


def _wheel(face: str, raw: Any) -> Wheel:
    place = wheel_place(face)
    if not isinstance(raw, Mapping) or set(raw) - {"notches", "dark_marks"} or "notches" not in raw:
        raise IllegalAction(_("the {place} wheel needs notches and dark_marks, and nothing else", place=place))
    notches = whole_number(raw["notches"], 2, MOST_NOTCHES, _("the {place} wheel's notches", place=place))
    marks = raw.get("dark_marks", [])
    if not isinstance(marks, list):
        raise IllegalAction(_("the {place} wheel's dark_marks must be a list of notches", place=place))
    what = _("a Dark Mark of the {place} wheel", place=place)
    positions = [whole_number(m, 1, notches - 1, what) for m in marks]
    if len(set(positions)) != len(positions):
        raise IllegalAction(_("the {place} wheel names a Dark Mark notch twice", place=place))
    return Wheel(face, notches, sorted(positions))


def turn_wheel(wheel: Wheel) -> bool | None:
    """Turn one notch clockwise; whether the Dark Mark shows now (None: not known yet,
    the host must look)."""
    wheel.notch += 1
    if wheel.notches is not None:
        wheel.notch %= wheel.notches
    return shows_dark_mark(wheel)


def shows_dark_mark(wheel: Wheel) -> bool | None:
    """Whether the Dark Mark shows on the wheel now (None: not known)."""
    if wheel.notches is None:
        return wheel.learned.get(wheel.notch)
    return wheel.notch in wheel.dark_marks


def back_at_start(wheel: Wheel) -> None:
    """The host saw START again: the wheel has as many notches as it was turned, and its
    Dark Marks are where the host saw them on the way round."""
    wheel.notches, wheel.notch = wheel.notch, 0
    wheel.dark_marks = sorted(n for n, dark in wheel.learned.items() if dark)


def learned_layout(wheels: list[Wheel]) -> dict[str, dict[str, Any]]:
    """The wheels the box learned this game, in the form of the ``wheels`` option (so the
    host can enter them at the next set-up)."""
    return {w.face: {"notches": w.notches, "dark_marks": w.dark_marks} for w in wheels if w.learned and w.notches}


def wheel_of(wheels: list[Wheel], face: str) -> Wheel:
    return next(w for w in wheels if w.face == face)
