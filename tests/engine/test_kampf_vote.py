"""Kampf gegen die dunklen Mächte: the day, the vote and the resolution, case by case as
the issue lists them (ties, all one vote, Luna, Ginny, no Death Eater among the
players, parties changed at night), played through the table where the night matters."""

from __future__ import annotations

import random

import pytest

from engine.actions import IllegalAction
from engine.effects import StartTimer
from engine.games.kampf_outcome import ALL_ONE, NOBODY, captured, result, winners
from engine.games.kampf_roles import (
    DARK,
    DUMBLEDORE,
    GINNY,
    HERMIONE,
    HOGWARTS,
    LUNA,
    MCGONAGALL,
    NEVILLE,
    RON,
    SIRIUS,
    STUDENT,
)
from engine.games.kampf_roles import (
    DEATH_EATER as DE,
)
from engine.games.kampf_state import DAY_TIMER, NIGHT, NO_REPLACEMENT, OVER, REVEAL
from engine.table import replay
from support.kampf import Play, page_action

LEFT, MIDDLE, RIGHT = "the left card in the middle", "the middle card in the middle", "the right card in the middle"


def votes(*targets: int) -> dict[int, int]:
    return dict(enumerate(targets))


def game(*cards: str, **options: object) -> Play:
    play = Play(len(cards) - 3, 0, scenario="free", roles=list(cards), **options)
    play.deal(*cards)
    return play


# --- the rulebook's resolution, as a function of the votes and the cards at dawn ---------

FIVE = [DE, STUDENT, STUDENT, SIRIUS, DE]  # seats 0-4 at dawn


def test_the_most_votes_are_captured():
    assert result(votes(4, 0, 0, 0, 3), FIVE) == result(votes(4, 0, 0, 0, 3), FIVE)
    done = result(votes(4, 0, 0, 0, 3), FIVE)
    assert done.captured == [0] and done.winner == HOGWARTS
    assert winners(FIVE, done.winner) == [1, 2, 3]


def test_a_tie_captures_everyone_tied():
    done = result(votes(1, 0, 0, 1, 2), FIVE)
    assert done.captured == [0, 1] and done.winner == HOGWARTS  # a Hogwarts student captured too
    innocent = result(votes(1, 2, 1, 2, 3), FIVE)
    assert innocent.captured == [1, 2] and innocent.winner == DARK
    assert winners(FIVE, DARK) == [0, 4]


def test_when_every_player_has_exactly_one_vote_nobody_is_captured():
    done = result(votes(1, 2, 3, 4, 0), FIVE)
    assert done.captured == [] and done.reason == ALL_ONE and done.winner == DARK


def test_luna_in_a_tie_is_spared_and_only_the_others_tied_are_captured():
    final = [LUNA, DE, STUDENT, STUDENT, DE]
    assert captured(votes(1, 0, 0, 1, 3), final)[0] == [1]


def test_luna_first_with_a_tie_for_second_captures_both_seconds():
    final = [LUNA, DE, STUDENT, STUDENT, DE]
    # Luna 3 votes; Bob and Dan 1 each; Cat and Eve none.
    done = result(votes(1, 0, 0, 0, 3), final)
    assert done.captured == [1, 3] and done.winner == HOGWARTS


def test_luna_alone_with_votes_captures_nobody():
    final = [LUNA, DE, STUDENT]
    assert captured({1: 0, 2: 0}, final)[0] == []


def test_a_captured_ginny_takes_the_player_she_points_at():
    final = [GINNY, DE, STUDENT, STUDENT, DE]
    done = result(votes(4, 0, 0, 0, 0), final)  # Ginny captured, pointing at Eve
    assert done.captured == [0, 4] and done.winner == HOGWARTS
    assert 0 in winners(final, HOGWARTS)  # captured, and still a winner
    spared = result(votes(4, 3, 0, 2, 2), final)  # Ginny not captured: her vote is a vote
    assert spared.captured == [2]


def test_ginny_pointing_at_luna_captures_the_next_most_voted_instead():
    final = [GINNY, LUNA, DE, STUDENT, DE]
    # Ginny 3 votes (captured), pointing at Luna; Luna 1; Cat 1... the rest.
    tally = votes(1, 0, 0, 2, 0)
    assert captured(tally, final) == ([0, 2], "Ginny and Luna")
    tie = votes(1, 0, 0, 4, 3)  # Ginny 2, then Dan and Eve 1 each, Luna 1 (spared)
    assert captured(tie, final)[0] == [0, 3, 4]
    assert captured(tally, final, NO_REPLACEMENT)[0] == [0]


def test_with_no_death_eater_among_the_players_hogwarts_wins_only_if_nobody_is_captured():
    final = [STUDENT, SIRIUS, LUNA, STUDENT]
    assert result(votes(1, 2, 3, 0), final).winner == HOGWARTS
    someone = result(votes(1, 0, 0, 0), final)
    assert someone.captured == [0] and someone.winner == NOBODY and winners(final, NOBODY) == []


