"""From a settled camera frame to a table action, or to the host for confirmation.

The camera never decides alone when it is unsure: a reading with an unsure die, or
any die below ``confirm_below``, is parked here as *pending* with its photo, and the
host confirms it with one tap (or corrects it) on the host page.  A confident
reading that the rules refuse (say four dice when the Leader should roll five) is
parked too, with the rule's message, instead of being lost.

Cards read where they lie (a prompt that lists the cards its game already places,
``Expect.laid``) are different from cards revealed: the camera sees every card on the
table in every frame, and a still table is not a play.  Such a prompt is answered only
with the cards newly laid in a player's area (see :meth:`ReadingDesk.newly_laid`).
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

from device.areas import Areas, Place, centre, place
from engine.actions import Action, IllegalAction
from engine.effects import Expect
from engine.messages import _, said

MAX_PENDING = 8
SAME_PLACE_PX = 6.0
"""Dice within this distance of where they lay, with the same faces, have not been
rolled: the settle detector can hand out a frame again after a deep shadow or a lamp
switched on, and reading it as a new roll would cost the Leader a roll."""
STILL_CARD = 0.2
"""A card whose centre moved less than this fraction of its shorter side, with the same
name, lies where it lay: a hand brushing the table moves a card a little, a card laid
anew lies elsewhere."""
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


def _spot(card: Any) -> tuple[str | None, tuple[float, float], float]:
    """A card's name, centre and shorter side (frame pixels)."""
    (a, b, c, _d) = [tuple(p) for p in card.corners[:4]]
    return card.name, centre(card.corners), min(math.dist(a, b), math.dist(b, c))


def _same_spot(new: tuple[str | None, tuple[float, float], float], old: tuple[Any, ...]) -> bool:
    return new[0] == old[0] and math.dist(new[1], old[1]) <= STILL_CARD * min(new[2], old[2])


def _placed_there(where: Place | None, known: tuple[str, int, str | None]) -> bool:
    """Whether the game's card ``known`` is one lying at ``where`` (without areas set up,
    or in an undivided area, a card's zone is not known: any zone of the seat matches)."""
    if where is None:
        return True
    return where.seat == known[1] and (where.zone is None or known[2] is None or where.zone == known[2])


def _in_zone(cards: list[Any], places: list[Place | None], zone: str) -> tuple[list[Any], list[Place | None]]:
    """The cards lying in a zone named ``zone`` (of any seat's area), with their places."""
    kept = [(c, p) for c, p in zip(cards, places, strict=True) if p is not None and p.zone == zone]
    return [c for c, _ in kept], [p for _, p in kept]


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

    def __init__(self, submit: Callable[[Action], Any], confirm_below: float, areas: Areas = ()) -> None:
        self.submit = submit
        self.confirm_below = confirm_below
        self.areas = areas
        self._pending: OrderedDict[str, Pending] = OrderedDict()
        self._lock = threading.Lock()
        self._last: list[tuple[Any, float, float]] = []
        self._cards_seen: list[tuple[str | None, tuple[float, float], float]] = []

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
        value, whether it is a Curse); an unknown or doubtful card goes to the host.

        A reading is shaped for the prompt it answers: only a prompt for cards read where
        they lie (``laid``, or a ``zone``) is told each card's seat and zone.  A prompt for cards revealed
        takes every card seen, wherever it lies, and would refuse keys it never asked for
        (an Unmask Encounter card laid in front of the Leader on a box with card areas).
        A prompt naming a ``zone`` (Voldemort's reveal) takes only the cards lying in it."""
        if not cards:
            return "no cards"
        height, width = frame.shape[:2]
        places = [place(c.corners, width, height, self.areas) for c in cards]
        if expect is not None and expect.zone is not None and self.areas:
            cards, places = _in_zone(cards, places, expect.zone)
            if not cards:
                return f"no cards in the {expect.zone} zone"
        if expect is not None and expect.laid is not None:
            cards, places = self.newly_laid(cards, places, expect.laid)
            if not cards:
                return "nothing newly laid"
        elif expect is None or expect.zone is None:
            places = [None] * len(cards)  # only a prompt for cards where they lie is told where
        unsure = [i for i, c in enumerate(cards) if c.name is None or c.confidence < self.confirm_below]
        values = [
            {"card": c.name, **(data(c.name) if c.name else {}), **(p.to_data() if p else {})}
            for c, p in zip(cards, places, strict=True)
        ]
        return self._route(frame, "cards", values, unsure, cards, expect)

    def newly_laid(
        self, cards: list[Any], places: list[Place | None], laid: tuple[tuple[str, int, str | None], ...]
    ) -> tuple[list[Any], list[Place | None]]:
        """The cards of this frame laid since the table's last state: not lying still where
        the last frame showed them, not already placed there by the game, and (with areas
        set up) inside a player's area.  Cards lying still are matched to the game's cards
        first, so a copy laid beside one already there is seen as new."""
        before, self._cards_seen = self._cards_seen, [_spot(c) for c in cards]
        still = [any(_same_spot(_spot(c), old) for old in before) for c in cards]
        known = list(laid)
        new: list[tuple[Any, Place | None]] = []
        for index in sorted(range(len(cards)), key=lambda i: not still[i]):
            card, where = cards[index], places[index]
            match = next((k for k in known if card.name == k[0] and _placed_there(where, k)), None)
            if match is not None:
                known.remove(match)
            elif not still[index] and (where is not None or not self.areas):
                new.append((card, where))
        return [c for c, _ in new], [p for _, p in new]

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
