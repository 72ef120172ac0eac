"""Effects: what the box does in answer to an action, beyond the state itself.

Only *transient* things are effects.  Anything that must survive a restart, an undo
or a phone reconnecting is derived from state instead (track lights via
``Game.tracks``, what the table waits for via ``Game.expects``, what each seat
may see via ``Game.private_view``), so that replaying the log restores it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MOST_WAIT = 60.0
"""The longest quiet after a line: the narrator's thread is watched, and stays silent
for no longer than this plus one line."""
TIMER_DONE = "timer_done"
"""The action the box sends a game when one of its timers has run out: ``{"name": ...}``."""


@dataclass(frozen=True)
class Say:
    """A line the speaker says to the whole table.  Never carries a secret.

    ``then_wait`` keeps the table quiet for that many seconds after the line before the
    next one begins (a night's fixed pauses, the same whether or not a role is in play,
    so the rhythm tells nobody anything); the next line is prepared during the wait, so
    the pause is exact."""

    text: str
    then_wait: float = 0.0

    def __post_init__(self) -> None:
        if not 0 <= self.then_wait <= MOST_WAIT:
            raise ValueError(f"a line may be followed by 0 to {MOST_WAIT:.0f} s of quiet, not {self.then_wait}")


@dataclass(frozen=True)
class Notice:
    """A message for the host's screen (a warning, a reminder, a rule explained)."""

    text: str


@dataclass(frozen=True)
class StartTimer:
    """Start (or restart) a table timer; the box sends ``timer_done`` with ``name`` when
    it runs out.  ``warnings`` are ``(seconds left, line)`` pairs the box says on the
    way, e.g. ``((60, "One minute left."),)``.  The table keeps the timer in its state
    (:mod:`engine.timers`), so it survives a restart and goes with an undo."""

    name: str
    seconds: float
    warnings: tuple[tuple[float, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or not 0 < self.seconds <= 24 * 3600:
            raise ValueError(f"a timer needs a plain name and 0 to 24 h, not {self.name!r}, {self.seconds}")


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
    the camera or typed), ``"cards"`` (revealed cards, at most ``count``), ``"choice"`` (pick from
    ``options``; ``count`` of them), ``"vote"`` (yes/no from each listed seat) or
    ``"confirm"`` (the host presses next).  ``action`` is the action kind that answers
    it.  ``seat`` is whose input it is (``None``: the host).  A ``secret`` prompt is
    shown only to that seat, never on the host page, and on the phone behind the tap
    that shows the seat's secret, since its words or options may give a secret away (a
    role named, a hand listed).  A ``glanceable`` secret prompt gives nothing away (the
    Revelio holder is public, its options are the other players' names): only its answer
    is private, so the phone shows it openly, where it is not missed; it is still its
    seat's alone, and what the answer shows stays behind the tap.  A dice roll with ``symbols`` may
    hold symbol dice taught to the box (read by face name); without, only pipped dice
    answer it, and the box does not look for taught dice in the tray; its ``options`` are
    the face names a page offers to tap beside the pips.  ``labels``, when given, are
    what the options are shown as (``options`` are what is sent back); a ``confirm``
    prompt's one label is its button's words ("Ask for a veto"; without: "Next").  An ``optional``
    prompt offers what the table may do or leave (use an ability, change a vote): the game
    never waits on it, so a simulated player leaves it alone.  A ``final`` prompt's answer
    settles the game (an accusation): a mis-tap there cannot be taken back at the table,
    so the page asks before it sends it.

    A ``cards`` prompt of a game that reads cards where they lie (each player's area of
    the table) gives ``laid``: every card it already places, as ``(card, seat, zone)``
    (``zone`` None: anywhere in that seat's area).  The camera sees every card on the
    table in every frame; the box answers such a prompt only with the cards newly laid
    in a player's area.  Without ``laid`` every card seen answers it (cards revealed).
    A ``cards`` prompt with a ``zone`` is answered, once areas are set up, only by the
    cards lying in a zone of that name (Secret Voldemort's reveal area, among the policies
    already on the board); without areas every card seen answers it still.
    """

    kind: str
    action: str
    prompt: str
    seat: int | None = None
    count: int | None = None
    options: tuple[str, ...] = ()
    secret: bool = False
    symbols: bool = False
    optional: bool = False
    labels: tuple[str, ...] = ()
    laid: tuple[tuple[str, int, str | None], ...] | None = None
    final: bool = False
    glanceable: bool = False
    zone: str | None = None

    def __post_init__(self) -> None:
        if self.glanceable and (not self.secret or self.seat is None):
            raise ValueError("only a seat's secret prompt can be glanceable (any other is shown openly anyway)")

    @classmethod
    def choice(
        cls,
        action: str,
        prompt: str,
        options: tuple[str, ...],
        seat: int | None = None,
        count: int = 1,
        secret: bool = False,
        optional: bool = False,
        final: bool = False,
        glanceable: bool = False,
    ) -> Expect:
        """Pick ``count`` of ``options``: the commonest prompt of every game."""
        return cls(
            "choice",
            action,
            prompt,
            seat=seat,
            count=count,
            options=options,
            secret=secret,
            optional=optional,
            final=final,
            glanceable=glanceable,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "action": self.action,
            "prompt": self.prompt,
            "seat": self.seat,
            "count": self.count,
            # what a page sends back (plain English values) and what it shows (messages)
            "options": [str(option) for option in self.options],
            "option_labels": list(self.labels or self.options),
            "secret": self.secret,
            "symbols": self.symbols,
            "optional": self.optional,
            "final": self.final,
            "glanceable": self.glanceable,
        }
