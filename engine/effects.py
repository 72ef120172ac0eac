"""Effects: what the box does in answer to an action, beyond the state itself.

Only *transient* things are effects.  Anything that must survive a restart, an undo
or a phone reconnecting is derived from state instead (track lights via
``Game.tracks``, what the table waits for via ``Game.expects``, what each seat
may see via ``Game.private_view``), so that replaying the log restores it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Say:
    """A line the speaker says to the whole table.  Never carries a secret."""

    text: str


@dataclass(frozen=True)
class Notice:
    """A message for the host's screen (a warning, a reminder, a rule explained)."""

    text: str


@dataclass(frozen=True)
class StartTimer:
    """Start a table timer; the box sends ``timer_done`` with ``name`` when it runs out."""

    name: str
    seconds: float


Effect = Say | Notice | StartTimer


@dataclass(frozen=True)
class Track:
    """A board track shown on a row of LEDs: ``value`` of ``length`` spaces lit.

    ``attention`` asks the lights to blink the current space (a penalty in force).
    """

    value: int
    length: int
    attention: bool = False


@dataclass(frozen=True)
class Expect:
    """Something the table is waiting for, shown to the host (or one seat) as a prompt.

    ``kind`` says which input answers it: ``"dice"`` (a roll, ``count`` dice, read by
    the camera or typed), ``"cards"`` (revealed cards), ``"choice"`` (pick from
    ``options``; ``count`` of them), ``"vote"`` (yes/no from each listed seat) or
    ``"confirm"`` (the host presses next).  ``action`` is the action kind that answers
    it.  ``seat`` is whose input it is (``None``: the host).  A ``secret`` prompt is
    shown only to that seat, never on the host page.  A dice roll with ``symbols`` may
    hold symbol dice taught to the box (read by face name); without, only pipped dice
    answer it, and the box does not look for taught dice in the tray.
    """

    kind: str
    action: str
    prompt: str
    seat: int | None = None
    count: int | None = None
    options: tuple[str, ...] = ()
    secret: bool = False
    symbols: bool = False

    @classmethod
    def choice(
        cls,
        action: str,
        prompt: str,
        options: tuple[str, ...],
        seat: int | None = None,
        count: int = 1,
        secret: bool = False,
    ) -> Expect:
        """Pick ``count`` of ``options``: the commonest prompt of every game."""
        return cls("choice", action, prompt, seat=seat, count=count, options=options, secret=secret)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "action": self.action,
            "prompt": self.prompt,
            "seat": self.seat,
            "count": self.count,
            "options": list(self.options),
            "secret": self.secret,
            "symbols": self.symbols,
        }
