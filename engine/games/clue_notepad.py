"""Harry Potter Clue: each phone's private notepad, and its optional helper.

The notepad ticks what the player knows for certain: their own cards, The Burrow's and
each card shown to them.  The helper (off unless the player turns it on, on their own
phone) adds what follows from that and from the public record of suggestions: a player
who passed holds none of the three; a player who showed a card for a suggestion holds
one of the three, so when all but one are ruled out for them, they hold that one; a
player whose cards are all known holds nothing else; and a kind with only one card left
unaccounted for has that card in the envelope.  It is worked out from the redacted
state and the seat's own secrets only, so it cannot know more than the player could.

With real cards the box knows only what it was told: The Burrow the host entered, the
hand the player entered, and the player's own ticks (a card shown to them, and by whom
if they say).  The helper then works from those, and makes no claim about the envelope
while The Burrow is not entered (its cards would look unaccounted for).  A tick is the
player's private move: the host's undo passes over it (``Move.private``).
"""

from __future__ import annotations

from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice
from engine.effects import Effect, Expect
from engine.game import Turn
from engine.games.clue_physical import burrow_missing, hand_size
from engine.games.clue_state import ClueState, over
from engine.messages import Msg, words
from engine.steps import Move

_, _n = words("clue")

ON, OFF = _("turn the notepad helper on"), _("turn the notepad helper off")
BURROW_HOLDS = -1
"""The Burrow as a holder of cards, beside the seats."""


def notepad(public: ClueState, seat: int, mine: dict[str, Any]) -> list[dict[str, Any]]:
    """One line per Mystery card: ticked or not, and why."""
    holders, elsewhere = _known(public, seat, mine), _ticked_only(mine)
    envelope = set(mine.get("peeks") or [])
    if mine.get("helper"):
        holders, envelope = _deduce(public, seat, holders, envelope, elsewhere, bool(own_hand(mine)))
    return [
        _line(public, seat, card, holders.get(card), card in elsewhere, card in envelope) for card in public.cards()
    ]


def _line(public: ClueState, seat: int, card: str, holder: int | None, ticked: bool, envelope: bool) -> dict[str, Any]:
    if holder is not None:
        why: Msg | str = _why(public, seat, holder)
    elif ticked:
        why = _("ticked by you")
    else:
        why = _("in the envelope") if envelope else ""
    return {"card": card, "kind": public.kind_of(card), "ticked": holder is not None or ticked, "why": why}


def _why(public: ClueState, seat: int, holder: int) -> Msg:
    if holder == seat:
        return _("your card")
    if holder == BURROW_HOLDS:
        return _("in The Burrow")
    return _("held by {name}", name=public.names[holder])


def own_hand(mine: dict[str, Any]) -> list[str]:
    """The seat's cards: dealt by the box, or (real cards) as the player entered them."""
    return list(mine.get("hands") or mine.get("entered") or [])


def _known(public: ClueState, seat: int, mine: dict[str, Any]) -> dict[str, int]:
    """Who holds each card, from what this seat has seen for itself (its own ticks first,
    so what the box knows for certain wins over a tick)."""
    holders = {card: int(by) for card, by in (mine.get("ticks") or {}).items() if by is not None}
    holders.update({card: seat for card in own_hand(mine)})
    holders.update({card: BURROW_HOLDS for card in public.burrow})
    for shown in mine.get("shown") or []:
        holders[shown["card"]] = int(shown["by"])
    return holders


def _ticked_only(mine: dict[str, Any]) -> set[str]:
    """Cards the player ticked without saying who holds them: not in the envelope."""
    return {card for card, by in (mine.get("ticks") or {}).items() if by is None}


def _deduce(
    public: ClueState,
    seat: int,
    holders: dict[str, int],
    envelope: set[str],
    elsewhere: set[str],
    hand_known: bool,
) -> tuple[dict[str, int], set[str]]:
    """The fixed point of the helper's rules (see the module docstring); ``hand_known``:
    the seat's whole hand is known (dealt by the box, or entered), so it holds no other."""
    holders, envelope = dict(holders), set(envelope)
    cards = public.cards()
    each = hand_size(public)  # The Burrow takes the remainder
    lacks: dict[int, set[str]] = {s: set() for s in range(public.players)}
    if hand_known:
        lacks[seat] = {c for c in cards if holders.get(c) != seat}
    for record in public.suggestions:
        named = {record["suspect"], record["item"], record["location"]}
        for passer in record["passed"]:
            lacks[passer] |= named
    changed = True
    while changed:
        changed = False
        for s in range(public.players):
            lacks[s] |= {c for c, h in holders.items() if h != s}
            if sum(1 for h in holders.values() if h == s) == each:
                lacks[s] |= {c for c in cards if holders.get(c) != s}
        for record in public.suggestions:
            shower = record["shown_by"]
            if shower is None:
                continue
            named = {record["suspect"], record["item"], record["location"]}
            if any(holders.get(c) == shower for c in named):
                continue
            left = named - lacks[shower] - envelope
            if len(left) == 1:
                holders[left.pop()] = shower
                changed = True
        if burrow_missing(public):
            continue  # The Burrow's cards look unaccounted for: nothing follows for the envelope
        for kind in ("suspect", "item", "location"):
            open_cards = [c for c in cards if public.kind_of(c) == kind and c not in holders and c not in elsewhere]
            nobody = {c for c in open_cards if all(c in lacks[s] for s in lacks)}
            found = nobody | (set(open_cards) if len(open_cards) == 1 else set())
            if found - envelope:
                envelope |= found
                changed = True
    return holders, envelope


def helper(state: ClueState, turn: Turn) -> list[Effect]:
    """A player turns their own notepad helper on or off (their phone only)."""
    seat = turn.seat
    if seat is None:
        raise IllegalAction(_("only a player can do that, on their own phone"))
    state.helper = {**state.helper, seat: turn.args["choice"] == ON}
    return []


def _ask_helper(state: ClueState) -> list[Expect]:
    """Each phone's switch, shown openly on it (glanceable): both ways always, so it says
    nothing of whether the helper is on (the notepad behind the tap shows that); optional,
    as the game never waits on it."""
    prompt = _("Notepad helper")
    return [
        Expect.choice("notepad", prompt, (ON, OFF), seat=s, secret=True, optional=True, glanceable=True)
        for s in range(state.players)
    ]


HELPER_MOVE = Move[ClueState](
    "notepad",
    helper,
    args={"choice": Choice((ON, OFF))},
    by=lambda s: range(s.players),
    host=False,
    ask=_ask_helper,
    when=lambda s: not over(s),
    private=True,  # a phone's own switch: never the table's step for undo
)
