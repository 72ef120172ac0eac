"""Simulated players for the demo: seats with no phone answer their own prompts.

At a real table every seat is a person with a phone.  In ``familiar demo`` one person
plays the host, so the other seats are played by this: after each change it picks,
for one seat prompt at a time, a random answer among the options the prompt itself
offers (votes, choices, Revelio peeks, nominations) and submits it *as that seat*,
exactly as the seat's phone would.  Dice and cards are left to the camera and the host,
so the demo still exercises the readers.  A seat claimed by a real phone is never played.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from device.table_service import TableService
from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect

log = logging.getLogger(__name__)
ANSWERABLE = {"choice", "vote", "confirm"}


def answer(expect: Expect, rng: random.Random) -> dict[str, Any]:
    """The data a phone would send for ``expect``, chosen at random from what it offers."""
    if expect.kind == "vote":
        return {"vote": rng.random() < 0.6}
    if expect.kind == "choice" and (expect.count or 1) > 1:
        return {"choices": rng.sample(list(expect.options), min(expect.count, len(expect.options)))}
    if expect.kind == "choice":
        return {"choice": rng.choice(expect.options)}
    return {}


class SimulatedPlayers:
    """Plays unclaimed seats after a short pause, on its own thread (never inside the
    service's lock, where a listener runs)."""

    def __init__(self, service: TableService, pause: float = 2.0, seed: int | None = None) -> None:
        self.service = service
        self.pause = pause
        self.rng = random.Random(seed)
        self._wake = threading.Event()
        self._stop = threading.Event()
        service.add_listener(self._changed)
        self._thread = threading.Thread(target=self._run, name="demo-players", daemon=True)
        self._thread.start()

    def _changed(self, effects: list[Effect]) -> None:
        self._wake.set()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stop.wait(self.pause):
                return
            self.play_one()

    def play_one(self) -> bool:
        """Answer one prompt of an unclaimed seat; True if something was submitted."""
        claimed = self.service.store.claimed(self.service.game_seq)
        for expect in self.service.table.expects():
            if expect.seat is None or expect.seat in claimed or expect.kind not in ANSWERABLE or expect.optional:
                continue
            if expect.kind == "choice" and not expect.options:
                continue
            try:
                self.service.submit(Action(expect.action, answer(expect, self.rng), expect.seat))
                return True
            except IllegalAction as exc:
                log.info("simulated %s: %s", self.service.table.current.seats[expect.seat], exc)
        return False
