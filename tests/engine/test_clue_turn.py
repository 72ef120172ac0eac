"""Harry Potter Clue turns: the dice, the wheels, Dark cards and Floo powder, each test
quoting the rulebook sentence it checks."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.games.clue_rules import BURROW
from support.clue import WHEELS, Play


def started(players: int = 3, **options: object) -> Play:
    play = Play(players, **options)
    play.choose_all(first=0)
    return play


def wheel(play: Play, face: str) -> int:
    return next(w.notch for w in play.s.wheels if w.face == face)


def test_each_turn_reads_the_green_and_the_black_die_in_either_order() -> None:
    """ "1. Roll both dice. 2. Check the black die." """
    play = started()
    (ask,) = play.table.expects()[:1]
    assert (ask.kind, ask.count, ask.symbols, ask.seat) == ("dice", 2, True, 0)
    play.act("roll", by=0, dice=["Ministry_Of_Magic", 5])
    assert play.s.roll == {"green": 5, "black": "ministry-of-magic"}
    assert play.said[-1] == "Ann, move up to 5 spaces, or use a lit fireplace."


@pytest.mark.parametrize("dice", [[3, 4], ["star", "dark-mark"], [3], [3, "star", "star"], [3, "broom"], [7, "star"]])
def test_a_roll_without_one_of_each_die_is_refused(dice: list[object]) -> None:
    play = started()
    with pytest.raises(IllegalAction):
        play.act("roll", by=0, dice=dice)
    assert play.s.step == "roll"


def test_a_taught_green_die_is_read_by_its_face_name() -> None:
    """The green die, if taught instead of read by its pips, names its faces."""
    play = started()
    play.act("roll", by=0, dice=["star", "green-4"])
    assert play.s.roll == {"green": 4, "black": "star"}


def test_only_the_player_or_the_host_rolls() -> None:
    play = started()
    with pytest.raises(IllegalAction):
        play.act("roll", by=1, dice=[3, "star"])
    play.act("roll", dice=[3, "star"])  # the host types both dice


def test_a_star_on_the_black_die_gives_a_help_card() -> None:
    """ "If the black die shows the star, take a Help card and place it in front of you,
    then continue to Step 3 (Move)." """
    play = started()
    play.roll(2, "star")
    assert play.s.help == [2, 1, 1] and play.s.step == "move"
    assert "take a Help card" in play.said[-2]


def test_a_location_turns_its_wheel_one_notch() -> None:
    """ "If it shows one of the location symbols, turn the wheel in that corner of the board
    one notch clockwise and check to see whether or not the Dark Mark has appeared. If not,
    go straight to Step 3 (Move)." """
    play = started()
    play.roll(2, "gringotts")
    assert wheel(play, "gringotts") == 1 and play.s.step == "move"
    assert "Turn the Gringotts wheel one notch clockwise." in play.said


def test_the_dark_mark_on_the_wheel_just_turned_means_a_dark_card() -> None:
    """ "If the Dark Mark shows up on the wheel, the black die, or both, take a card from
    the Dark Deck and read it out loud." (Gringotts' Dark Mark is at notch 2 here.)"""
    play = started()
    play.walk_to(BURROW, black="gringotts")  # notch 1: nothing
    play.end_turn()
    play.roll(3, "gringotts")  # notch 2: the Dark Mark
    assert play.s.step == "pinches"
    assert (
        play.said[-1] == "The Dark Mark appears on the Gringotts wheel! Bob, take one Dark card and read it out loud."
    )


def test_a_wheel_comes_back_to_start_after_its_last_notch() -> None:
    """Wheel wrap-around: the Ministry of Magic wheel has three notches here."""
    play = started()
    for turn in range(4):
        play.walk_to(BURROW if turn % 2 == 0 else "The Shrieking Shack", black="ministry-of-magic")
        play.end_turn()
    assert wheel(play, "ministry-of-magic") == 1
    assert play.table.public_view()["view"]["wheel_notches"][3] == {
        "wheel": "Ministry of Magic",
        "notch": 1,
        "notches": 3,
        "dark_mark": False,
    }


def test_a_wheel_with_no_layout_is_looked_at_by_the_host() -> None:
    play = started(wheels={})
    play.roll(4, "hogs-head")
    assert play.s.step == "wheel"
    with pytest.raises(IllegalAction):
        play.act("wheel", by=0, choice="yes")
    play.act("wheel", choice="no")
    assert play.s.step == "move"
    play.move("The Shrieking Shack")
    play.end_turn()
    play.roll(4, "hogs-head")
    assert play.said[-1] == "Turn the Hog's Head wheel one notch clockwise."  # not "the The Hog's Head"
    play.act("wheel", choice="yes")
    assert play.s.step == "pinches" and "on the Hog's Head wheel!" in play.said[-1]