# --- parties changed at night: the card in front of a player at dawn counts --------------


def test_sirius_swapped_into_the_death_eaters_is_captured_for_hogwarts():
    play = game(SIRIUS, DE, STUDENT, STUDENT, DE, RON, HERMIONE)
    play.until(SIRIUS)
    play.do(0, "Bob")
    play.vote(1, 0, 0, 0)  # Ann, now a Death Eater, is captured
    assert play.s.final == [DE, SIRIUS, STUDENT, STUDENT] and play.s.captured == [0]
    assert play.s.winner == HOGWARTS and winners(play.s.final, HOGWARTS) == [1, 2, 3]


def test_neville_swaps_a_player_into_the_death_eaters():
    play = game(NEVILLE, DE, STUDENT, STUDENT, DE, RON, HERMIONE)
    play.until(NEVILLE)
    play.do(0, "Bob", "Cat")
    play.vote(1, 2, 1, 1)  # Bob, now a student, is captured: the Death Eater Cat wins
    assert play.s.final == [NEVILLE, STUDENT, DE, STUDENT] and play.s.winner == DARK
    assert winners(play.s.final, DARK) == [2]


def test_ron_takes_a_death_eater_from_the_middle():
    play = game(RON, STUDENT, STUDENT, DE, DE, SIRIUS)
    play.until(RON)
    play.do(0, LEFT)
    play.vote(1, 0, 0)
    assert play.s.final == [DE, STUDENT, STUDENT] and play.s.winner == HOGWARTS


def test_dumbledore_hands_a_death_eater_from_the_middle_to_a_player():
    play = game(DUMBLEDORE, STUDENT, STUDENT, DE, DE, SIRIUS)
    play.until(DUMBLEDORE)
    play.do(0, MIDDLE)
    play.do(0, "Cat")
    play.vote(2, 2, 0)  # Cat holds the Death Eater now and is not captured
    assert play.s.final == [DUMBLEDORE, STUDENT, DE] and play.s.captured == [2]
    assert play.s.winner == HOGWARTS


def test_mcgonagall_changed_belongs_to_her_new_card():
    play = game(MCGONAGALL, NEVILLE, DE, STUDENT, STUDENT, DE, SIRIUS)
    play.until(NEVILLE)
    play.do(1, "Ann", "Cat")
    play.until(MCGONAGALL)
    assert play.seen(0) == ["Ann looked at their own card again: Death Eater."]
    play.vote(3, 3, 3, 1)  # Dan captured: the Death Eaters win, McGonagall's seat with them
    assert play.s.winner == DARK and winners(play.s.final, DARK) == [0]


# --- the day and the vote through the table --------------------------------------------


def test_dawn_starts_the_discussion_timer_with_spoken_warnings():
    play = Play(3, 0, discussion="3")
    play.dawn()
    (timer,) = [e for e in play.effects if isinstance(e, StartTimer) and e.name == DAY_TIMER]
    assert timer.seconds == 180
    assert [w for w, _line in timer.warnings] == [120, 60, 10]
    assert "you have 3 minutes" in play.said[-2]


def test_phones_lock_the_role_after_the_night_and_keep_what_was_seen():
    play = game(STUDENT, DE, DE, STUDENT, SIRIUS, RON)
    assert play.table.private_view(1)["view"]["role"] == "Death Eater"
    play.dawn()
    view = play.table.private_view(1)["view"]
    assert "party" not in view and view["role"].startswith("face down")
    assert view["tonight"] == ["Bob saw the other Death Eater: Cat."]


def test_votes_are_hidden_until_all_are_in_then_said_together():
    play = Play(3, 0)
    play.dawn()
    play.timer_runs_out(DAY_TIMER)
    assert play.act("vote", by=0, choice="Bob") == []
    assert play.table.public_view()["view"]["voted"] == [0]
    assert "1" not in str(play.table.public_view()["view"].get("pointed"))
    with pytest.raises(IllegalAction, match="only Bob or Cat"):
        play.act("vote", by=0, choice="Cat")  # one vote each
    with pytest.raises(IllegalAction, match="already voted"):
        play.act("vote", choice="Cat", seat=0)
    with pytest.raises(IllegalAction, match="another player"):
        play.act("vote", by=1, choice="Bob")
    play.act("vote", choice="Ann", seat=1)  # the host enters where Bob points
    effects = play.act("vote", by=2, choice="Ann")
    assert play.s.step == OVER and effects
    assert "The votes: Ann points at Bob, Bob points at Ann and Cat points at Ann." in play.said


