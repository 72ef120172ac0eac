"""Actions: everything that can happen at the table, as plain JSON-able records.

An action is the only way state changes.  The log of accepted actions *is* the game:
state is their fold, so persistence, crash recovery and undo are replays.  Actions
carry who acted (a seat, or ``None`` for the host or the box itself) because the
rules, not the transport, decide who may do what.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.messages import _

MAX_DEPTH = 16
"""Deepest nesting of lists and objects in an action's data.  No move needs more than a
few levels; a deep one is accepted by ``json`` on one thread and overflows the stack
when the log is replayed or dumped on another, so it is refused before it is logged."""
MAX_BYTES = 16 * 1024
"""Largest action data as logged JSON: a deck's names are a few kB."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is for the person who tried."""


def nesting_depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (a scalar is 0), without recursion,
    so that measuring a hostile value cannot itself overflow the stack."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, Mapping) else item if isinstance(item, (list, tuple)) else None
        if children is None:
            continue
        deepest = max(deepest, depth + 1)
        stack.extend((child, depth + 1) for child in children)
    return deepest


@dataclass(frozen=True)
class Action:
    """One thing done at the table.

    ``kind`` names it (``"roll"``, ``"vote"``...), ``data`` holds its JSON arguments and
    ``seat`` is the acting seat, or ``None`` when the host (or the box) acts.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not self.kind:
            raise IllegalAction(_("an action needs a kind"))
        if not isinstance(self.data, Mapping):
            raise IllegalAction(_("action data must be an object"))
        if self.seat is not None and (not isinstance(self.seat, int) or isinstance(self.seat, bool) or self.seat < 0):
            raise IllegalAction(_("seat must be a non-negative integer"))
        if nesting_depth(self.data) > MAX_DEPTH:
            raise IllegalAction(_("action data nests deeper than {most} levels", most=MAX_DEPTH))
        try:
            size = len(json.dumps(dict(self.data)))
        except (TypeError, ValueError) as exc:
            raise IllegalAction(_("action data must be JSON: {reason}", reason=str(exc))) from None
        if size > MAX_BYTES:
            raise IllegalAction(_("action data is larger than {most} kB", most=MAX_BYTES // 1024))

    def to_json(self) -> str:
        """The form stored in the log (stable key order, so logs diff cleanly)."""
        return json.dumps({"kind": self.kind, "data": dict(self.data), "seat": self.seat}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Action:
        """Parse a stored or submitted action, refusing anything malformed."""
        try:
            raw = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise IllegalAction(_("not JSON: {reason}", reason=str(exc))) from None
        return cls.from_dict(raw)

    @classmethod
    def from_dict(cls, raw: Any) -> Action:
        """Build an action from a decoded JSON object, refusing unknown fields."""
        if not isinstance(raw, dict):
            raise IllegalAction(_("an action must be a JSON object"))
        unknown = set(raw) - {"kind", "data", "seat"}
        if unknown:
            raise IllegalAction(_("unknown action fields: {unknown}", unknown=", ".join(sorted(unknown))))

        return cls(kind=raw.get("kind", ""), data=raw.get("data") or {}, seat=raw.get("seat"))
