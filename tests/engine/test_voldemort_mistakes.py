"""One test for each mistake other Secret Hitler implementations are known to have made."""

from __future__ import annotations

import random

import pytest

from engine.actions import IllegalAction
from engine.games.voldemort_rules import DARK_ARTS, DEATH_EATER, ORDER, VOLDEMORT
from support.voldemort import Play, accounted, page_action, seats_with, seeded


def test_the_last_voter_does_not_become_headmaster() -> None:
    play = Play(5)
    play.rig(minister=0)
    play.nominate(2)
    play.votes([True, True, True, True, True])  # Eve (seat 4) votes last
    assert play.s.headmaster == 2 and play.s.last_headmaster == 2
    assert play.table.private_view(4)["view"]["policies"] == []


SECRET_HITLER_LIMITS = {"term_limits": "original game's rule (5 or fewer alive)"}


def test_with_five_players_the_last_minister_may_be_nominated_by_secret_hitlers_rule() -> None:
    play = Play(5, **SECRET_HITLER_LIMITS)
    play.rig(minister=0, top=[ORDER] * 3)
    play.elect(2)
    play.legislate(ORDER, ORDER)
    assert play.s.minister == 1 and play.s.eligible() == [0, 3, 4]
    play.nominate(0)
    assert play.s.nominee == 0


def test_a_kill_down_to_five_living_lifts_the_ministers_term_limit_by_secret_hitlers_rule() -> None:
    play = seeded(6, lambda s: VOLDEMORT not in (s.roles[0], s.roles[5]), **SECRET_HITLER_LIMITS)
    play.rig(minister=0, dark_arts=3)
    play.pass_policy(DARK_ARTS, headmaster=2)
    assert play.s.step == "avada_kedavra"
    play.act("avada_kedavra", by=0, choice=5)
    assert play.s.minister == 1 and 0 in play.s.eligible() and 2 not in play.s.eligible()


def test_the_tracker_is_reset_by_an_enacted_policy_so_later_failures_start_again() -> None:
    play = Play(7)
    play.fail()
    play.fail()
    play.pass_policy(ORDER)
    play.fail()
    assert play.s.election == 1 and play.s.order == 1 and play.s.dark_arts == 0


def test_a_dead_player_after_imperio_is_never_the_next_minister() -> None:
    # Ann casts Imperio on Dan; Dan's government brings Avada Kedavra and Dan kills Bob,
    # the player left of Ann, who would be the next Minister.
    play = seeded(7, lambda s: VOLDEMORT not in (s.roles[0], s.roles[1], s.roles[3]))
    play.rig(minister=0, dark_arts=2)
    play.pass_policy(DARK_ARTS)
    play.act("imperio", by=0, choice=3)
    play.pass_policy(DARK_ARTS)
    play.act("avada_kedavra", by=3, choice=1)
    assert play.s.minister == 2 and play.s.step == "nominate"
    assert all(e.seat != 1 for e in play.table.expects())


def test_the_rotation_wraps_past_a_dead_last_seat_after_imperio() -> None:
    # Fay (seat 5) casts Imperio; the chosen Minister's government kills Gus (seat 6, last
    # in seat order): the rotation must go on to Ann (seat 0), not stall.
    play = seeded(7, lambda s: VOLDEMORT not in (s.roles[5], s.roles[6], s.roles[2]))
    play.rig(minister=5, dark_arts=2)
    play.pass_policy(DARK_ARTS)
    play.act("imperio", by=5, choice=2)
    play.pass_policy(DARK_ARTS)
    play.act("avada_kedavra", by=2, choice=6)
    assert play.s.minister == 0 and play.s.step == "nominate"
    play.fail()
    assert play.s.minister == 1


def test_a_veto_can_be_asked_once_per_session_so_it_never_loops() -> None:
    play = Play(7)
    play.rig(dark_arts=5, top=[ORDER, DARK_ARTS, DARK_ARTS])
    play.elect()
    play.act("discard", by=play.s.minister, choice="Dark Arts")
    play.act("veto", by=play.s.headmaster)
    play.act("answer", by=play.s.minister, choice="refuse")
    with pytest.raises(IllegalAction):
        play.act("veto", by=play.s.headmaster)
    r = random.Random(0)  # answering whatever is offered ends the session
    while play.s.step in ("enact", "veto"):
        play.submit(page_action(r.choice(play.table.expects()), r))
    assert play.s.step != "veto" and len(play.s.enacted) == 6


