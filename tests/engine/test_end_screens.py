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


def test_voldemorts_end_tells_the_story_of_the_game_in_order() -> None:
    from engine.games.voldemort_rules import DARK_ARTS, ORDER
    from support.voldemort import Play as VoldemortPlay

    play = VoldemortPlay(7)
    play.rig(minister=0, dark_arts=1)
    play.pass_policy(DARK_ARTS)
    minister, target = play.s.names[0], play.s.names[3]
    play.act("crucio", by=0, choice=3)
    play.rig(order=4, top=[ORDER, ORDER, DARK_ARTS])
    next_minister = play.s.names[play.s.minister]
    play.elect()
    headmaster = play.s.names[play.s.headmaster]
    play.act("discard", by=play.s.minister, choice="Dark Arts")
    play.act("enact", by=play.s.headmaster, choice="Order")
    story = play.table.public_view()["view"]["reveal"]["story"]
    assert story[1:] == [
        f"{minister} casts Crucio on {target}.",  # whom, never what it showed
        f"{next_minister} and {headmaster} enact an Order policy.",
    ]
    assert story[0].endswith("enact a Dark Arts policy.")
    assert "Death Eater" not in " ".join(story)