def test_a_wheel_with_no_layout_is_asked_about_once_per_notch() -> None:
    """The host's answers are kept: once the wheel shows START again the box knows it, and
    asks no more (and offers the wheel for the next set-up)."""
    play = started(wheels={})
    answers = []
    for answer in ("no", "yes", "no: it shows START again", None, None, None):
        play.roll(4, "gringotts")
        asked = [e for e in play.table.expects() if e.action == "wheel"]
        answers.append(asked[0].options if asked else None)
        if answer is not None:
            play.act("wheel", choice=answer)
        if play.s.step == "pinches":
            play.act("pinches", by=play.s.current, choice=0)
            play.act("dark_card", by=play.s.current, choice="nobody pays")
        play.move("The Shrieking Shack" if play.s.where[play.s.current] != "The Shrieking Shack" else "Gringotts")
        play.end_turn()
    assert answers[:3] == [
        ("yes", "no"),
        ("yes", "no", "no: it shows START again"),
        ("yes", "no", "no: it shows START again"),
    ]
    assert answers[3:] == [None, None, None], "a learned wheel is never asked about again"
    gringotts = next(w for w in play.s.wheels if w.face == "gringotts")
    assert (gringotts.notches, gringotts.dark_marks, gringotts.notch) == (3, [2], 0)
    assert any("on the Gringotts wheel!" in line for line in play.said[-12:])  # notch 2 again: a Dark card
    assert play.table.public_view()["view"]["wheels_learned"] == {"gringotts": {"notches": 3, "dark_marks": [2]}}


def test_the_dark_mark_on_the_die_and_on_a_wheel_is_one_dark_card() -> None:
    """ "...the wheel, the black die, or both, take a card" — one card, not two."""
    play = started()
    next(w for w in play.s.wheels if w.face == "hogwarts-castle").notch = 1  # showing its Dark Mark
    play.roll(1, "dark-mark")
    assert play.said[-1] == (
        "The Dark Mark appears on the black die and the Hogwarts Castle wheel! "
        "Ann, take one Dark card and read it out loud."
    )
    assert [e.action for e in play.table.expects() if e.action != "notepad"] == ["pinches"]
    play.act("pinches", by=0, choice=2)
    play.act("settle", by=0, choice="pays 2 pinches")
    play.act("settle", by=1, choice="nobody else is affected")
    assert play.s.floo == [6, 8, 8] and play.s.step == "move"


def host_taps(play: Play, *answers: tuple[str, object]) -> int:
    """Answer the host page's prompts in order (each must be asked): the taps it took."""
    for kind, choice in answers:
        asked = [e for e in play.table.expects() if not e.optional]
        assert [e.action for e in asked] == [kind], f"asked {[e.action for e in asked]}, not {kind}"
        play.act(kind, choice=choice, **({"seat": asked[0].seat} if asked[0].seat is not None else {}))
    return len(answers)


@pytest.mark.parametrize(
    ("line", "floo"),
    [("Ann pays 2 pinches", [6, 8, 8]), ("everyone pays 2 pinches", [6, 6, 6]), ("nobody pays", [8, 8, 8])],
)
def test_a_dark_card_costs_the_host_two_taps(line: str, floo: list[int]) -> None:
    """ "take a card from the Dark Deck and read it out loud. Each Dark card describes
    ... Who is affected / How many pinches of Floo powder could be lost": the card's
    pinches, then who pays in one line, and the box applies it."""
    play = started()
    play.roll(1, "dark-mark")
    assert host_taps(play, ("pinches", 2), ("dark_card", line)) <= 2
    assert play.s.floo == floo and play.s.step == "move"


def test_a_dark_card_that_touches_players_differently_is_settled_one_by_one() -> None:
    play = started()
    play.roll(1, "dark-mark")
    play.act("pinches", by=0, choice=3)
    play.act("dark_card", by=0, choice="settle it player by player")
    assert [e.action for e in play.table.expects() if not e.optional] == ["settle"]
    play.act("settle", by=0, choice="protected by a Help card")
    play.act("settle", by=1, choice="pays 3 pinches")
    play.act("settle", by=2, choice="discards a Help card")
    assert play.s.floo == [8, 5, 8] and play.s.help == [1, 1, 0] and play.s.step == "move"


def test_everyone_means_the_players_still_in_the_game() -> None:
    play = started()
    play.s.eliminated = [2]
    play.roll(1, "dark-mark")
    play.act("pinches", by=0, choice=1)
    play.act("dark_card", by=0, choice="everyone pays 1 pinch")
    assert play.s.floo == [7, 7, 8]


