"""Kampf gegen die dunklen Mächte: a night prompt's options and the players' names never
collide.  Answers used to be matched by label, players first, so at a table with a
player called "Nothing" or "My own card" that answer picked the player (issue 44,
item 2).  Every option now has a value of its own, which is what a page sends."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.games.kampf_roles import DEATH_EATER as DE
from engine.games.kampf_roles import DUMBLEDORE, GINNY, HARRY, HERMIONE, LUNA, STUDENT
from engine.games.kampf_state import KampfState
from support.kampf import Play

# Options' words and values as players' names (Ann acts); the middle's longer names do
# not fit in a name's 24 characters.
CLASHING = ["Ann", "Nothing", "My own card", "seat 4", "left"]


def game(first: str, names: list[str] = CLASHING) -> Play:
    """Seat 0 holds ``first``; four students and Luna around; Ginny sleeps in the middle."""
    cards = [first, STUDENT, STUDENT, STUDENT, LUNA, DE, DE, GINNY]
    play = Play(names, 0, scenario="free", roles=cards)
    play.deal(*cards)
    play.until(first)
    return play


def tapped(play: Play, label: str) -> str:
    """What a phone sends when its player taps the button showing ``label``."""
    (prompt,) = play.table.expects()
    assert list(prompt.labels).count(label) == 1, prompt.labels
    return prompt.options[list(prompt.labels).index(label)]


def did(state: KampfState) -> list[dict[str, object]]:
    return [{k: v for k, v in note.items() if k != "seat"} for note in state.notes[0]]


@pytest.mark.parametrize("label", ["nothing", *CLASHING[1:]])
def test_harry_gets_the_option_he_taps_whatever_the_players_are_called(label):
    play = game(HARRY)
    play.do(0, tapped(play, label))
    if label == "nothing":
        assert did(play.s) == [{"kind": "nothing"}] and play.s.face_up == {}
    else:
        seat = CLASHING.index(label)
        assert did(play.s) == [{"kind": "revealed", "at": seat, "role": play.s.cards[seat]}]


def test_dumbledores_own_card_is_not_the_player_called_my_own_card():
    own = game(DUMBLEDORE)
    own.do(0, tapped(own, "the left card in the middle"))
    own.do(0, tapped(own, "my own card"))
    assert did(own.s)[-1] == {"kind": "exchanged", "at": 5, "with": 0}
    player = game(DUMBLEDORE)
    player.do(0, tapped(player, "the left card in the middle"))
    player.do(0, tapped(player, "My own card"))
    assert did(player.s)[-1] == {"kind": "exchanged", "at": 5, "with": 2}


def test_hermione_looks_at_the_player_called_left_not_the_left_card():
    play = game(HERMIONE)
    play.do(0, tapped(play, "left"))
    assert did(play.s) == [{"kind": "looked", "at": 4, "role": LUNA}]
    middle = game(HERMIONE)
    middle.do(0, tapped(middle, "the left and the middle card in the middle"))
    assert [n["at"] for n in did(middle.s)] == [5, 6]


def test_a_typed_name_two_options_share_is_refused_and_never_guessed():
    play = game(DUMBLEDORE)
    play.do(0, "left")  # a value: the middle's left card, never the player called "left"
    assert did(play.s)[0] == {"kind": "looked", "at": 5, "role": DE}
    with pytest.raises(IllegalAction, match="names more than one option"):
        play.do(0, "my own card")  # the option's words, and Cat's name
    assert play.s.stage == {0: "give"}
    play.do(0, "seat 2")  # the value names one of them alone
    assert did(play.s)[-1] == {"kind": "exchanged", "at": 5, "with": 2}


def test_values_are_not_players_names_and_a_unique_name_still_answers():
    play = game(HARRY, ["Ann", "Bob", "Cat", "Dan", "Eve"])
    (prompt,) = play.table.expects()
    assert prompt.options == ("seat 1", "seat 2", "seat 3", "seat 4", "nothing")
    assert prompt.labels == ("Bob", "Cat", "Dan", "Eve", "nothing")
    play.do(0, "Cat")
    assert did(play.s)[0]["at"] == 2