def test_chaos_skips_the_spell_and_clears_the_term_limits() -> None:
    play = Play(5)  # the fourth Dark Arts policy would bring Avada Kedavra
    play.rig(minister=0, dark_arts=2)
    play.pass_policy(ORDER, headmaster=2)
    play.rig(dark_arts=1, top=[DARK_ARTS])
    for _ in range(3):
        play.fail()
    assert play.s.dark_arts == 4 and play.s.step == "nominate" and not play.s.dead
    assert 2 in play.s.eligible()
    assert play.s.last_minister is None and play.s.last_headmaster is None


def test_imperio_cannot_choose_the_minister_himself() -> None:
    play = seeded(7, lambda s: s.roles[0] != VOLDEMORT)
    play.rig(minister=0, dark_arts=2)
    play.pass_policy(DARK_ARTS)
    options = next(e.options for e in play.table.expects() if e.action == "imperio")
    assert "Ann" not in options
    with pytest.raises(IllegalAction, match="never yourself"):
        play.act("imperio", by=0, choice=0)
    assert play.s.step == "imperio"


@pytest.mark.parametrize("veto", [False, True])
def test_the_draw_pile_is_never_empty_when_a_session_starts(veto: bool) -> None:
    play = Play(7)
    play.rig(dark_arts=5 if veto else 0, top=[ORDER, ORDER, ORDER])
    s = play.s
    s.discard, s.draw = s.draw[3:], s.draw[:3]  # exactly three left for this session
    play.elect()
    play.act("discard", by=s.minister, choice="Order")
    if veto:
        play.act("veto", by=play.s.headmaster)
        play.act("answer", by=play.s.minister, choice="agree")
    else:
        play.act("enact", by=play.s.headmaster, choice="Order")
    assert len(play.s.draw) >= 3 and accounted(play.s) == 17
    play.elect()
    assert len(play.table.private_view(play.s.minister)["view"]["policies"]) == 3


def test_a_chaos_policy_never_leaves_fewer_than_three() -> None:
    play = Play(7)
    s = play.s
    play.rig(top=[ORDER, ORDER, ORDER])
    s.discard, s.draw = s.draw[3:], s.draw[:3]
    for _ in range(3):
        play.fail()
    assert play.s.order == 1 and len(play.s.draw) == 16 and accounted(play.s) == 17


def test_crucio_shows_the_party_card_not_the_role() -> None:
    play = seeded(7, lambda s: s.roles[0] != VOLDEMORT)
    play.rig(minister=0, dark_arts=1)
    play.pass_policy(DARK_ARTS)
    voldemort = seats_with(play.s, VOLDEMORT)[0]
    play.act("crucio", by=0, choice=voldemort)
    shown = play.table.private_view(0)["view"]["crucio"]
    assert shown == [{"name": play.s.names[voldemort], "party": "Death Eater"}]
    assert play.s.crucio[0] == {voldemort: DEATH_EATER}


def test_a_killed_player_never_votes() -> None:
    play = seeded(5, lambda s: VOLDEMORT not in (s.roles[0], s.roles[3]))
    play.rig(minister=0, dark_arts=3)
    play.pass_policy(DARK_ARTS)
    play.act("avada_kedavra", by=0, choice=3)
    play.nominate(2)
    assert sorted(e.seat for e in play.table.expects() if e.action == "vote") == [0, 1, 2, 4]
    with pytest.raises(IllegalAction):
        play.act("vote", by=3, vote=True)
    with pytest.raises(IllegalAction):
        play.act("vote", vote=True, seat=3)
    with pytest.raises(IllegalAction, match="only 4"):
        play.act("hands", choice=5)  # a show of hands counts the living only
    for seat in (0, 1, 2, 4):
        play.act("vote", by=seat, vote=seat != 0)
    assert play.s.last_vote["yes"] == 3 and play.s.last_vote["no"] == 1 and play.s.headmaster == 2
