"""What the end screens show (issue 50.10): Kampf's three middle cards beside the seats'
cards."""

from __future__ import annotations

import random

from engine.games.kampf_roles import ROLE_NAME
from engine.games.kampf_state import DAY_TIMER, OVER
from support.kampf import Play


def test_kampfs_end_shows_the_three_middle_cards_after_the_seats() -> None:
    play = Play(5, 3)
    play.dawn()
    play.timer_runs_out(DAY_TIMER)
    r = random.Random(3)
    for seat in range(play.s.players):
        play.act("vote", by=seat, choice=r.choice(play.s.others(seat)))
    assert play.s.step == OVER
    cards = play.table.public_view()["view"]["reveal"]["cards"]
    assert [c["name"] for c in cards] == [*play.s.names, "Middle, left", "Middle, centre", "Middle, right"]
    middle = [str(ROLE_NAME[role]) for role in play.s.cards[play.s.players :]]
    assert [c["card"]["word"] for c in cards[-3:]] == middle
