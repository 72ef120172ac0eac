"""Kampf gegen die dunklen Mächte: every night action on the phones (digital cards),
optional ones taken and skipped, compulsory ones made by the box when time runs out,
and the ONUW rule that a seat acts by the card it was dealt."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.games.kampf_roles import (
    DEATH_EATER as DE,
)
from engine.games.kampf_roles import (
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
    TWINS,
)
from engine.table import UndoRefused
from support.kampf import Play

LEFT, MIDDLE, RIGHT = "the left card in the middle", "the middle card in the middle", "the right card in the middle"


def game(*cards: str, **options: object) -> Play:
    """A digital game of exactly these cards, dealt in this order (seats, then the middle)."""
    play = Play(len(cards) - 3, 0, scenario="free", roles=list(cards), **options)
    play.deal(*cards)
    return play


def test_two_death_eaters_see_each_other_and_are_asked_nothing():
    play = game(DE, STUDENT, DE, STUDENT, HERMIONE, SIRIUS)
    play.until(DE)
    assert play.seen(0) == ["Ann saw the other Death Eater: Cat."]
    assert play.seen(2) == ["Cat saw the other Death Eater: Ann."]
    assert play.seen(1) == [] and play.table.expects() == []


def test_a_lone_death_eater_may_look_at_a_card_in_the_middle():
    play = game(DE, STUDENT, HERMIONE, STUDENT, DE, SIRIUS)
    play.until(DE)
    (prompt,) = play.table.expects()
    assert prompt.seat == 0 and prompt.secret and prompt.labels == (LEFT, MIDDLE, RIGHT, "nothing")
    play.do(0, MIDDLE)
    assert play.seen(0) == ["Ann looked at the middle card in the middle: Death Eater."]
    assert play.table.expects() == []


def test_a_lone_death_eater_may_skip_or_let_the_time_pass():
    play = game(DE, STUDENT, HERMIONE, STUDENT, DE, SIRIUS)
    play.until(DE)
    play.do(0, "nothing")
    assert play.seen(0) == ["Ann did nothing."]
    quiet = game(DE, STUDENT, HERMIONE, STUDENT, DE, SIRIUS)
    quiet.until(DE)
    quiet.timer_runs_out()
    assert quiet.seen(0) == ["Ann did nothing."] and quiet.s.cards == [DE, STUDENT, HERMIONE, STUDENT, DE, SIRIUS]


def test_fred_and_george_see_each_other_or_learn_the_twin_is_in_the_middle():
    both = game(FRED, GEORGE, DE, STUDENT, STUDENT, DE, STUDENT, HERMIONE, SIRIUS, NEVILLE)
    both.until(TWINS)
    assert both.seen(0) == ["Ann saw the twin: Bob."] and both.seen(1) == ["Bob saw the twin: Ann."]
    one = game(FRED, DE, STUDENT, STUDENT, DE, STUDENT, HERMIONE, GEORGE, SIRIUS, NEVILLE)
    one.until(TWINS)
    assert one.seen(0) == ["Ann woke alone: the other twin's card is in the middle."]


def test_hermione_looks_at_a_player_or_two_cards_in_the_middle_or_nothing():
    cards = (HERMIONE, DE, STUDENT, RON, DE, SIRIUS)
    player = game(*cards)
    player.until(HERMIONE)
    player.do(0, "Bob")
    assert player.seen(0) == ["Ann looked at Bob's card: Death Eater."]
    centre = game(*cards)
    centre.until(HERMIONE)
    centre.do(0, "the left and the right card in the middle")
    assert centre.seen(0) == [
        "Ann looked at the left card in the middle: Ron Weasley.",
        "Ann looked at the right card in the middle: Sirius Black.",
    ]
    skipped = game(*cards)
    skipped.until(HERMIONE)
    skipped.do(0, "nothing")
    assert skipped.seen(0) == ["Ann did nothing."]
    with pytest.raises(IllegalAction, match="nothing for you to do"):
        skipped.do(0, "Bob")  # one answer per call


def test_sirius_swaps_then_may_look_and_joins_the_party_of_his_new_card():
    play = game(SIRIUS, DE, STUDENT, DE, HERMIONE, RON)
    play.until(SIRIUS)
    with pytest.raises(IllegalAction, match="choose one of"):
        play.do(0, "nothing")  # the swap is compulsory
    play.do(0, "Bob")
    assert play.s.cards[:2] == [DE, SIRIUS]
    (prompt,) = play.table.expects()
    assert prompt.labels == ("look at my new card", "do not look")
    play.do(0, "look at my new card")
    assert play.seen(0) == ["Ann swapped cards with Bob.", "Ann looked at the new card: Death Eater."]
    unseen = game(SIRIUS, DE, STUDENT, DE, HERMIONE, RON)
    unseen.until(SIRIUS)
    unseen.do(0, "Cat")
    unseen.do(0, "do not look")
    assert unseen.seen(0) == ["Ann swapped cards with Cat."]


def test_a_sirius_who_does_not_answer_is_swapped_by_the_box():
    play = game(SIRIUS, DE, STUDENT, DE, HERMIONE, RON)
    play.until(SIRIUS)
    play.timer_runs_out()
    seen = play.seen(0)
    assert seen[0] == "Time ran out, so the box chose for Ann." and seen[1].startswith("Ann swapped cards with")
    assert play.s.cards[0] != SIRIUS and play.s.cards.count(SIRIUS) == 1


def test_dumbledore_looks_then_exchanges_with_a_player_whose_card_goes_to_that_place():
    play = game(DUMBLEDORE, DE, STUDENT, RON, DE, STUDENT, HERMIONE, SIRIUS)
    play.until(DUMBLEDORE)
    play.do(0, RIGHT)
    (prompt,) = play.table.expects()
    assert "my own card" in prompt.labels and "nothing" not in prompt.labels
    play.do(0, "Cat")
    assert play.s.cards == [DUMBLEDORE, DE, SIRIUS, RON, DE, STUDENT, HERMIONE, STUDENT]
    assert play.seen(0) == [
        "Ann looked at the right card in the middle: Sirius Black.",
        "Ann exchanged the right card in the middle with Cat's card, without looking at it.",
    ]


def test_dumbledore_may_take_the_card_himself_or_not_look_at_all():
    own = game(DUMBLEDORE, DE, STUDENT, RON, DE, STUDENT, HERMIONE, SIRIUS)
    own.until(DUMBLEDORE)
    own.do(0, LEFT)
    own.do(0, "my own card")
    assert own.s.cards[0] == STUDENT and own.s.cards[5] == DUMBLEDORE
    assert own.seen(0)[-1] == "Ann swapped their own card with the left card in the middle."
    skipped = game(DUMBLEDORE, DE, STUDENT, RON, DE, STUDENT, HERMIONE, SIRIUS)
    skipped.until(DUMBLEDORE)
    skipped.do(0, "nothing")
    skipped.timer_runs_out()
    assert skipped.seen(0) == ["Ann did nothing."] and skipped.s.cards[0] == DUMBLEDORE


def test_a_dumbledore_who_looked_must_exchange_even_when_time_runs_out():
    play = game(DUMBLEDORE, DE, STUDENT, RON, DE, STUDENT, HERMIONE, SIRIUS)
    play.until(DUMBLEDORE)
    play.do(0, MIDDLE)
    play.timer_runs_out()
    assert play.seen(0)[1] == "Time ran out, so the box chose for Ann."
    assert play.s.cards[6] != HERMIONE  # the middle card went to someone


def test_neville_swaps_two_other_players_without_looking():
    play = game(NEVILLE, DE, STUDENT, RON, DE, STUDENT, HERMIONE, SIRIUS)
    play.until(NEVILLE)
    (prompt,) = play.table.expects()
    assert prompt.count == 2 and "Ann" not in prompt.labels
    with pytest.raises(IllegalAction, match="2 different options"):
        play.do(0, "Bob")
    play.do(0, "Bob", "Dan")
    assert play.s.cards[:5] == [NEVILLE, RON, STUDENT, DE, DE]
    assert play.seen(0) == ["Ann swapped the cards of Bob and Dan without looking."]


def test_a_neville_who_does_not_answer_is_made_to_swap():
    play = game(NEVILLE, DE, STUDENT, RON, DE, STUDENT, HERMIONE, SIRIUS)
    play.until(NEVILLE)
    play.timer_runs_out()
    assert play.seen(0)[0] == "Time ran out, so the box chose for Ann."
    assert play.s.cards[0] == NEVILLE and play.s.cards[1:5] != [DE, STUDENT, RON, DE]


def test_ron_swaps_with_a_centre_card_without_looking():
    play = game(RON, DE, STUDENT, HERMIONE, DE, SIRIUS)
    play.until(RON)
    with pytest.raises(IllegalAction, match="choose one of"):
        play.do(0, "Bob")
    play.do(0, LEFT)
    assert play.s.cards[0] == HERMIONE and play.s.cards[3] == RON
    assert play.seen(0) == ["Ann swapped their card with the left card in the middle without looking."]


def test_harry_turns_a_card_face_up_for_the_day_shown_only_at_dawn():
    play = game(HARRY, HERMIONE, DE, STUDENT, DE, SIRIUS)
    play.until(HARRY)
    play.do(0, "Bob")
    assert play.seen(0) == ["Ann turned Bob's card face up for the day: Hermione Granger."]
    assert "face_up" not in play.table.public_view()["view"]  # eyes are still closed
    play.dawn()
    view = play.table.public_view()["view"]
    assert view["face_up"] == {"1": HERMIONE} and view["face_up_cards"] == ["Bob: Hermione Granger"]


def test_harry_turns_a_death_eater_back_and_only_he_has_seen_it():
    play = game(HARRY, DE, STUDENT, HERMIONE, DE, SIRIUS)
    play.until(HARRY)
    play.do(0, "Bob")
    play.dawn()
    assert play.seen(0) == ["Ann turned Bob's card over: a Death Eater, so it was turned back."]
    assert play.table.public_view()["view"]["face_up_cards"] == []
    skipped = game(HARRY, DE, STUDENT, HERMIONE, DE, SIRIUS)
    skipped.until(HARRY)
    skipped.timer_runs_out()
    assert skipped.seen(0) == ["Ann did nothing."]


def test_mcgonagall_sees_her_card_as_it_is_after_the_night():
    play = game(MCGONAGALL, NEVILLE, DE, STUDENT, STUDENT, DE, SIRIUS)
    play.until(NEVILLE)
    play.do(1, "Ann", "Cat")
    play.timer_runs_out()  # McGonagall wakes
    assert play.seen(0) == ["Ann looked at their own card again: Death Eater."]


def test_a_seat_acts_by_the_card_it_was_dealt_even_after_sirius_took_it():
    # ONUW: the Ron-dealt seat still wakes at 7, and swaps the card it now holds (Sirius).
    play = game(SIRIUS, RON, DE, STUDENT, DE, HERMIONE)
    play.until(SIRIUS)
    play.do(0, "Bob")
    play.do(0, "look at my new card")
    play.until(RON)
    assert [e.seat for e in play.table.expects()] == [1]
    play.do(1, MIDDLE)
    assert play.s.cards == [RON, DE, DE, STUDENT, SIRIUS, HERMIONE]


def test_only_the_seat_awake_may_answer_and_everyone_else_hears_the_same_refusal():
    play = game(HERMIONE, DE, STUDENT, RON, DE, SIRIUS)
    play.until(HERMIONE)
    refusals = set()
    for seat in (1, 2):
        with pytest.raises(IllegalAction) as refused:
            play.do(seat, "Ann")
        refusals.add(str(refused.value))
    with pytest.raises(IllegalAction, match="on their own phone"):
        play.act("act", choice="Bob")  # the host cannot act for a phone
    asleep = game(STUDENT, DE, HERMIONE, RON, DE, SIRIUS)  # Hermione is in the middle
    asleep.until(HERMIONE)
    with pytest.raises(IllegalAction) as refused:
        asleep.do(0, "Bob")
    assert refusals == {str(refused.value)} == {"there is nothing for you to do now"}


def test_night_answers_say_nothing_and_physical_cards_take_none():
    play = game(HERMIONE, DE, STUDENT, RON, DE, SIRIUS)
    play.until(HERMIONE)
    assert play.do(0, "Bob") == []
    physical = Play(3, 0, scenario="Zauberkunst", cards="physical")
    physical.until(HERMIONE)
    assert physical.table.expects() == []
    with pytest.raises(IllegalAction):
        physical.do(0, "Bob")


def test_hermiones_look_is_final_and_undo_says_so_in_the_same_words_for_any_deal():
    """The review's fault: an undone look let Hermione look again and end the night
    knowing three cards.  Every step of the night is final, and undo is refused in the
    same words whether the called role lies with a player or in the middle."""
    # Not rigged: the deal must be the game's own.
    play = next(p for p in (Play(3, seed, scenario="Zauberkunst") for seed in range(200)) if p.s.dealt[0] == HERMIONE)
    play.until(HERMIONE)
    refused_before = play.table.undo_refusal()
    play.do(0, "Bob")
    looked = list(play.s.notes[0])
    refusal = play.table.undo_refusal()
    assert refusal is not None and "eyes are closed" in refusal and refusal == refused_before
    assert "Ann" not in refusal and "Bob" not in refusal
    with pytest.raises(UndoRefused):
        play.table.check_undo()
    assert play.s.notes[0] == looked and play.table.private_view(0)["seen"] == []
    assert play.table.public_view()["last_by"] is None  # nor does the undo button name her
    with pytest.raises(IllegalAction, match="nothing for you to do"):
        play.do(0, "Cat")
    assert [n["kind"] for n in play.s.notes[0]] == ["looked"]
