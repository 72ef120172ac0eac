"""The story of a Harry Potter Clue game: one list, turn by turn in the order things
happened (where each player went, the suggestion and who showed a card, never which
card, the accusation and whether it was right), kept in the state so undo takes it back."""

from __future__ import annotations

import copy

from engine.actions import Action
from engine.games.clue_rules import BURROW
from engine.games.clue_turn import ELSEWHERE, STAR_SPACE
from support.clue import Play, rig_hands

ENVELOPE = ["Snatchers", "Jinxed Broomstick", "Malfoy Manor"]


def table() -> Play:
    """Ann holds Fenrir Greyback; Bob the Cursed Necklace; Cat Gringotts and Peter
    Pettigrew; Dan Love Potion."""
    play = Play(4)
    hands = [["Fenrir Greyback"], ["Cursed Necklace"], ["Gringotts", "Peter Pettigrew"], ["Love Potion"]]
    rig_hands(play.s, hands, ENVELOPE)
    play.choose_all(first=0)
    return play


def story(play: Play) -> list[str]:
    return play.table.public_view()["view"]["story"]


def test_the_turns_are_told_in_order_with_suggestions_and_accusations_among_them() -> None:
    play = table()
    play.walk_to("Gringotts")
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    play.act("show", by=1, choice="Cursed Necklace")
    play.roll(3, "star")
    play.move(ELSEWHERE)
    play.walk_to(BURROW)
    play.accuse("Snatchers", "Jinxed Broomstick", "Gringotts")
    play.walk_to(BURROW)
    play.accuse(*ENVELOPE)
    told = [
        "Turn 1, Ann: moves to Gringotts; suggests Peter Pettigrew with the Cursed Necklace in Gringotts:"
        " Bob shows a card",
        "Turn 2, Bob: moves along the board",
        "Turn 3, Cat: moves to The Burrow; accuses Snatchers with the Jinxed Broomstick in Gringotts: wrong",
        "Turn 4, Dan: moves to The Burrow; accuses Snatchers with the Jinxed Broomstick in Malfoy Manor: right",
    ]
    view = play.table.public_view()["view"]
    assert view["story"] == told and view["reveal"]["story"] == told
    assert view["reveal"]["accused"] == ["Snatchers"]
    envelope = view["reveal"]["cards"][-1]
    assert (envelope["name"], envelope["card"]["word"]) == ("The envelope", "Snatchers")
    assert envelope["card"]["detail"] == "with the Jinxed Broomstick in Malfoy Manor"


def test_the_story_says_who_showed_a_card_never_which() -> None:
    """Cat holds two of the cards named: whichever she shows, the table's view is the same."""
    play = table()
    play.walk_to("Gringotts")
    play.suggest("Peter Pettigrew", "Jinxed Broomstick")
    assert story(play) == [
        "Turn 1, Ann: moves to Gringotts; suggests Peter Pettigrew with the Jinxed Broomstick in Gringotts:"
        " waiting for a card"
    ]
    twin = copy.deepcopy(play.table)
    play.act("show", by=2, choice="Gringotts")
    twin.apply(Action("show", {"choice": "Peter Pettigrew"}, 2), 1)
    assert twin.public_view()["view"] == play.table.public_view()["view"]
    assert story(play)[0].endswith(": Cat shows a card")


def test_undo_takes_a_turn_back_out_of_the_story() -> None:
    play = Play(3)
    play.choose_all(first=0)
    play.walk_to("Gringotts")
    assert story(play) == ["Turn 1, Ann: moves to Gringotts"]
    play.table.undo()
    assert story(play) == []
    other = next(p for p in play.s.locations if p != "Gringotts")
    play.move(other)  # the roll stays: undo took back the move alone
    assert story(play) == [f"Turn 1, Ann: moves to {other}"]


def test_a_star_and_a_fireplace_are_told_as_the_moves_they_were() -> None:
    play = table()
    play.walk_to("Gringotts")
    play.end_turn()
    for _seat in (1, 2, 3):
        play.roll(2, "star")
        play.move(STAR_SPACE)
    play.roll(2, "star")
    play.move("by fireplace to Malfoy Manor")
    assert story(play)[1:] == [
        "Turn 2, Bob: lands on a star",
        "Turn 3, Cat: lands on a star",
        "Turn 4, Dan: lands on a star",
        "Turn 5, Ann: travels by Floo powder to Malfoy Manor",
    ]
