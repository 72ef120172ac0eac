"""Kampf gegen die dunklen Mächte: the night sounds and lasts the same whoever holds
which card.  For every call, the night's narration (each line with its pause, each
call's timer with its length, in order) and everything the host page shows are
compared between a deal with the call's card at a player and one with it in the middle,
and with the phones answering or not.  (The narrator measuring its own start and end
times on the box is tested with the device.)"""

from __future__ import annotations

import random

import pytest

from engine.actions import Action
from engine.games.kampf_calls import EYES_S, SHUT_S, TURN_S
from engine.games.kampf_roles import (
    DEATH_EATER,
    DUMBLEDORE,
    FRED,
    GEORGE,
    HARRY,
    HERMIONE,
    MCGONAGALL,
    NEVILLE,
    RON,
    SIRIUS,
    STUDENT,
    WAKE_ORDER,
)
from engine.games.kampf_state import NIGHT
from support.kampf import Play, narration, page_action

CAST = [HERMIONE, SIRIUS, DUMBLEDORE, NEVILLE, RON, HARRY, MCGONAGALL]
"""With the Death Eaters, the twins and two students: 13 cards, 10 players."""


def night(cards: list[str], answer: bool, seed: int = 0) -> tuple[list[tuple[str, str, float]], list[object]]:
    """One whole night of this deal: what the table heard, and every host view on the way."""
    play = Play(len(cards) - 3, seed, scenario="free", roles=cards)
    play.deal(*cards)
    r = random.Random(seed)
    start = len(play.effects)
    play.act("start")
    views = [play.table.public_view()]
    while play.s.step == NIGHT:
        for expect in play.table.expects() if answer else []:
            play.submit(page_action(expect, r))
            for again in play.table.expects():  # a second step (Sirius, Dumbledore)
                if again.seat == expect.seat:
                    play.submit(page_action(again, r))
            assert play.table.public_view() == views[-1], "an answer changed the host page"
        play.timer_runs_out()
        views.append(play.table.public_view())
    return narration(play.effects[start:]), [v for v in views if v["view"]["step"] == NIGHT]


def deals(call_roles: tuple[str, ...]) -> list[list[str]]:
    """The call's cards with players, half in the middle (twins, Death Eaters), all in the middle."""
    rest = [r for r in [DEATH_EATER, DEATH_EATER, FRED, GEORGE, *CAST, STUDENT, STUDENT] if r not in call_roles]
    mine = list(call_roles)
    out = [mine + rest, rest + mine]
    if len(mine) == 2:
        out.append([mine[0], *rest, mine[1]])
    return out


@pytest.mark.parametrize("call, roles", WAKE_ORDER, ids=[c for c, _r in WAKE_ORDER])
def test_a_call_sounds_and_lasts_the_same_with_its_card_at_a_player_or_in_the_middle(call, roles):
    heard = set()
    shown = []
    for cards in deals(roles):
        for answer in (False, True):
            said, views = night(cards, answer)
            heard.add(tuple(said))
            shown.append(views)
    assert len(heard) == 1, "the night's words or timing depend on the deal"
    # the host page is the same at every moment of the night, answers or none
    assert all(len(v) == len(shown[0]) for v in shown)
    assert all(v == shown[0] for v in shown)


def test_every_call_is_woken_and_closed_with_the_same_fixed_times():
    said, _views = night([DEATH_EATER, DEATH_EATER, FRED, GEORGE, *CAST, STUDENT, STUDENT], answer=True)
    timers = [part for part in said if part[0] == "timer" and part[1] == "night"]
    assert [t[2] for t in timers] == [TURN_S] * len(WAKE_ORDER)
    assert said[0] == ("say", "Night falls. Everyone, close your eyes.", EYES_S)
    closes = [part for part in said if part[0] == "say" and part[1].endswith("close your eyes.")][1:]
    assert [c[2] for c in closes] == [SHUT_S] * len(WAKE_ORDER)
    wakes = [part[1] for part in said if part[0] == "say" and part[1][:1].isdigit()]
    assert [w.split(":")[0] for w in wakes] == [str(n) for n in range(1, 10)]
    assert "3: Hermione Granger, Stupefy! Open your eyes." in wakes[2]


def whole_night(play: Play) -> list[tuple[str, str, float]]:
    start = len(play.effects)
    play.dawn()
    return narration(play.effects[start:])


def test_the_physical_night_says_the_same_calls_without_the_phones():
    digital = whole_night(Play(3, 0, scenario="Das erste Schuljahr"))
    physical = whole_night(Play(3, 0, scenario="Das erste Schuljahr", cards="physical"))
    assert ("say", "Do it on your phone.", 0.0) in digital
    assert ("say", "Do it on your phones.", 0.0) in digital  # the Death Eaters' call
    assert physical == [part for part in digital if not part[1].startswith("Do it on your phone")]


def test_a_night_answer_is_silent_and_needs_no_host():
    play = Play(3, 0)
    play.act("start")
    for expect in play.table.expects():
        assert play.submit(Action(expect.action, {"choice": expect.options[0]}, expect.seat)) == []
