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
ACT_S = 5.0
"""What a call's time leaves after its words at the least: two taps on a phone (Sirius,
Dumbledore), or a card turned and laid back, by a player who listened to the end."""
TURN_S = 27.0
"""Every call's time, the same for every call and every deal so timing tells nothing.  Its
timer starts with the words said before the call's own (the last call's "close your
eyes" and its quiet, or "night falls" and :data:`EYES_S` before the first call), so it
is the longest of those, the longest call in the longer language and :data:`ACT_S`,
with a second to spare for another espeak-ng build.  Measured with espeak-ng at the
box's default rate (160 words a minute): 7.2 s of "night falls" and 13.7 s of
Dumbledore in German, so 20.9 s (tests/device/test_kampf_slots.py measures every call
after every line that can come before it).  At 20 s his German call overran by 1.8 s."""


WHAT: dict[str, Msg] = {
    DEATH_EATER: _(
        "Open your eyes and look around for the other Death Eater. "
        "If you are the only one, you may look at one card in the middle."
    ),
    TWINS: _("Open your eyes and look at each other."),
    HERMIONE: _("Open your eyes. You may look at another player's card or at two cards in the middle."),
    SIRIUS: _("Open your eyes. Swap your card with another player's card, then you may look at your new card."),
    # Said short to fit its time: swapping puts the player's card at that place in the middle.
    DUMBLEDORE: _(
        "Open your eyes. You may look at one card in the middle. If you do, swap it, without looking, "
        "with another player's card or your own."
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
