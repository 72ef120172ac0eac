"""No single tap ends Secret Voldemort by mistake: every prompt whose answer may end the
game (and so reveal every role) is ``final``, which the phone asks again before it
sends; no other prompt is, so the table is not asked twice for nothing.  Whether a
prompt is final depends only on what the table sees (the tracks, who has voted), never
on a secret: a final vote does not say the nominee is Voldemort."""

from __future__ import annotations

from engine.effects import Expect
from engine.games.voldemort_rules import DARK_ARTS, ORDER, VOLDEMORT
from support.voldemort import Play, seeded


def asked(play: Play, action: str) -> list[Expect]:
    return [e for e in play.table.expects() if e.action == action]


def finals(play: Play) -> set[str]:
    return {e.action for e in play.table.expects() if e.final}


def test_avada_kedavra_is_asked_again_and_the_other_spells_are_not() -> None:
    play = seeded(5, lambda s: s.roles[0] != VOLDEMORT)
    play.rig(minister=0, dark_arts=3)
    play.pass_policy(DARK_ARTS)
    assert play.s.step == "avada_kedavra"
    assert [e.final for e in asked(play, "avada_kedavra")] == [True]
    assert asked(play, "avada_kedavra")[0].to_json()["final"] is True  # what the phone reads
    for before, step in ((1, "crucio"), (2, "imperio")):
        play = seeded(7, lambda s: s.roles[0] != VOLDEMORT)
        play.rig(minister=0, dark_arts=before)
        play.pass_policy(DARK_ARTS)
        assert play.s.step == step and not finals(play)


def test_the_headmasters_enactment_is_asked_again_one_policy_from_a_win() -> None:
    for order, dark_arts, final in ((4, 0, True), (0, 4, False), (3, 3, False)):
        play = Play(7)
        play.rig(minister=0, order=order, dark_arts=dark_arts, top=[ORDER, ORDER, DARK_ARTS])
        play.elect()
        assert not finals(play)  # the Minister's discard never ends the game
        play.act("discard", by=play.s.minister, choice="Order")
        assert [e.final for e in asked(play, "enact")] == [final], (order, dark_arts)
    play = Play(7)
    play.rig(minister=0, dark_arts=5, top=[DARK_ARTS] * 3)
    play.elect()
    play.act("discard", by=play.s.minister, choice="Dark Arts")
    assert asked(play, "enact")[0].final


def test_the_physical_policy_is_asked_again_one_policy_from_a_win() -> None:
    play = Play(5, deck="physical")
    play.s.dark_arts = 4  # the physical deck's cards are unseen: only the track is set
    play.elect()
    assert {e.final for e in asked(play, "policy")} == {False}
    play.s.dark_arts = 5
    assert {e.kind for e in asked(play, "policy") if e.final} == {"cards", "choice"}


def test_after_three_dark_arts_policies_the_vote_that_ends_it_is_asked_again() -> None:
    play = Play(7)
    play.rig(dark_arts=2)
    play.nominate(play.s.eligible()[0])
    assert not finals(play)
    play.s.dark_arts = 3  # an elected Voldemort would win now, whoever is nominated
    assert finals(play) == {"hands"}
    for seat in play.s.living()[:-1]:
        play.act("vote", by=seat, vote=True)
    last = play.s.living()[-1]
    assert [(e.seat, e.final) for e in asked(play, "vote")] == [(last, True)]


def test_a_third_failure_is_asked_again_when_chaos_may_win() -> None:
    play = Play(7)
    play.rig(order=4)
    play.fail()
    play.fail()
    play.nominate(play.s.eligible()[0])
    assert finals(play) == {"hands"}
    physical = Play(7, deck="physical")
    physical.s.order = 4
    physical.fail()
    physical.fail()
    physical.nominate(physical.s.eligible()[0])
    assert not finals(physical)  # its chaos policy is entered later, and asked again then


def test_an_agreed_veto_is_asked_again_when_its_chaos_may_win() -> None:
    play = Play(7)
    play.rig(dark_arts=5, top=[ORDER, DARK_ARTS, DARK_ARTS])
    play.fail()
    play.fail()
    play.elect()
    play.act("discard", by=play.s.minister, choice="Dark Arts")
    play.act("veto", by=play.s.headmaster)
    assert [e.final for e in asked(play, "answer")] == [True]
    play.table.undo()
    play.s.election = 1
    play.act("veto", by=play.s.headmaster)
    assert [e.final for e in asked(play, "answer")] == [False]
