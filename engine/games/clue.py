"""Harry Potter Clue (3-5 players, the edition with four wheels, a black symbol die and
Floo powder) as the box plays it.

The box is the envelope and deals the Mystery cards to phones; it reads both dice,
keeps each wheel's notch and says when the Dark Mark means a Dark card, keeps every
player's Floo powder and Help cards, runs suggestions (the card shown goes to the
suggester's phone alone) and accusations (the envelope to the accuser's phone alone),
and keeps each phone's notepad.  Where the rulebook is silent classic Clue's rules
apply, each marked ``# Clue:`` where it is applied.

The moves (``choice`` as offered by the prompt):

==========  ======================================  =====================================
kind        data                                    who (besides the host)
==========  ======================================  =====================================
identity    {"choice": character} (+ "seat")         each player, once
first       {"choice": player}                      host only (next birthday)
roll        {"dice": [green, black face]}           the player whose turn it is
wheel       {"choice": "yes" | "no"}                host only (a wheel with no layout)
pinches     {"choice": 0..12}                       the player whose turn it is
dark_card   {"choice": who pays, in one line}       the player whose turn it is
settle      {"choice": what the Dark card does}     each affected player in turn (when
                                                    settled player by player)
move        {"choice": where the player went}       the player whose turn it is
suspect     {"choice": suspect}                     the player (begins a suggestion
                                                    in a location, an accusation in
                                                    The Burrow)
item        {"choice": item}                        the player
place       {"choice": location}                    the player (accusations)
end_turn    {}                                      the player
show        {"choice": card}                        the holder's phone only
notepad     {"choice": on | off}                    each player's phone only
burrow      {"choices": [card...]}                  host only (real cards, at set-up)
hand        {"choices": [card...]}                  each player's phone only (real cards)
tick        {"choice": card} (+ "by": player)       each player's phone only (real cards)
seen        {"choice": card}                        the suggester's phone only (real cards:
                                                    the card just shown to them)
==========  ======================================  =====================================

Final steps (undo stops at them, see engine.table): a card shown to the suggester, a
wrong accusation (the accuser has seen the envelope), and the end of the game.  Rolls,
wheel turns, moves, suggestions and answers before a card is shown may be undone; the
phones' notepad switches are private moves, which undo passes over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.display import card, reveal
from engine.effects import Effect, Track
from engine.game import Turn
from engine.games import clue_floo as floo
from engine.games import clue_mystery as mystery
from engine.games import clue_setup as setup
from engine.games import clue_turn as turns
from engine.games.clue_notepad import HELPER_MOVE, notepad, own_hand
from engine.games.clue_physical import HAND_MOVE, SEEN_MOVE, TICK_MOVE
from engine.games.clue_rules import FLOO, WHEELS
from engine.games.clue_state import ANSWER, FIRST, IDENTITY, OVER, SHOW, ClueState
from engine.games.clue_wheels import WHEELS_EXAMPLE, learned_layout, shows_dark_mark
from engine.messages import Msg, words
from engine.steps import Step, StepGame

_, _n = words("clue")


class Clue(StepGame[ClueState]):
    """Harry Potter Clue."""

    name = "clue"
    title = _("Harry Potter Clue")
    min_seats = 3
    max_seats = 5
    options = setup.OPTIONS
    option_choices = setup.OPTION_CHOICES
    option_names, option_words = setup.OPTION_NAMES, setup.OPTION_WORDS
    kept_options = {"wheels": WHEELS_EXAMPLE}  # a board's notches and Dark Marks: entered once per board
    steps = (
        setup.IDENTITY_STEP,
        setup.FIRST_STEP,
        turns.ROLL_STEP,
        turns.WHEEL_STEP,
        floo.PINCHES_STEP,
        floo.DARK_STEP,
        turns.MOVE_STEP,
        mystery.ROOM_STEP,
        mystery.BURROW_OPEN_STEP,
        mystery.ITEM_STEP,
        mystery.PLACE_STEP,
        mystery.SHOW_STEP,
        mystery.ANSWER_STEP,
        mystery.VERDICT_STEP,
        Step[ClueState](OVER, _("the game is over"), ()),
    )
    anytime = (HELPER_MOVE, TICK_MOVE, SEEN_MOVE, HAND_MOVE)
    labels = {
        "status": _("Now"),
        "floo": _("Floo powder"),
        "board": _("Players"),
        "wheel_notches": _("Wheels"),
        "wheels": _("Wheels"),  # the kept option, in the set-up form
        "wheels_learned": _("Wheels learned this game (enter them at the next set-up)"),
        "burrow": _("Face up in The Burrow"),
        "story": _("The story of the game"),
        "envelope": _("The envelope"),
        "cards": _("Your Mystery cards"),
        "character": _("Your character"),
        "notepad": _("Your notepad"),
        "shown_to_you": _("Cards shown to you"),
        "you_showed": _("Cards you showed"),
        "envelope_seen": _("The envelope (your accusation)"),
    }

    def setup(self, options: Mapping[str, Any], turn: Turn) -> tuple[ClueState, list[Effect]]:
        return setup.new_state(options, turn)

    def is_over(self, state: ClueState) -> bool:
        return state.step == OVER

    def tracks(self, state: ClueState) -> dict[str, Track]:
        """The Floo powder of the player whose turn it is; blinking when cut off."""
        seat = state.current
        return {"floo": Track(state.floo[seat], FLOO[state.players], attention=state.floo[seat] == 0)}

    def describe(self, public: ClueState) -> dict[str, Any]:
        """The host page's status line and the table's facts, all public."""
        names = public.names
        return {
            "status": _status(public),
            "board": [
                {
                    "name": names[s],
                    "character": public.identities.get(s),
                    "floo": public.floo[s],
                    "cut_off": public.floo[s] == 0,
                    "help_cards": public.help[s],
                    "where": public.where[s],
                    "out": s in public.eliminated,
                }
                for s in range(public.players)
            ],
            "wheel_notches": [
                {
                    "wheel": WHEELS[w.face],
                    "notch": w.notch,
                    "notches": w.notches,
                    "dark_mark": shows_dark_mark(w),
                }
                for w in public.wheels
            ],
            "wheels_learned": learned_layout(public.wheels),
            "story": _story(public),  # the lines, not the facts the state keeps
            **_ending(public),
        }

    def present(self, public: ClueState, seat: int, mine: dict[str, Any]) -> dict[str, Any]:
        """One seat's cards, character, notepad and what it was shown."""
        names = public.names
        hand = own_hand(mine)
        return {
            "card": card(
                public.identities.get(seat) or _("Your Mystery cards"),
                "gold",
                icon="star",
                history=hand,
                covers=("character", "cards"),
            ),
            "character": public.identities.get(seat),
            "cards": hand,
            "notepad": notepad(public, seat, mine),
            "helper": bool(mine.get("helper")),
            "shown_to_you": [
                {"card": s["card"], "by": names[int(s["by"])], "suggestion": s["suggestion"] + 1}
                for s in mine.get("shown") or []
            ],
            "you_showed": [
                {"card": g["card"], "to": names[int(g["to"])], "suggestion": g["suggestion"] + 1}
                for g in mine.get("gave") or []
            ],
            "envelope_seen": mine.get("peeks") or [],
            "out": seat in public.eliminated,
        }


