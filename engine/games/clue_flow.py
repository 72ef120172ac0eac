"""Harry Potter Clue: how a turn begins, moves on and ends, shared by every part of it."""

from __future__ import annotations

from engine.effects import Effect, Say
from engine.games.clue_state import MOVE, OVER, ROLL, ClueState
from engine.messages import listing, words

_, _n = words("clue")

PLAYER = _("whose turn it is")
"""Who makes most moves of a turn, for refusals of anyone else."""


def player(state: ClueState) -> list[int]:
    """The seat whose turn it is (the host may also act for them)."""
    return [state.current]


def begin_turn(state: ClueState) -> list[Effect]:
    """The current player rolls; the location they are in they must leave this turn."""
    state.step, state.roll, state.naming = ROLL, None, []
    # The rulebook: "If you are in a location at the end of one turn, you must leave it on
    # your next turn."  Clue: The Burrow counts as a location for this.
    state.must_leave = state.where[state.current]
    said: list[Effect] = [Say(_("{name}, it is your turn: roll both dice.", name=state.names[state.current]))]
    if not state.floo[state.current]:
        said.append(Say(_("{name} is still cut off from the Floo network.", name=state.names[state.current])))
    return said


def to_move(state: ClueState) -> list[Effect]:
    """After the black die: move by the green die or a lit fireplace."""
    state.step = MOVE
    green = state.roll["green"] if state.roll else 0
    return [
        Say(
            _n(
                "{name}, move up to {count} space, or use a lit fireplace.",
                "{name}, move up to {count} spaces, or use a lit fireplace.",
                green,
                name=state.names[state.current],
            )
        )
    ]


def end_turn(state: ClueState) -> list[Effect]:
    """Play continues to the left, past anyone whose accusation was wrong."""
    nxt = state.next_player()
    if nxt is None:
        # Clue: the rulebook is silent when every accuser was wrong; as in classic Clue
        # nobody wins and the envelope is opened.
        return finish(state, None)
    state.current = nxt
    return begin_turn(state)


def finish(state: ClueState, winner: int | None) -> list[Effect]:
    """The game ends and the envelope is shown to all (it is no longer a secret)."""
    state.step, state.winner, state.showing = OVER, winner, None
    held = listing(state.envelope)
    if state.physical:
        if winner is None:
            return [Say(_("Every accusation was wrong: nobody wins. Open the envelope."))]
        said = _("{name} has solved the mystery and wins! Show everyone the envelope.", name=state.names[winner])
        return [Say(said)]
    if winner is None:
        return [Say(_("Every accusation was wrong: nobody wins. The envelope held {cards}.", cards=held))]
    return [
        Say(
            _(
                "{name} has solved the mystery and wins! The envelope held {cards}.",
                name=state.names[winner],
                cards=held,
            )
        )
    ]


def cut_off(state: ClueState, seat: int) -> list[Effect]:
    """What is said when a player's Floo powder reaches zero."""
    if state.floo[seat] > 0:
        return []
    return [Say(_("{name} has no Floo powder left and is cut off from the Floo network.", name=state.names[seat]))]
