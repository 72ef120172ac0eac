"""Kampf gegen die dunklen Mächte: the night's words and its fixed times.

Every call of the chosen set is said in wake order with its number and spell, and
lasts the same :data:`TURN_S` whether its card lies with a player or in the middle and
whether anyone answers on a phone: the call's time is a table timer started with the
call, and the next call begins only when that timer runs out.  The words depend only
on the call and on how the cards are played (both public), never on who holds what.
"""

from __future__ import annotations

from engine.effects import Effect, Say, StartTimer
from engine.games.kampf_roles import (
    CALL_NAME,
    DEATH_EATER,
    DUMBLEDORE,
    HARRY,
    HERMIONE,
    MCGONAGALL,
    NEVILLE,
    NUMBER,
    RON,
    SIRIUS,
    SPELL,
    TWINS,
)
from engine.games.kampf_state import NIGHT_TIMER
from engine.messages import Msg, words

_, _n = words("kampf")

EYES_S = 4.0
"""Quiet after "close your eyes", so every eye is shut before the first call."""
SHUT_S = 2.0
"""Quiet after a call closes its eyes, so nobody hears who moved last."""
TURN_S = 20.0
"""Every call's time, from its first word to the next call: enough for two taps on a
phone (Sirius, Dumbledore), and the same for every call so timing tells nothing."""

WHAT: dict[str, Msg] = {
    DEATH_EATER: _(
        "Open your eyes and look around for the other Death Eater. "
        "If you are the only one, you may look at one card in the middle."
    ),
    TWINS: _("Open your eyes and look at each other."),
    HERMIONE: _("Open your eyes. You may look at another player's card or at two cards in the middle."),
    SIRIUS: _("Open your eyes. Swap your card with another player's card, then you may look at your new card."),
    DUMBLEDORE: _(
        "Open your eyes. You may look at one card in the middle. If you do, exchange it without looking "
        "for another player's card, which goes to that place in the middle, or for your own."
    ),
    NEVILLE: _("Open your eyes. Swap the cards of two other players without looking at them."),
    RON: _("Open your eyes. Swap your card with a card in the middle without looking at it."),
    HARRY: _(
        "Open your eyes. You may turn another player's card face up for the day. "
        "If it is a Death Eater, turn it back over."
    ),
    MCGONAGALL: _("Open your eyes and look at your own card again."),
}
"""What each call does, as the rulebook words it."""


def wake_line(call: str) -> Msg:
    """The call with its number and, where the card has one, its spell."""
    if call in SPELL:
        return _(
            "{number}: {role}, {spell} {what}",
            number=NUMBER[call],
            role=CALL_NAME[call],
            spell=SPELL[call],
            what=WHAT[call],
        )
    return _("{number}: {role}. {what}", number=NUMBER[call], role=CALL_NAME[call], what=WHAT[call])


def falls() -> list[Effect]:
    return [Say(_("Night falls. Everyone, close your eyes."), then_wait=EYES_S)]


def wake(call: str, digital: bool) -> list[Effect]:
    """A call begins: its words, then its fixed time on the night timer."""
    lines: list[Effect] = [Say(wake_line(call))]
    if digital:
        lines.append(Say(_n("Do it on your phone.", "Do it on your phones.", _woken(call))))
    return [*lines, StartTimer(NIGHT_TIMER, TURN_S)]


def _woken(call: str) -> int:
    """How many cards a call wakes, for the grammar of its lines (German "schließ" for
    one, "schließt" for several)."""
    return 2 if call in (DEATH_EATER, TWINS) else 1


def sleep(call: str) -> list[Effect]:
    woken = _woken(call)
    return [
        Say(_n("{role}, close your eyes.", "{role}, close your eyes.", woken, role=CALL_NAME[call]), then_wait=SHUT_S)
    ]
