"""Harry Potter Clue set-up, each test quoting the rulebook sentence it checks."""

from __future__ import annotations

import re

import pytest

from engine.actions import IllegalAction
from engine.games.clue_rules import BURROW, IDENTITIES
from engine.games.clue_rules import WHEELS as WHEEL_PLACES
from support.clue import WHEELS, Play


@pytest.mark.parametrize(("players", "pinches", "each", "extra"), [(3, 8, 6, 0), (4, 10, 4, 2), (5, 12, 3, 3)])
def test_set_up_by_player_count(players: int, pinches: int, each: int, extra: int) -> None:
    """ "3-player game: 8 pinches each / 4-player game: 10 pinches each / 5-player game:
    12 pinches each"; "Remove one from each pile and put them in the solution envelope";
    "deal them, facedown, so each player has the same number. Place any extra cards
    faceup in The Burrow."; "1 Help card (kept faceup in front of them)"."""
    play = Play(players)
    s = play.s
    assert s.floo == [pinches] * players
    assert s.help == [1] * players
    assert [len(h) for h in s.hands] == [each] * players
    assert len(s.burrow) == extra
    assert s.envelope[0] in s.suspects and s.envelope[1] in s.items and s.envelope[2] in s.locations
    assert sorted([*s.envelope, *s.burrow, *(c for h in s.hands for c in h)]) == sorted(s.cards())
    assert play.table.public_view()["view"]["burrow"] == s.burrow
    assert any(f"{pinches} pinches of Floo powder" in line for line in play.said)


def test_set_up_is_narrated_in_the_rulebooks_order() -> None:
    """ "turn the wheels so the word START is showing on all of them"; "Separate the Dark
    Deck and Help cards. Shuffle each pile"."""
    play = Play(4)
    said = play.said
    assert said[1] == "Turn every wheel so that it shows START."
    assert "Dark cards and the Help cards" in said[2]
    assert said.index(f"{play.s.missing} has fallen prey to Dark Magic and is missing.") > 2
    assert any(line.startswith("Place ") and "face up in The Burrow" in line for line in said)
    assert all(w.notch == 0 for w in play.s.wheels)


def test_set_up_puts_the_spares_out_and_the_tokens_within_reach() -> None:
    """ "Place the missing student and any spare cards and movers out of the game."; "8.
    Place the item and suspect tokens in piles where everyone can reach them." (after the
    deal, the rulebook's last set-up step)."""
    play = Play(3)
    said, missing = play.said, play.s.missing
    out = f"Place {missing}, the missing student, and any spare Identity cards and movers out of the game."
    tokens = "Place the item and suspect tokens in piles where everyone can reach them."
    assert said.index(out) > said.index(f"{missing} has fallen prey to Dark Magic and is missing.")
    dealt = next(i for i, line in enumerate(said) if "face up in The Burrow" in line or "for The Burrow" in line)
    assert said.index(tokens) > dealt


def test_the_missing_student_cannot_be_chosen() -> None:
    """ "Shuffle the six Identity cards and randomly remove one. Turn it faceup to reveal
    the character who has fallen prey to Dark Magic and is missing. Each player must then
    choose a character from the remaining Identity cards"."""
    missings = {Play(3, seed).s.missing for seed in range(30)}
    assert missings <= set(IDENTITIES) and len(missings) > 2
    play = Play(3)
    offered = [e.options for e in play.table.expects() if e.action == "identity"]
    assert len(offered) == 3 and all(play.s.missing not in o and len(o) == 5 for o in offered)
    with pytest.raises(IllegalAction):
        play.act("identity", by=0, choice=play.s.missing)


def test_characters_are_chosen_once_each_on_phones_or_by_the_host() -> None:
    play = Play(3)
    free = [i for i in IDENTITIES if i != play.s.missing]
    play.act("identity", by=0, choice=free[0])
    with pytest.raises(IllegalAction):
        play.act("identity", by=1, choice=free[0])  # taken
    with pytest.raises(IllegalAction):
        play.act("identity", by=0, choice=free[1])  # already chose
    with pytest.raises(IllegalAction):
        play.act("identity", by=1, choice=free[1], seat=2)  # only for oneself
    play.act("identity", choice=free[1], seat=1)  # the host, for Bob
    assert play.s.identities == {0: free[0], 1: free[1]}
    assert [e.seat for e in play.table.expects() if e.action == "identity"] == [2]


