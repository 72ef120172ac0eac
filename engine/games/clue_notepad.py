"""Harry Potter Clue: each phone's private notepad, and its optional helper.

The notepad ticks what the player knows for certain: their own cards, The Burrow's and
each card shown to them.  The helper (off unless the player turns it on, on their own
phone) adds what follows from that and from the public record of suggestions: a player
who passed holds none of the three; a player who showed a card for a suggestion holds
one of the three, so when all but one are ruled out for them, they hold that one; a
player whose cards are all known holds nothing else; and a kind with only one card left
unaccounted for has that card in the envelope.  It is worked out from the redacted
state and the seat's own secrets only, so it cannot know more than the player could.
"""

from __future__ import annotations

from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice
from engine.effects import Effect, Expect
from engine.game import Turn
from engine.games.clue_state import ClueState, over
from engine.messages import Msg, words
from engine.steps import Move

_, _n = words("clue")

ON, OFF = _("turn the notepad helper on"), _("turn the notepad helper off")
BURROW_HOLDS = -1
"""The Burrow as a holder of cards, beside the seats."""


def notepad(public: ClueState, seat: int, mine: dict[str, Any]) -> list[dict[str, Any]]:
    """One line per Mystery card: ticked or not, and why."""
    holders = _known(public, seat, mine)
    envelope = set(mine.get("peeks") or [])
    if mine.get("helper"):
        holders, envelope = _deduce(public, seat, holders, envelope)
    lines = []
    for card in public.cards():
        holder = holders.get(card)
        lines.append(
            {
                "card": card,
                "kind": public.kind_of(card),
                "ticked": holder is not None,
                "why": _why(public, seat, holder)
                if holder is not None
                else _("in the envelope")
                if card in envelope
                else "",
            }
        )
    return lines


def _why(public: ClueState, seat: int, holder: int) -> Msg:
    if holder == seat:
        return _("your card")
    if holder == BURROW_HOLDS:
        return _("in The Burrow")
    return _("held by {name}", name=public.names[holder])


def _known(public: ClueState, seat: int, mine: dict[str, Any]) -> dict[str, int]:
    """Who holds each card, from what this seat has seen for itself."""
    holders = {card: seat for card in mine.get("hands") or []}
    holders.update({card: BURROW_HOLDS for card in public.burrow})
    for shown in mine.get("shown") or []:
        holders[shown["card"]] = int(shown["by"])
    return holders


def _deduce(
    public: ClueState, seat: int, holders: dict[str, int], envelope: set[str]
) -> tuple[dict[str, int], set[str]]:
    """The fixed point of the helper's rules (see the module docstring)."""
    holders, envelope = dict(holders), set(envelope)
    cards = public.cards()
    each = (len(cards) - 3) // public.players  # The Burrow takes the remainder
    lacks: dict[int, set[str]] = {s: set() for s in range(public.players)}
    if not public.physical:  # with real cards the box does not know the player's hand
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
        for kind in ("suspect", "item", "location"):
            of_kind = [c for c in cards if public.kind_of(c) == kind]
            nobody = {c for c in of_kind if c not in holders and all(c in lacks[s] for s in lacks)}
            open_cards = [c for c in of_kind if c not in holders]
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
