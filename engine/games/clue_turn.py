"""Harry Potter Clue, a turn: roll both dice, check the black die, move.

The camera reads the green die and the taught black die together (or the host types
them: the green die's pips, the black die's face by name).  A star means a Help card;
a location turns that corner's wheel one notch clockwise; the Dark Mark on the die, on
the wheel just turned, or both, means one Dark card.  Then the player moves by the green
die or by a lit fireplace and says where they ended up.
"""

from __future__ import annotations

import re
from typing import Any

from engine.actions import IllegalAction
from engine.args import Choice, Dice
from engine.effects import Effect, Expect, Say
from engine.game import Turn
from engine.games.clue_floo import begin_dark, fireplace
from engine.games.clue_flow import PLAYER, end_turn, player, to_move
from engine.games.clue_rules import BLACK_FACES, BURROW, DARK_MARK, FACE_NAME, MOST_NOTCHES, STAR, wheel_place
from engine.games.clue_state import BURROW_STEP, MOVE, ROLL, ROOM, WHEEL, ClueState
from engine.games.clue_wheels import back_at_start, shows_dark_mark, turn_wheel, wheel_of
from engine.messages import listing, words
from engine.steps import Move, Step

_, _n = words("clue")

GREEN_FACE = re.compile(r"(?:green[-_.]?)?([1-6])")
"""A green die taught by face name rather than read by its pips: "green-4" or "4"."""
YES, NO = _("yes"), _("no")
AT_START = _("no: it shows START again")
STAR_SPACE = _("a star space")
ELSEWHERE = _("another space on the board")
ON_DIE = _("the black die")


def black_face(value: Any) -> str | None:
    """The black die's face a value names (case and separators as the teacher typed)."""
    if not isinstance(value, str):
        return None
    name = re.sub(r"[-_.\s]+", "-", value.strip().casefold())
    return name if name in BLACK_FACES else None


def green_pips(value: Any) -> int | None:
    if isinstance(value, int):
        return value
    match = GREEN_FACE.fullmatch(value.strip().casefold()) if isinstance(value, str) else None
    return int(match.group(1)) if match else None


def read_roll(values: list[Any]) -> tuple[int, str]:
    """The green die's number and the black die's face, in whichever order they came."""
    faces = [black_face(v) for v in values]
    black = [f for f in faces if f is not None]
    green = [green_pips(v) for v, f in zip(values, faces, strict=True) if f is None]
    if len(black) != 1 or len(green) != 1 or green[0] is None:
        raise IllegalAction(
            _("roll the green die and the black die: a number and one of {faces}", faces=listing(BLACK_FACES, "or"))
        )
    return green[0], black[0]


def roll(state: ClueState, turn: Turn) -> list[Effect]:
    green, black = read_roll(turn.args["dice"])
    state.roll = {"green": green, "black": black}
    name = state.names[state.current]
    if black == STAR:
        state.help[state.current] += 1
        return [Say(_("A star: {name}, take a Help card and place it in front of you.", name=name)), *to_move(state)]
    if black == DARK_MARK:
        showing = [w for w in state.wheels if shows_dark_mark(w)]
        where = [ON_DIE, *(_("the {place} wheel", place=wheel_place(w.face)) for w in showing)]
        return begin_dark(state, where)
    said: list[Effect] = [Say(_("Turn the {place} wheel one notch clockwise.", place=wheel_place(black)))]
    shows = turn_wheel(wheel_of(state.wheels, black))
    if shows is None:
        state.step = WHEEL
        return said
    if shows:
        return said + begin_dark(state, [_("the {place} wheel", place=wheel_place(black))])
    return said + to_move(state)


def wheel(state: ClueState, turn: Turn) -> list[Effect]:
    """The host looked at a wheel the box has no layout for (the answer is kept)."""
    face = state.roll["black"] if state.roll else ""
    turned, choice = wheel_of(state.wheels, face), turn.args["choice"]
    if choice == AT_START:
        back_at_start(turned)
        return to_move(state)
    turned.learned[turned.notch] = choice == YES
    if choice == YES:
        return begin_dark(state, [_("the {place} wheel", place=wheel_place(face))])
    return to_move(state)