def _story(public: ClueState) -> list[Msg]:
    """Every turn in order: where its player went, and the suggestion (who showed a card,
    never which) or the accusation (right or wrong) made there."""
    return [_turn(public, number, told) for number, told in enumerate(public.story, start=1)]


def _turn(public: ClueState, number: int, told: dict[str, Any]) -> Msg:
    said = dict(turn=number, name=public.names[told["by"]], move=_moved(told))
    if told.get("accusation") is not None:
        return _("Turn {turn}, {name}: {move}; {then}", then=_accused(public, told["accusation"]), **said)
    if told.get("suggestion") is not None:
        return _("Turn {turn}, {name}: {move}; {then}", then=_suggested(public, told["suggestion"]), **said)
    return _("Turn {turn}, {name}: {move}", **said)


def _moved(told: dict[str, Any]) -> Msg:
    if told["star"]:
        return _("lands on a star")
    if told["to"] is None:
        return _("moves along the board")
    if told["floo"]:
        return _("travels by Floo powder to {place}", place=told["to"])
    return _("moves to {place}", place=told["to"])


def _suggested(public: ClueState, index: int) -> Msg:
    record = public.suggestions[index]
    said = dict(suspect=record["suspect"], item=record["item"], location=str(record["location"]))
    if record["shown_by"] is not None:
        holder = public.names[record["shown_by"]]
        return _("suggests {suspect} with the {item} in {location}: {holder} shows a card", holder=holder, **said)
    if public.step in (SHOW, ANSWER) and index == len(public.suggestions) - 1:
        return _("suggests {suspect} with the {item} in {location}: waiting for a card", **said)
    return _("suggests {suspect} with the {item} in {location}: nobody can show a card", **said)


def _accused(public: ClueState, index: int) -> Msg:
    record = public.accusations[index]
    said = dict(suspect=record["suspect"], item=record["item"], location=record["location"])
    if record["right"]:
        return _("accuses {suspect} with the {item} in {location}: right", **said)
    return _("accuses {suspect} with the {item} in {location}: wrong", **said)


def _ending(public: ClueState) -> dict[str, Any]:
    """At the end: each player's character (who solved it gold, who was out grey), the
    envelope's three cards, the suspects accused, and every turn in order."""
    if public.step != OVER:
        return {}

    def seat_card(seat: int) -> dict[str, Any]:
        character = public.identities.get(seat) or public.names[seat]
        if seat == public.winner:
            return card(character, "gold", _("solved the mystery"), icon="crown")
        if seat in public.eliminated:
            return card(character, "grey", _("out of the game"), icon="flag")
        return card(character, "purple", _("still searching"), icon="star")

    cards = [(public.names[s], seat_card(s)) for s in range(public.players)]
    if public.envelope:  # the box's own envelope (with physical cards the table opens its own)
        suspect, item, location = public.envelope
        held = _("with the {item} in {location}", item=item, location=location)
        cards.append((_("The envelope"), card(suspect, "red", held, icon="scales")))
    return {
        "reveal": reveal(
            cards,
            outcome=_status(public),
            accused=list(dict.fromkeys(str(a["suspect"]) for a in public.accusations)),
            story=_story(public),
        )
    }


def _status(state: ClueState) -> str:
    name = state.names[state.current]
    if state.step == OVER:
        if state.winner is None:
            return _("Game over: nobody solved the mystery")
        return _("Game over: {name} solved the mystery", name=state.names[state.winner])
    if state.step in (IDENTITY, FIRST):
        return _DOING[state.step]
    if state.step == SHOW and state.showing is not None:
        return _("{name} must show a card, on their phone", name=state.names[state.showing])
    return _("{name}'s turn: {doing}", name=name, doing=_DOING[state.step])


_DOING = {step.name: step.doing for step in Clue.steps}