def test_the_host_picks_the_first_player_and_play_goes_left() -> None:
    """ "The player whose birthday it is next takes the first turn. Play continues to the left." """
    play = Play(4)
    for seat in range(4):
        play.act("identity", by=seat, choice=[e for e in play.table.expects() if e.seat == seat][0].options[0])
    with pytest.raises(IllegalAction):
        play.act("first", by=2, choice=2)  # the host's to enter
    play.act("first", choice=2)
    assert play.s.current == 2 and play.s.step == "roll"
    play.walk_to("The Shrieking Shack")
    play.end_turn()
    assert play.s.current == 3
    play.walk_to("Weasleys' Wizard Wheezes")
    play.end_turn()
    assert play.s.current == 0


def test_card_names_are_configurable_and_checked() -> None:
    names = [f"Room {n}" for n in range(1, 10)]
    play = Play(3, locations=names)
    assert play.s.locations == names and play.s.envelope[2] in names
    for bad in (names[:8], [*names[:8], BURROW], [*names[:8], names[0]], [*names[:8], ""]):
        with pytest.raises(IllegalAction):
            Play(3, locations=bad)
    with pytest.raises(IllegalAction):
        Play(3, colour="red")


def test_the_default_deck_is_the_editions_with_no_placeholders() -> None:
    """The rulebook's named cards ("Fenrir Greyback with a Cursed Necklace in the Forbidden
    Forest", "Snatchers ... in Gringotts", "Peter Pettigrew with the Jinxed Broomstick in
    Malfoy Manor", the four wheels' locations) and the rest of the edition's deck."""
    play = Play(3)
    s = play.s
    assert "placeholders" not in play.table.public_view()["view"]
    assert {"Fenrir Greyback", "Snatchers", "Peter Pettigrew"} <= set(s.suspects)
    assert {"Cursed Necklace", "Jinxed Broomstick"} <= set(s.items)
    assert {"Forbidden Forest", "Gringotts", "Malfoy Manor", *WHEEL_PLACES.values()} <= set(s.locations)
    assert (len(s.suspects), len(s.items), len(s.locations)) == (6, 6, 9)
    assert not any(re.fullmatch(r"(Suspect|Item|Location) \d", card) for card in s.cards())


@pytest.mark.parametrize(
    "wheels",
    [
        {"gringotts": {"notches": 1, "dark_marks": []}},
        {"gringotts": {"notches": 6, "dark_marks": [0]}},  # START never shows the Dark Mark
        {"gringotts": {"notches": 6, "dark_marks": [6]}},
        {"gringotts": {"notches": 6, "dark_marks": [2, 2]}},
        {"gringotts": {"notches": 6, "dark_marks": "2"}},
        {"gringotts": {"dark_marks": [2]}},
        {"gringotts": {"notches": 6, "colour": "red"}},
        {"diagon-alley": {"notches": 6, "dark_marks": []}},
        ["gringotts"],
    ],
)
def test_a_wrong_wheel_layout_is_refused(wheels: object) -> None:
    with pytest.raises(IllegalAction):
        Play(3, wheels=wheels)


def test_a_wheel_layout_is_taken_as_entered() -> None:
    play = Play(3, wheels={**WHEELS, "hogs-head": {"notches": "7", "dark_marks": ["5", 2]}})
    head = next(w for w in play.s.wheels if w.face == "hogs-head")
    assert (head.notches, head.dark_marks) == (7, [2, 5])
    assert Play(3, wheels={}).s.wheels[0].notches is None


def test_only_three_to_five_players() -> None:
    """ "3– 5 PLAYERS" """
    for players in (2, 6):
        with pytest.raises(IllegalAction):
            Play(players)
