"""Table timers as part of the table's state, so a restart or an undo restores them.

A game starts a timer with the :class:`~engine.effects.StartTimer` effect; the table
records it here with the wall time of the log entry that started it, so the timer's
deadline is the fold of the log like everything else, never a thread's memory.  The
host's controls (pause, resume, add a minute, end now) are table actions
(``table.timer``), logged and replayed too.  When a timer has run out, the box sends the
game its ``timer_done`` action (a move the game declares), and the table forgets it.

Nothing here reads the clock: every function is given the time (``at``, ``now``).  The
deadline is wall time, so a timer keeps running while the box is down, as the table's
own discussion does.  A Pi has no battery clock: if its clock is set (NTP after boot)
while a timer runs, the timer moves with it; a box that restarts with its clock behind
shows more time left (its track never more than full).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, IllegalAction
from engine.effects import TIMER_DONE, Effect, StartTimer, Track
from engine.messages import _

CONTROLS = ("pause", "resume", "add", "end")
MINUTE = 60.0
MOST_ADDED = 3600.0


@dataclass(frozen=True)
class Timer:
    """One running or paused timer.

    ``deadline`` is the wall time it runs out while running (``None`` while paused);
    ``left`` is the seconds left while paused.  ``total`` is what it runs in all (its
    start plus every added minute), the length of its LED track.  ``warnings`` are
    ``(seconds left, line to say)`` pairs from the game."""

    total: float
    deadline: float | None
    left: float = 0.0
    warnings: tuple[tuple[float, str], ...] = ()

    def remaining(self, now: float) -> float:
        """Seconds left at wall time ``now`` (0 once run out)."""
        if self.deadline is None:
            return self.left
        return max(0.0, self.deadline - now)

    @property
    def running(self) -> bool:
        return self.deadline is not None


Timers = dict[str, Timer]


def started(timers: Timers, effects: Sequence[Effect], at: float) -> Timers:
    """The timers after an action whose effects are ``effects``, accepted at ``at``: each
    :class:`StartTimer` starts (or restarts) its timer."""
    out = dict(timers)
    for effect in effects:
        if isinstance(effect, StartTimer):
            out[effect.name] = Timer(effect.seconds, at + effect.seconds, warnings=effect.warnings)
    return out


def check_done(timers: Timers, action: Action, at: float) -> None:
    """``timer_done`` is the box's word that a timer ran out: refused for any other timer,
    so the log never says a timer ended that had not."""
    name, timer = _named(timers, action)
    if timer.remaining(at) > 0:
        raise IllegalAction(_("the {name} timer has not run out: end it with the timer's End button", name=name))


def _named(timers: Timers, action: Action) -> tuple[str, Timer]:
    """The timer an action names with ``name``, or a refusal."""
    name = action.data.get("name")
    timer = timers.get(name) if isinstance(name, str) else None
    if timer is None:
        raise IllegalAction(_("no timer called {name!r} is running", name=str(name)[:40]))
    return str(name), timer


def finished(timers: Timers, action: Action) -> Timers:
    """The timers once the game has taken ``timer_done`` for one of them."""
    return {k: v for k, v in timers.items() if k != action.data.get("name")}


def control(timers: Timers, action: Action, at: float) -> Timers:
    """The host's ``table.timer`` action ``{"name", "do", "seconds"?}`` at ``at``."""
    if action.seat is not None:
        raise IllegalAction(_("only the host can pause, extend or end a timer"))
    unknown = set(action.data) - {"name", "do", "seconds"}
    if unknown:
        raise IllegalAction(
            _("a timer control takes name, do and seconds, not {unknown}", unknown=", ".join(sorted(unknown)))
        )
    (name, timer), do = _named(timers, action), action.data.get("do")
    if do not in CONTROLS:
        raise IllegalAction(_("a timer can {controls}, not {do!r}", controls=", ".join(CONTROLS), do=str(do)[:20]))
    if do != "add" and "seconds" in action.data:
        raise IllegalAction(_("only adding takes seconds"))
    return {**timers, name: _controlled(timer, do, action.data.get("seconds", MINUTE), at)}


def _controlled(timer: Timer, do: str, seconds: Any, at: float) -> Timer:
    left = timer.remaining(at)
    if do == "pause":
        if not timer.running or left <= 0:
            raise IllegalAction(_("that timer is not running"))
        return dataclasses.replace(timer, deadline=None, left=left)
    if do == "resume":
        if timer.running:
            raise IllegalAction(_("that timer is not paused"))
        return dataclasses.replace(timer, deadline=at + left, left=0.0)
    if do == "end":
        return dataclasses.replace(timer, deadline=at, left=0.0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 1 <= seconds <= MOST_ADDED:
        raise IllegalAction(_("add 1 to {most} seconds", most=round(MOST_ADDED)))

    if timer.running:  # one that ran out and waits (its end undone) counts from now
        return dataclasses.replace(timer, deadline=at + left + seconds, total=timer.total + seconds)
    return dataclasses.replace(timer, left=left + seconds, total=timer.total + seconds)


def shown(timers: Mapping[str, Timer], now: float) -> dict[str, dict[str, Any]]:
    """The timers as the pages show them: public, counted down by each page from ``left``."""
    return {
        name: {"left": round(t.remaining(now), 2), "total": t.total, "running": t.running} for name, t in timers.items()
    }


def tracks(timers: Mapping[str, Timer], now: float) -> dict[str, Track]:
    """Each timer as a board track ``timer_<name>`` draining one space a second: all lit
    at the start, the last one going dark as it runs out."""
    out = {}
    for name, timer in timers.items():
        length = max(1, math.ceil(timer.total))
        out[f"timer_{name}"] = Track(min(length, math.ceil(timer.remaining(now))), length)
    return out


__all__ = ["TIMER_DONE", "Timer", "Timers", "check_done", "control", "finished", "shown", "started", "tracks"]
