"""Harry Potter Clue: Dark cards and Floo powder.

The Dark deck stays on the table: the box does not know its cards, so once the Dark
Mark has appeared the table reads the card out and the host (or each player) enters
what it does: first how many pinches it costs, then in one line who pays (the player
whose turn it is, everyone, or nobody), so a card costs two taps.  A card that touches
players differently (one is protected by a Help card, another must discard one) is
settled player by player instead, from the one whose turn it is.  A player pays what
they have, down to zero, and is then cut off from the Floo network.  A fireplace move
costs one pinch.
"""

from __future__ import annotations

from engine.actions import IllegalAction
from engine.args import Choice, Number
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.clue_flow import PLAYER, cut_off, player, to_move
from engine.games.clue_rules import MOST_PINCHES
from engine.games.clue_state import DARK, PINCHES, ClueState
from engine.messages import Msg, listing, words
from engine.steps import Move, Step

_, _n = words("clue")

UNAFFECTED = _("not affected")
PROTECTED = _("protected by a Help card")
DISCARDS = _("discards a Help card")
NOBODY_ELSE = _("nobody else is affected")
NOBODY_PAYS = _("nobody pays")
ONE_BY_ONE = _("settle it player by player")


def begin_dark(state: ClueState, where: list[Msg]) -> list[Effect]:
    """The Dark Mark appeared (``where``: on the die, on a wheel, or both): one card."""
    state.step, state.dark_stepwise = PINCHES, False
    return [
        Say(
            _(
                "The Dark Mark appears on {where}! {name}, take one Dark card and read it out loud.",
                where=listing(where),
                name=state.names[state.current],
            )
        )
    ]


def pinches(state: ClueState, turn: Turn) -> list[Effect]:
    """The Dark card's penalty; then who it touches, starting with the player whose turn it is."""
    state.pinches = turn.args["choice"]
    # Clue: a player out after a wrong accusation "can make no more moves"; the rulebook
    # is silent on Dark cards, so as in classic Clue they are out of play and skipped.
    state.dark_queue = [s for s in [state.current, *state.left_of(state.current)] if s not in state.eliminated]
    state.step = DARK
    return []


def _pays(state: ClueState) -> Msg:
    return _n("pays {count} pinch", "pays {count} pinches", state.pinches)


def _options(state: ClueState) -> list[str]:
    """What the Dark card may do to the next player to settle it."""
    seat = state.dark_queue[0]
    options: list[str] = [UNAFFECTED]
    if state.pinches:
        options.append(_pays(state))
    if state.help[seat]:
        options += [PROTECTED, DISCARDS]
    if len(state.dark_queue) > 1 and seat != state.current:
        options.append(NOBODY_ELSE)
    return options


def _current_pays(state: ClueState) -> Msg:
    name = state.names[state.current]
    return _n("{name} pays {count} pinch", "{name} pays {count} pinches", state.pinches, name=name)


def _everyone_pays(state: ClueState) -> Msg:
    return _n("everyone pays {count} pinch", "everyone pays {count} pinches", state.pinches)


def _lines(state: ClueState) -> list[str]:
    """What the whole Dark card may do, in one line each (the host's second tap)."""
    lines: list[str] = []
    if state.pinches:
        lines.append(_current_pays(state))
        if len(state.dark_queue) > 1:
            lines.append(_everyone_pays(state))
    return [*lines, NOBODY_PAYS, ONE_BY_ONE]


def dark_card(state: ClueState, turn: Turn) -> list[Effect]:
    """The whole Dark card in one line: the box applies it; or it is settled player by player."""
    line = turn.args["choice"]
    if line == ONE_BY_ONE:
        state.dark_stepwise = True
        return []
    payers = {_current_pays(state): [state.current], _everyone_pays(state): state.dark_queue}.get(line, [])
    said = [effect for seat in list(payers) for effect in pay(state, seat, state.pinches)]
    state.dark_queue = []
    return said + _settled(state)


def _settled(state: ClueState) -> list[Effect]:
    state.pinches, state.dark_stepwise = 0, False
    return to_move(state)


def settle(state: ClueState, turn: Turn) -> list[Effect]:
    """What the Dark card does to one player; when all are settled the turn goes on."""
    seat, answer = state.dark_queue.pop(0), turn.args["choice"]
    name = state.names[seat]
    said: list[Effect] = []
    if answer == PROTECTED:
        said.append(Say(_("{name} shows a Help card and is safe.", name=name)))
    elif answer == DISCARDS:
        state.help[seat] -= 1
        said.append(Say(_("{name} discards a Help card.", name=name)))
    elif answer == NOBODY_ELSE:
        state.dark_queue = []
    elif answer != UNAFFECTED:
        said += pay(state, seat, state.pinches)
    if state.dark_queue:
        return said
    return said + _settled(state)


def pay(state: ClueState, seat: int, owed: int) -> list[Effect]:
    """A penalty paid with what the player has, down to zero."""
    # Clue: the rulebook says only "pay the penalty"; a player with less pays all they
    # have (no debt is kept) and is then cut off, as "loses all their Floo powder" reads.
    name, paid = state.names[seat], min(owed, state.floo[seat])
    if not paid:
        return [Say(_("{name} has no Floo powder left to pay.", name=name))]
    state.floo[seat] -= paid
    said = _n(
        "{name} puts {count} pinch of Floo powder on the pile.",
        "{name} puts {count} pinches of Floo powder on the pile.",
        paid,
        name=name,
    )
    return [Say(said), *cut_off(state, seat)]


def fireplace(state: ClueState, place: str) -> list[Effect]:
    """One pinch into the pile for a move by fireplace; refused to a player at zero."""
    seat = state.current
    if not state.floo[seat]:
        raise IllegalAction(_("{name} has no Floo powder and is cut off from the Floo network", name=state.names[seat]))
    state.floo[seat] -= 1
    said = _("{name} travels by Floo powder to {place}, paying one pinch.", name=state.names[seat], place=place)
    return [Say(said), *cut_off(state, seat)]


def _ask_pinches(state: ClueState) -> list[Expect]:
    options = tuple(str(n) for n in range(MOST_PINCHES + 1))
    prompt = _("How many pinches of Floo powder could the Dark card cost?")
    return [Expect.choice("pinches", prompt, options, seat=state.current)]


def _ask_line(state: ClueState) -> list[Expect]:
    if state.dark_stepwise:
        return []
    prompt = _("The Dark card: who pays?")
    return [Expect.choice("dark_card", prompt, tuple(_lines(state)), seat=state.current)]


def _ask_settle(state: ClueState) -> list[Expect]:
    seat = state.dark_queue[0]
    prompt = _("The Dark card: what happens to {name}?", name=state.names[seat])
    return [Expect.choice("settle", prompt, tuple(_options(state)), seat=seat)]


PINCHES_STEP = Step[ClueState](
    PINCHES,
    _("the Dark card is being read"),
    (
        Move(
            "pinches",
            pinches,
            args={"choice": Number(0, MOST_PINCHES)},
            by=player,
            role=PLAYER,
            ask=_ask_pinches,
        ),
    ),
)

DARK_STEP = Step[ClueState](
    DARK,
    _("the Dark card's penalties are being settled"),
    (
        Move("dark_card", dark_card, args={"choice": Choice(_lines)}, by=player, role=PLAYER, ask=_ask_line),
        Move(
            "settle",
            settle,
            args={"choice": Choice(_options)},
            by=lambda s: s.dark_queue[:1],
            role=_("affected by the Dark card"),
            ask=_ask_settle,
        ),
    ),
    in_order=True,
)
