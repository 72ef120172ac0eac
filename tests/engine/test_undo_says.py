"""The undo button says which prompt it takes back the answer to, and nothing at night."""

from __future__ import annotations

from support.kampf import Play as KampfPlay
from support.unmask import Play


def test_undo_names_the_public_prompt_the_last_action_answered():
    play = Play(5, 3)
    play.roles()
    asked = next(e for e in play.table.expects() if e.action == "roll")
    play.act("roll", dice=[2, 3])
    assert play.table.public_view()["undoes"] == asked.prompt
    play.table.undo()
    assert play.table.public_view()["undoes"] != asked.prompt  # the roll is taken back: undo moves to the answer before


def test_undo_says_nothing_while_who_acts_is_a_secret():
    play = KampfPlay(5, 3)
    assert play.table.public_view()["undoes"] is None  # the game's start answers no prompt
    play.act("start")
    views = [play.table.public_view()["undoes"]]
    while play.s.step == "night":
        play.timer_runs_out()
        views.append(play.table.public_view()["undoes"])
    assert set(views) == {None}
