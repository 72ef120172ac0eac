"""Where the table is, said after the box starts again (a power cut, an update): the
game, its status line and who is asked what, so nobody has to read a screen to carry on.

Made only from the public table (the view every page shows and its public prompts): a
restart happens with everyone listening, so nothing a single seat may know is said.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.messages import _, _n

MOST_PROMPTS = 2
"""Prompts said one by one; more (every seat picking a card) are said by their count."""


def _asked(expect: Mapping[str, Any], seats: list[str]) -> str:
    """A public prompt with the name of whoever answers it, as the phones show it."""
    prompt, seat = expect["prompt"], expect.get("seat")
    if seat is None or not 0 <= seat < len(seats) or str(prompt).startswith(seats[seat]):
        return prompt
    return _("{name}: {prompt}", name=seats[seat], prompt=prompt)


def recap(table: Mapping[str, Any]) -> list[str]:
    """The lines to say after "Familiar is ready." for ``table``, the table service's
    public view; none when no game is set up."""
    title = table.get("title")
    if not table.get("game") or not title:
        return []
    if table.get("over"):
        return [_("{title} is over: its end is on the pages.", title=title)]
    lines: list[str] = [_("Back to {title}.", title=title)]
    status = (table.get("view") or {}).get("status")
    if isinstance(status, str) and status:
        lines.append(status)
    asked = [e for e in table.get("expects", []) if not e.get("secret") and not e.get("optional")]
    if len(asked) > MOST_PROMPTS:
        lines.append(_n("{count} answer is awaited.", "{count} answers are awaited.", len(asked)))
    else:
        lines += [_asked(e, list(table.get("seats", []))) for e in asked]
    return lines
