"""The box's clock for the table's timers: warnings said, the board drained, ``timer_done`` sent.

The timers themselves are table state (``engine.timers``), folded from the log with
each entry's wall time; this thread only looks at them a few times a second.  So after
a ``kill -9`` the new thread finds each timer with its deadline and carries on, and an
undo that cancels a timer simply leaves nothing to look at.

What it keeps in memory is only what must not happen twice in one run: a warning
already said, a ``timer_done`` already sent for a deadline.  After an undo of a
``timer_done`` the timer is back, run out; it is not sent again (that would make the
undo useless) until the host adds time or ends it again, which gives it a new deadline;
a restart in that state forgets this and sends it at once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from device.table_service import TableService
from engine import timers as timing
from engine.actions import Action, IllegalAction
from engine.effects import TIMER_DONE, Track
from engine.messages import _, said

log = logging.getLogger("familiar")

CLOCK_JUMP_S = 5.0
"""A move of the system clock this large is said: it is a setting, not a drift."""
TICK_S = 0.2
"""How often the timers are looked at: a page shows whole seconds, a warning is said
within this of its moment, and ``timer_done`` comes this soon after the deadline."""


class TimerKeeper:
    """One thread that watches every timer of the table.

    ``say(text)`` speaks a warning; ``redraw()`` shows the board again (called when a
    timer's LED track changes); ``beat()`` tells the watchdog the thread is alive."""

    def __init__(
        self,
        service: TableService,
        say: Callable[[str], None],
        redraw: Callable[[], None],
        beat: Callable[[], None] = lambda: None,
    ) -> None:
        self.service = service
        self._say, self._redraw, self._beat = say, redraw, beat
        self._left: dict[str, float] = {}
        self._looked: float | None = None
        self._sent: set[tuple[str, float | None]] = set()
        self._shown: dict[str, Track] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="timers", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.wait(TICK_S):
            self._beat()
            try:
                self.check()
            except Exception:  # noqa: BLE001 - one bad tick must not stop every timer
                log.exception("checking the timers failed")

    def check(self) -> None:
        """One look at the timers: say the warnings crossed since the last look, redraw a
        draining track, and send ``timer_done`` for each timer that has run out."""
        self._clock_moved()
        now = self.service.clock()  # the clock the log's times come from
        timers = self.service.timers()
        passed = now - self._looked if self._looked is not None else 0.0
        for name, timer in timers.items():
            left = timer.remaining(now)
            self._warn(name, timer, left, passed)
            if timer.running and left <= 0 and (name, timer.deadline) not in self._sent:
                self._sent.add((name, timer.deadline))
                self._done(name)
        self._left = {name: timer.remaining(now) for name, timer in timers.items()}
        self._looked = now
        shown = timing.tracks(timers, now)
        if shown != self._shown:
            self._shown = dict(shown)
            self._redraw()

    def _clock_moved(self) -> None:
        """The system clock was set (NTP at boot, a person): the table's clock is steady
        (:class:`device.table_service.SteadyClock`), so timers keep their time left; say so,
        since a clock shown elsewhere on the box now differs from the table's."""
        moved = getattr(self.service.clock, "moved", None)
        jump = moved() if moved is not None else 0.0
        if abs(jump) >= CLOCK_JUMP_S:
            log.warning("the system clock moved by %+.0f s; the table's timers keep their time", jump)
            said = (
                _(
                    "The box's clock was set on by {seconds} seconds: the table's timers keep their time left.",
                    seconds=round(abs(jump)),
                )
                if jump > 0
                else _(
                    "The box's clock was set back by {seconds} seconds: the table's timers keep their time left.",
                    seconds=round(abs(jump)),
                )
            )
            self.service.note(said, speak=True)

    def _warn(self, name: str, timer: timing.Timer, left: float, passed: float) -> None:
        """Each warning whose moment the time ``passed`` since the last look reached; none
        for a timer first seen now: a restart does not repeat the warnings already said,
        nor says late one whose moment passed while the box was down ("one minute left"
        at 40 s).  Time left that fell further than the time that passed was cut by the
        host (End now): the warnings it jumped over are skipped, not said in one burst
        (issue 50)."""
        before = self._left.get(name)
        if before is None or not timer.running:
            return
        reached = before - passed - TICK_S  # give or take a tick: a moment on the dot is said
        for at_left, line in timer.warnings:
            if before > at_left >= max(left, reached):
                self._say(line)

    def _done(self, name: str) -> None:
        try:
            self.service.submit(Action(TIMER_DONE, {"name": name}))
        except IllegalAction as refused:  # a game that started a timer it cannot end: a bug
            log.error("timer %s ran out, and the game refused %s: %s", name, TIMER_DONE, refused)
            self.service.note(
                _("The {name} timer ran out, but the game did not take it: {refused}", name=name, refused=said(refused))
            )