def _wheel_answers(state: ClueState) -> tuple[str, ...]:
    """Yes or no; and START once the wheel has gone round (START shows no Dark Mark)."""
    turned = wheel_of(state.wheels, state.roll["black"]) if state.roll else None
    round_done = turned is not None and MOST_NOTCHES >= turned.notch >= 2
    return (YES, NO, AT_START) if round_done else (YES, NO)


def destinations(state: ClueState) -> dict[str, tuple[str | None, bool]]:
    """Where the player may say they went: option -> (location or None, by fireplace).

    A star space is ``STAR_SPACE``, any other space ``None``.  The location the turn
    began in is not offered: it must be left and not re-entered this turn."""
    # Clue: the rulebook lets a fireplace take a player "to another room" and is silent
    # on The Burrow; the box counts it as a room like the other locations, so a fireplace
    # move there is offered (the table simply does not pick it if its board has none).
    places = [p for p in [*state.locations, BURROW] if p != state.must_leave]
    out: dict[str, tuple[str | None, bool]] = {p: (p, False) for p in places}
    out[STAR_SPACE] = (STAR_SPACE, False)
    out[ELSEWHERE] = (None, False)
    if state.where[state.current] is not None and state.floo[state.current]:
        # The rulebook: "use a lit fireplace to move to another room"; a fireplace is in a room.
        for place in places:
            out[_("by fireplace to {place}", place=place)] = (place, True)
    return out


def move(state: ClueState, turn: Turn) -> list[Effect]:
    place, by_floo = destinations(state)[turn.args["choice"]]
    seat, name = state.current, state.names[state.current]
    said = fireplace(state, str(place)) if by_floo else []
    state.story.append(
        {"by": seat, "to": None if place == STAR_SPACE else place, "star": place == STAR_SPACE, "floo": by_floo}
    )
    if place == STAR_SPACE:
        state.where[seat] = None
        state.help[seat] += 1
        return said + [Say(_("{name} lands on a star: take a Help card.", name=name)), *end_turn(state)]
    state.where[seat] = place
    if place is None:
        return said + end_turn(state)
    if place == BURROW:
        state.step = BURROW_STEP
        return said + [Say(_("{name} is in The Burrow: make an accusation, or end your turn.", name=name))]
    state.step = ROOM
    return said + [Say(_("{name} enters {place}: make a suggestion, or end your turn.", name=name, place=place))]


def _ask_roll(state: ClueState) -> list[Expect]:
    prompt = _("{name}: roll the green die and the black die", name=state.names[state.current])
    faces = tuple(FACE_NAME[face] for face in BLACK_FACES)
    return [
        Expect("dice", "roll", prompt, seat=state.current, count=2, symbols=True, options=BLACK_FACES, labels=faces)
    ]


def _ask_move(state: ClueState) -> list[Expect]:
    prompt = _("{name}: where did you move?", name=state.names[state.current])
    return [Expect.choice("move", prompt, tuple(destinations(state)), seat=state.current)]


ROLL_STEP = Step[ClueState](
    ROLL,
    _("the player is rolling the dice"),
    (Move("roll", roll, args={"dice": Dice(count=2, named=True)}, by=player, role=PLAYER, ask=_ask_roll),),
)

WHEEL_STEP = Step[ClueState](
    WHEEL,
    _("the host is looking at the wheel"),
    (
        Move(
            "wheel",
            wheel,
            args={"choice": Choice(_wheel_answers)},
            ask=lambda s: [
                Expect.choice("wheel", _("Does the Dark Mark show on the wheel just turned?"), _wheel_answers(s))
            ],
        ),
    ),
)

MOVE_STEP = Step[ClueState](
    MOVE,
    _("the player is moving"),
    (
        Move(
            "move",
            move,
            args={"choice": Choice(lambda s: list(destinations(s)))},
            by=player,
            role=PLAYER,
            ask=_ask_move,
        ),
    ),
)