def test_physical_cards_the_host_enters_the_cards_turned_over():
    play = Play(3, 0, cards="physical")
    play.vote(1, 0, 0)
    assert play.s.step == REVEAL
    with pytest.raises(IllegalAction, match="not a role card in this game"):
        play.act("cards", cards=["Death Eater", "Luna Lovegood", "student"])
    with pytest.raises(IllegalAction, match="fewer Hogwarts student cards"):
        play.act("cards", cards=["student", "student", "student"])
    play.act("cards", cards=["Death Eater", "Hermione Granger", "student"])
    assert play.s.captured == [0] and play.s.winner == HOGWARTS
    assert "The Hogwarts inhabitants win: Bob and Cat." in play.said


def test_the_end_shows_every_card_and_the_night_on_every_page_and_says_them():
    play = game(HERMIONE, DE, STUDENT, RON, DE, SIRIUS)
    play.until(HERMIONE)
    play.do(0, "Bob")
    play.vote(1, 0, 1)
    view = play.table.public_view()["view"]
    assert view["cards_shown"] == ["Ann: Hermione Granger", "Bob: Death Eater", "Cat: Hogwarts student"]
    assert view["middle"][0] == "the left card in the middle: Ron Weasley"
    assert view["night"] == ["Bob did nothing.", "Ann looked at Bob's card: Death Eater."]
    assert view["result"] == ["Captured: Bob.", "The Hogwarts inhabitants win: Ann and Cat."]
    for line in ["Captured: Bob.", "Ann looked at Bob's card: Death Eater."]:
        assert line in play.said
    for seat in range(3):
        assert play.table.private_view(seat)["view"]["role"]  # the cards are public now


def test_ginnys_power_goes_with_her_card_at_dawn():
    play = game(NEVILLE, GINNY, STUDENT, DE, STUDENT, DE, SIRIUS)
    play.until(NEVILLE)
    play.do(0, "Bob", "Cat")  # Cat holds Ginny now
    play.vote(2, 2, 3, 2)  # Cat captured, pointing at Dan: Dan goes with her
    assert play.s.final[2] == GINNY and play.s.captured == [2, 3] and play.s.winner == HOGWARTS


def test_a_whole_game_replays_from_its_log_to_the_same_table():
    play, r = Play(5, 9, scenario="Besenflug"), random.Random(9)
    play.act("start")
    while play.s.step == NIGHT:
        for expect in play.table.expects():
            play.submit(page_action(expect, r))
        play.timer_runs_out()
    play.vote(1, 0, 1, 2, 3)
    assert play.s.step == OVER and [e.action.kind for e in play.table.kept].count("act") >= 1
    again = replay(play.table.kept)
    assert again.current.state == play.s
    assert again.public_view() == play.table.public_view()


def test_at_the_end_a_phone_shows_the_card_that_counts_and_the_card_dealt():
    """Sirius takes Bob's Death Eater card and is captured: his phone used to say
    "Sirius Black / Hogwarts" beside a result that counts him a Death Eater."""
    play = game(SIRIUS, DE, STUDENT, DE, HERMIONE, NEVILLE)
    play.until(SIRIUS)
    play.do(0, "Bob")
    play.vote(1, 0, 0)
    assert play.s.captured == [0] and play.s.winner == HOGWARTS
    ann = play.table.private_view(0)["view"]
    assert (ann["role"], ann["party"], ann["start_card"]) == ("Death Eater", "Death Eaters", "Sirius Black")
    assert ann["card"]["word"] == "Death Eater" and ann["card"]["colour"] == "green"
    bob = play.table.private_view(1)["view"]
    assert (bob["role"], bob["party"], bob["start_card"]) == ("Sirius Black", "Hogwarts inhabitants", "Death Eater")
    assert play.table.public_view()["labels"]["start_card"] == "Your card at the start"


def test_a_card_entered_wrong_at_the_end_is_corrected_without_undo():
    """The end is final (it told everyone the result), so undo is refused and says how to
    correct instead: the host enters the cards again and the vote is judged anew."""
    from engine.table import UndoRefused

    play = Play(3, 0, cards="physical")
    play.vote(1, 0, 0)
    play.act("cards", cards=["Hermione Granger", "Death Eater", "student"])  # Ann's and Bob's swapped by mistake
    assert play.s.winner != HOGWARTS
    refusal = play.table.undo_refusal() or ""
    assert "start a new game" in refusal and "cards turned over again" in refusal
    with pytest.raises(UndoRefused):
        play.table.check_undo()
    assert any(e.action == "recount" for e in play.table.expects())
    play.act("recount", cards=["Death Eater", "Hermione Granger", "student"])
    assert play.s.captured == [0] and play.s.winner == HOGWARTS
    assert "The Hogwarts inhabitants win: Bob and Cat." in play.said
    with pytest.raises(IllegalAction, match="not a role card"):
        play.act("recount", cards=["Death Eater", "Luna Lovegood", "student"])


def test_a_digital_deal_has_nothing_to_recount():
    play = Play(3, 0)
    play.vote(1, 0, 0)
    assert play.table.public_view()["over"]
    with pytest.raises(IllegalAction, match="table's own cards"):
        play.act("recount", cards=["Death Eater", "Hermione Granger", "student"])
