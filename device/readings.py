"""From a settled camera frame to a table action, or to the host for confirmation.

The camera never decides alone when it is unsure: a reading with an unsure die, or
any die below ``confirm_below``, is parked here as *pending* with its photo, and the
host confirms it with one tap (or corrects it) on the host page.  A confident
reading that the rules refuse (say four dice when the Leader should roll five) is
parked too, with the rule's message, instead of being lost.
"""

from __future__ import annotations

import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from engine.actions import Action, IllegalAction
from engine.effects import Expect
from engine.messages import _, said

MAX_PENDING = 8
SAME_PLACE_PX = 6.0
"""Dice within this distance of where they lay, with the same faces, have not been
rolled: the settle detector can hand out a frame again after a deep shadow or a lamp
switched on, and reading it as a new roll would cost the Leader a roll."""
MARK_UNSURE = (0, 0, 255)
MARK_SURE = (0, 200, 0)


@dataclass
class Pending:
    """A reading waiting for the host."""

    id: str
    kind: str
    action: str
    values: list[Any]
    unsure: list[int]
    confidence: float
    why: str
    photo: bytes = field(repr=False, default=b"")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "action": self.action,
            "values": self.values,
            "unsure": self.unsure,
            "confidence": self.confidence,
            "why": self.why,
        }


def marked_photo(frame: np.ndarray, boxes: list[tuple[list, bool]]) -> bytes:
    """JPEG of the frame with each reading's outline drawn: red where unsure."""
    image = frame.copy()
    for corners, unsure in boxes:
        pts = np.array(corners, dtype=np.int32).reshape(-1, 1, 2)
        cv2.polylines(image, [pts], True, MARK_UNSURE if unsure else MARK_SURE, 2)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return data.tobytes() if ok else b""


class ReadingDesk:
    """Routes dice readings: confident ones become actions, the rest go to the host."""

    def __init__(self, submit: Callable[[Action], Any], confirm_below: float) -> None:
        self.submit = submit
        self.confirm_below = confirm_below
        self._pending: OrderedDict[str, Pending] = OrderedDict()
        self._lock = threading.Lock()
        self._last: list[tuple[Any, float, float]] = []

    def dice(self, frame: np.ndarray, reading: Any, expect: Expect | None) -> str:
        """Handle one settled dice reading; returns what happened, for the log."""
        dice = list(reading.dice)
        seen = [(d.value, d.x, d.y) for d in dice]
        if not dice or self._unmoved(seen):
            return "empty tray" if not dice else "same dice in the same places: not a roll"
        self._last = seen
        unsure = [i for i, d in enumerate(dice) if d.value is None or d.confidence < self.confirm_below]
        return self._route(frame, "dice", [d.value for d in dice], unsure, dice, expect)

    def cards(self, frame: np.ndarray, cards: list[Any], data: Callable[[str], dict], expect: Expect | None) -> str:
        """Handle revealed cards: each known card is sent with its deck data (e.g. its dice
        value, whether it is a Curse); an unknown or doubtful card goes to the host."""
        if not cards:
            return "no cards"
        unsure = [i for i, c in enumerate(cards) if c.name is None or c.confidence < self.confirm_below]
        values = [{"card": c.name, **(data(c.name) if c.name else {})} for c in cards]
        return self._route(frame, "cards", values, unsure, cards, expect)

    def _route(
        self,
        frame: np.ndarray,
        kind: str,
        values: list[Any],
        unsure: list[int],
        items: list[Any],
        expect: Expect | None,
    ) -> str:
        """Submit a sure reading the table waits for; park anything else for the host."""
        if expect is None:  # nothing it could answer: the host would only be refused
            return f"no {kind} were expected: not read"
        action = expect.action
        if not unsure:
            try:
                self.submit(Action(action, {kind: values}))
                return f"read {values}"
            except IllegalAction as exc:
                why = said(exc)
        else:
            why = _("some dice are unclear") if kind == "dice" else _("some cards are unclear")
        photo = marked_photo(frame, [(list(item.corners), i in unsure) for i, item in enumerate(items)])
        confidence = min(item.confidence for item in items)
        self._park(Pending(secrets.token_hex(6), kind, action, values, unsure, round(confidence, 3), why, photo))
        return f"pending: {why}"

    def _unmoved(self, seen: list[tuple[Any, float, float]]) -> bool:
        """True when every die has the same face at (nearly) the same place as last time."""
        if len(seen) != len(self._last):
            return False
        unmatched = list(self._last)
        for value, x, y in seen:
            match = next((m for m in unmatched if m[0] == value and math.dist((x, y), m[1:]) <= SAME_PLACE_PX), None)
            if match is None:
                return False
            unmatched.remove(match)
        return True

    def _park(self, pending: Pending) -> None:
        with self._lock:
            self._pending[pending.id] = pending
            while len(self._pending) > MAX_PENDING:
                self._pending.popitem(last=False)

    def pending(self) -> list[dict[str, Any]]:
        """The readings waiting for the host, newest first."""
        with self._lock:
            return [p.to_json() for p in reversed(self._pending.values())]

    def keep_only(self, answering: set[str]) -> int:
        """Drop the readings that can no longer answer anything the table waits for (their
        action is not among ``answering``): tapping "Right" on one would only be refused.
        Returns how many went."""
        with self._lock:
            stale = [key for key, p in self._pending.items() if p.action not in answering]
            for key in stale:
                del self._pending[key]
            return len(stale)

    def photo(self, reading_id: str) -> bytes | None:
        with self._lock:
            found = self._pending.get(reading_id)
            return found.photo if found else None

    def resolve(self, reading_id: str, values: list[Any] | None) -> None:
        """The host's answer: submit the (corrected) values, or drop the reading (None).
        A refused action keeps the reading pending and re-raises for the host to see."""
        with self._lock:
            found = self._pending.get(reading_id)
        if found is None:
            raise KeyError(reading_id)
        if values is not None:
            self.submit(Action(found.action, {found.kind: values}))
        with self._lock:
            self._pending.pop(reading_id, None)

    def clear(self) -> None:
        with self._lock:
            self._pending.clear()
