"""What a phone was shown before an undo took it back (the core's ``seen``), as the
phone first showed it.

The core remembers it as the seat's secrets were (state fields: ``{"crucio": {3:
"death_eater"}}``), which no page may show.  Here each memory is put through the game's
own presentation, the same as the seat's secret view: the seat's secrets now with the
remembered ones laid over them, keeping only what that changes (Crucio's "Dan: Death
Eaters").  The pages draw the result as they draw the secret view, names and words in
the table's language; a game with no presentation of its own shows no memory rather than
raw data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import secrets


def shown_seen(game: Any, state: Any, seat: int, seen: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each remembered secret of ``seat`` as its secret view showed it (see the module)."""
    present = getattr(game, "present", None)
    if present is None or not seen:
        return []
    public, mine = secrets.redacted(state), secrets.of_seat(state, seat)
    now = present(public, seat, mine)
    shown = []
    for memory in seen:
        then = present(public, seat, {**mine, **memory})
        changed = {key: value for key, value in then.items() if value != now.get(key)}
        if changed:
            shown.append(changed)
    return shown