def test_a_dark_card_penalty_is_paid_down_to_zero_and_cuts_off() -> None:
    """ "you must pay the penalty by putting that many pinches of Floo powder onto the
    Floo powder pile"; "If any player loses all their Floo powder tokens, they can no
    longer use the Floo network." """
    play = started()
    play.s.floo[1] = 2
    play.roll(1, "dark-mark")
    play.act("pinches", by=0, choice="3")
    play.act("settle", by=0, choice="not affected")
    play.act("settle", by=1, choice="pays 3 pinches")
    assert play.said[-2:] == [
        "Bob puts 2 pinches of Floo powder on the pile.",
        "Bob has no Floo powder left and is cut off from the Floo network.",
    ]
    play.act("settle", by=2, choice="pays 3 pinches")
    assert play.s.floo == [8, 0, 5]
    assert play.table.public_view()["view"]["board"][1]["cut_off"] is True


def test_a_player_at_zero_pays_nothing_more() -> None:
    """Floo at zero: nothing is left to pay, and it stays zero."""
    play = started()
    play.s.floo[0] = 0
    play.roll(1, "dark-mark")
    play.act("pinches", by=0, choice=4)
    play.act("settle", by=0, choice="pays 4 pinches")
    assert play.said[-1] == "Ann has no Floo powder left to pay." and play.s.floo[0] == 0


def test_a_protecting_help_card_is_kept() -> None:
    """ "If you have a Help card that protects you, show it to the other players and then
    place it back in front of you. You are safe."; "Keep each Help card unless a Dark
    Deck card tells you to discard it." """
    play = started()
    play.roll(1, "dark-mark")
    play.act("pinches", by=0, choice=5)
    play.act("settle", by=0, choice="protected by a Help card")
    play.act("settle", choice="discards a Help card", seat=1)  # the host, for Bob
    play.act("settle", by=2, choice="pays 5 pinches")
    assert play.s.floo == [8, 8, 3] and play.s.help == [1, 0, 1]
    assert "Ann shows a Help card and is safe." in play.said


def test_no_help_card_no_protection() -> None:
    play = started()
    play.s.help[0] = 0
    play.roll(1, "dark-mark")
    play.act("pinches", by=0, choice=1)
    with pytest.raises(IllegalAction):
        play.act("settle", by=0, choice="protected by a Help card")


def test_a_fireplace_move_costs_a_pinch_and_needs_powder() -> None:
    """ "Each time you use a fireplace to move, pay 1 pinch of FP into the FP pile." """
    play = started()
    play.walk_to("Gringotts")
    play.end_turn()
    play.walk_to(BURROW)
    play.end_turn()
    play.walk_to(BURROW)
    play.end_turn()
    play.roll(3, "star")
    assert "by fireplace to Gringotts" not in play.table.expects()[0].options  # must leave it
    play.move("by fireplace to Malfoy Manor")
    assert play.s.floo[0] == 7 and play.s.where[0] == "Malfoy Manor" and play.s.step == "room"
    play.end_turn()
    for _ in range(2):
        play.walk_to(
            "The Shrieking Shack"
            if play.s.where[play.s.current] != "The Shrieking Shack"
            else "Weasleys' Wizard Wheezes"
        )
        play.end_turn()
    play.s.floo[0] = 1
    play.roll(3, "star")
    play.move("by fireplace to Gringotts")
    assert play.s.floo[0] == 0 and "cut off from the Floo network" in play.said[-2]
    play.end_turn()
    for _ in range(2):
        play.walk_to("12 Grimmauld Place")
        play.end_turn()
    assert play.said[-1] == "Ann is still cut off from the Floo network."
    play.roll(3, "star")
    options = play.table.expects()[0].options
    assert not any(o.startswith("by fireplace") for o in options)
    with pytest.raises(IllegalAction):
        play.move("by fireplace to Malfoy Manor")


def test_a_fireplace_is_only_in_a_location() -> None:
    play = started()
    play.roll(3, "star")
    assert not any(o.startswith("by fireplace") for o in play.table.expects()[0].options)


def test_a_location_must_be_left_the_next_turn() -> None:
    """ "If you are in a location at the end of one turn, you must leave it on your next
    turn. You may not re-enter the same location on that turn." """
    play = started()
    play.walk_to("Gringotts")
    play.end_turn()
    for _ in range(2):
        play.walk_to(BURROW)
        play.end_turn()
    play.roll(3, "star")
    with pytest.raises(IllegalAction):
        play.move("Gringotts")
    play.move("Malfoy Manor")


def test_landing_on_a_star_gives_a_help_card_and_ends_the_move() -> None:
    """ "If you land on a star symbol, STOP MOVING and take a Help card." """
    play = started()
    play.roll(3, "gringotts")
    play.move("a star space")
    assert play.s.help[0] == 2 and play.s.current == 1 and play.s.where[0] is None


def test_the_floo_track_shows_the_players_powder() -> None:
    play = started()
    track = play.table.tracks()["floo"]
    assert (track.value, track.length, track.attention) == (8, 8, False)


def test_wheels_used_in_tests_are_valid_layouts() -> None:
    assert Play(3, wheels=WHEELS).s.wheels[1].dark_marks == [1, 4]
