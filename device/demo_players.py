"""Simulated players for the demo: seats with no phone answer their own prompts.

At a real table every seat is a person with a phone.  In ``familiar demo`` one person
plays the host, so the other seats are played by this: after each change it picks,
for one seat prompt at a time, a random answer among the options the prompt itself
offers (votes, choices, Revelio peeks, nominations) and submits it *as that seat*,
exactly as the seat's phone would.  A simulated Unmask Leader makes up its group's pool
(:mod:`device.demo_pool`); a simulated seat asked to roll throws dice into the demo's tray,
so the demo still exercises the dice reader.  A seat claimed by a real phone is never played.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from typing import Any

from device.demo_pool import POOL_ACTIONS, MadeUpPools, pool_key
from device.table_service import TableService
from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect
from engine.games.unmask_roles import handed_in

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
    """Plays unclaimed seats after a short pause, on its own thread (a listener, which
    runs inside a submit, only wakes it).

    A seat a phone has claimed in this game stays a person's seat for the rest of it:
    after the host resets it (a lost phone), it waits for its player to join again.
    ``roll(count)`` throws ``count`` dice into the tray (the demo's camera) when a
    simulated seat is asked to roll; without it, rolls are left to the host."""

    def __init__(
        self,
        service: TableService,
        pause: float = 2.0,
        seed: int | None = None,
        roll: Callable[[int], None] | None = None,
    ) -> None:
        self.service = service
        self.pause = pause
        self.rng = random.Random(seed)
        self.roll = roll
        self.pools = MadeUpPools(self.rng)
        self._people: tuple[int, set[int]] = (-1, set())
        self._rolled: tuple[int, int] | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        service.add_listener(self._changed)
        # A look at once: the table may already wait for a simulated seat (the demo's
        # opening game is dealt before the players sit down), and no change may come
        # until one answers (issue 50: the demo waited minutes for the host).
        self._wake.set()
        self._thread = threading.Thread(target=self._run, name="demo-players", daemon=True)
        self._thread.start()

    def _changed(self, effects: list[Effect]) -> None:
        self.people()  # a claim followed at once by a reset is still seen
        self._wake.set()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()

    def people(self) -> set[int]:
        """The seats phones have claimed in this game, now or before a reset."""
        game = self.service.game_seq
        if self._people[0] != game:
            self._people = (game, set())
        self._people[1].update(self.service.store.claimed(game))
        return self._people[1]

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stop.wait(self.pause):
                return
            if self.play_one():
                self._wake.set()  # the next prompt may be a simulated seat's too

    def play_one(self) -> bool:
        """Answer one prompt of a simulated seat; True if something was submitted (or
        dice were thrown).  The table is held from the look to the answer, so a phone
        claiming the seat meanwhile is seen."""
        with self.service.held():
            people = self.people()
            for expect in self.service.table.expects():
                if expect.seat is None or expect.seat in people or expect.optional:
                    continue
                if expect.kind == "dice":
                    if self._throw(expect):
                        return True
                    continue
                data = self._answer(expect)
                if data is None:
                    continue
                try:
                    self.service.submit(Action(expect.action, data, expect.seat))
                    return True
                except IllegalAction as exc:
                    log.info("simulated %s: %s", self.service.table.current.seats[expect.seat], exc)
        return False

    def _answer(self, expect: Expect) -> dict[str, Any] | None:
        """A phone's answer for ``expect``, or None for what a simulated seat leaves alone."""
        state = self.service.table.current.state
        if self.service.table.game is not None and self.service.table.game.name == "unmask":
            if expect.action in POOL_ACTIONS:
                return self.pools.answer(pool_key(self.service.game_seq, state), handed_in(state), expect)
            if expect.action == "target":  # a real Encounter asks for a reachable number
                return {"choice": self.rng.choice(expect.options[: max(1, len(expect.options) // 3)])}
        if expect.kind not in ANSWERABLE or (expect.kind == "choice" and not expect.options):
            return None
        return answer(expect, self.rng)

    def _throw(self, expect: Expect) -> bool:
        """Dice for a simulated seat: thrown once for each roll the table waits for."""
        if self.roll is None:
            return False
        kept = self.service.table.kept
        asked = (self.service.game_seq, kept[-1].seq if kept else 0)
        if self._rolled == asked:
            return False
        self._rolled = asked
        self.roll(expect.count or 1)
        return True
