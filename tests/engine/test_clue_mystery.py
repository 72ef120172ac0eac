"""Harry Potter Clue suggestions and accusations, each test quoting the rulebook
sentence it checks.  Hands are rigged (the rest of the cards to The Burrow)."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.games.clue_rules import BURROW
from engine.table import UndoRefused
from support.clue import Play, rig_hands

ENVELOPE = ["Snatchers", "Jinxed Broomstick", "Malfoy Manor"]


def table(players: int = 4) -> Play:
    """Ann holds Fenrir Greyback; Bob the Cursed Necklace; Cat Gringotts and Peter
    Pettigrew; Dan (if playing) Love Potion."""
    play = Play(players)
    hands = [["Fenrir Greyback"], ["Cursed Necklace"], ["Gringotts", "Peter Pettigrew"], ["Love Potion"]][:players]
    rig_hands(play.s, hands, ENVELOPE)
    play.choose_all(first=0)
    return play


def in_gringotts(play: Play) -> None:
    play.walk_to("Gringotts")


def test_a_suggestion_is_shown_by_the_first_holder_from_the_left() -> None:
    """ "The other players must now reveal whether or not your suggestion was correct,
    starting with the player to your left." Bob holds the Cursed Necklace and is first."""
    play = table()
    in_gringotts(play)
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    assert play.s.showing == 1 and play.s.step == "show"
    assert play.said[-1] == "Bob must show Ann a card: Bob, choose it on your phone."
    assert "Move the Peter Pettigrew and Cursed Necklace tokens to Gringotts" in play.said[-2]
    (ask,) = [e for e in play.table.expects() if e.action == "show"]
    assert (ask.seat, ask.secret, ask.options) == (1, True, ("Cursed Necklace",))
    play.act("show", by=1, choice="Cursed Necklace")
    assert play.said[-2] == "Bob has shown Ann a card."
    assert play.seen_by(0)["shown_to_you"] == [{"card": "Cursed Necklace", "by": "Bob", "suggestion": 1}]
    assert play.s.current == 1, "Your turn is now over."


def test_players_without_a_card_pass_until_one_must_show() -> None:
    """ "If the player to your left does not have any of the Mystery cards you suggested,
    the player to their left must show a card if they have one." Bob passes, Cat shows."""
    play = table()
    in_gringotts(play)
    play.suggest("Snatchers", "Jinxed Broomstick")
    assert play.s.showing == 2 and play.said[-2] == "Bob has none of them."
    assert play.s.suggestions[-1]["passed"] == [1]


def test_a_holder_with_several_cards_chooses_which() -> None:
    """ "If they have more than one of the cards, they can choose which one to show you." """
    play = table()
    in_gringotts(play)
    play.suggest("Peter Pettigrew", "Jinxed Broomstick")
    (ask,) = [e for e in play.table.expects() if e.action == "show"]
    assert ask.seat == 2 and set(ask.options) == {"Gringotts", "Peter Pettigrew"}
    play.act("show", by=2, choice="Peter Pettigrew")
    assert play.seen_by(0)["shown_to_you"][0]["card"] == "Peter Pettigrew"
    assert play.seen_by(2)["you_showed"] == [{"card": "Peter Pettigrew", "to": "Ann", "suggestion": 1}]


def test_a_holder_cannot_pass_or_show_another_card() -> None:
    """ "If they have one of the Mystery cards you have called, they show it to you"."""
    play = table()
    in_gringotts(play)
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    for wrong in ("Fenrir Greyback", "Gringotts"):
        with pytest.raises(IllegalAction):
            play.act("show", by=1, choice=wrong)
    with pytest.raises(IllegalAction):
        play.act("end_turn", by=0)
    with pytest.raises(IllegalAction):
        play.act("show", choice="Cursed Necklace", seat=1)  # never the host: it would see the card
    with pytest.raises(IllegalAction):
        play.act("show", by=2, choice="Cursed Necklace")


def test_nobody_holding_any_ends_the_turn() -> None:
    """ "Keep going until a player shows you a card or until all players have passed
    because they have none of the cards you suggested." Cat names the envelope's three
    cards in Malfoy Manor: nobody holds any."""
    play = table(3)
    play.walk_to("The Shrieking Shack")
    play.end_turn()
    play.walk_to("Weasleys' Wizard Wheezes")
    play.end_turn()
    play.walk_to("Malfoy Manor")
    play.suggest("Snatchers", "Jinxed Broomstick")
    assert play.said[-2:] == ["Nobody can show a card.", "Ann, it is your turn: roll both dice."]
    assert play.s.suggestions[-1]["shown_by"] is None and play.s.suggestions[-1]["passed"] == [0, 1]
    assert play.s.current == 0


def test_a_suggestion_is_only_made_in_a_location_other_than_the_burrow() -> None:
    """ "If you move to a location (other than The Burrow), you can suggest" and "Enter The
    Burrow to make an accusation." """
    play = table()
    play.roll(3, "star")
    play.move("another space on the board")
    assert play.s.current == 1  # no suggestion from a corridor
    play.walk_to(BURROW)
    assert play.s.step == "burrow"
    play.act("suspect", by=1, choice="Snatchers")
    play.act("item", by=1, choice="Jinxed Broomstick")
    assert play.s.step == "place"  # an accusation, which names the location too
    # Its last pick settles the game for the accuser: a page asks before sending it.
    assert [e.final for e in play.table.expects() if e.action == "place"] == [True]


def test_a_right_accusation_wins_and_reveals_the_envelope() -> None:
    """ "If you find all three of the cards you named in the envelope, you win the game.
    Show the cards to the other players"."""
    play = table()
    play.walk_to(BURROW)
    play.accuse(*ENVELOPE)
    assert play.table.public_view()["over"] and play.s.winner == 0
    assert play.table.public_view()["view"]["envelope"] == ENVELOPE
    assert play.said[-2].startswith("Ann accuses Snatchers with the Jinxed Broomstick in Malfoy Manor")
    assert play.said[-1] == (
        "Ann has solved the mystery and wins! The envelope held Snatchers, Jinxed Broomstick and Malfoy Manor."
    )


def test_a_wrong_accuser_sees_the_envelope_alone_and_is_out() -> None:
    """ "Now secretly look at the cards in the envelope."; "If your accusation is wrong,
    you are eliminated from the game."; "You can make no more moves in the game, and
    cannot win." """
    play = table()
    play.walk_to(BURROW)
    play.accuse("Snatchers", "Jinxed Broomstick", "Gringotts")
    assert play.seen_by(0)["envelope_seen"] == ENVELOPE
    assert all("envelope_seen" not in play.seen_by(s) or not play.seen_by(s)["envelope_seen"] for s in (1, 2, 3))
    assert "envelope" not in play.table.public_view()["view"]
    assert play.s.eliminated == [0] and play.s.current == 1
    for seat in (1, 2, 3):
        play.walk_to("The Shrieking Shack" if seat != 2 else "Weasleys' Wizard Wheezes")
        play.end_turn()
    assert play.s.current == 1, "Ann's turns are skipped"
    with pytest.raises(IllegalAction):
        play.act("roll", by=0, dice=[3, "star"])


def test_an_eliminated_player_still_shows_cards() -> None:
    """ "You must still answer questions to help other players, but you cannot win." """
    play = table()
    play.walk_to(BURROW)
    play.accuse("Snatchers", "Jinxed Broomstick", "Gringotts")
    play.walk_to("The Shrieking Shack")  # Bob
    play.end_turn()
    play.walk_to("Weasleys' Wizard Wheezes")  # Cat
    play.end_turn()
    play.walk_to("Gringotts")  # Dan: Ann (to his left) holds Fenrir Greyback
    play.suggest("Fenrir Greyback", "Poisoned Mead")
    assert play.s.showing == 0
    play.act("show", by=0, choice="Fenrir Greyback")
    assert play.seen_by(3)["shown_to_you"][0] == {"card": "Fenrir Greyback", "by": "Ann", "suggestion": 1}


def test_every_accuser_wrong_nobody_wins() -> None:
    """Every accusation wrong: nobody wins and the envelope is revealed."""
    play = table(3)
    for _ in range(3):
        play.walk_to(BURROW)
        play.accuse("Fenrir Greyback", "Cursed Necklace", "Gringotts")
    assert play.table.public_view()["over"] and play.s.winner is None
    assert play.table.public_view()["view"]["envelope"] == ENVELOPE
    assert play.said[-1].startswith("Every accusation was wrong: nobody wins.")


def test_the_last_player_left_plays_on_alone() -> None:
    """Clue: the last player who has not accused wrongly is not the winner by default;
    they keep taking turns and win only by accusing rightly."""
    play = table(3)
    for _ in range(2):
        play.walk_to(BURROW)
        play.accuse("Fenrir Greyback", "Cursed Necklace", "Gringotts")
    assert play.s.current == 2 and not play.table.public_view()["over"]
    play.walk_to("The Shrieking Shack")
    play.end_turn()
    assert play.s.current == 2 and play.s.step == "roll"
    play.walk_to(BURROW)
    play.accuse(*ENVELOPE)
    assert play.s.winner == 2


def test_the_public_record_shows_who_showed_never_what() -> None:
    play = table()
    in_gringotts(play)
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    play.act("show", by=1, choice="Cursed Necklace")
    view = play.table.public_view()["view"]
    assert view["story"] == [
        "Turn 1, Ann: moves to Gringotts; suggests Peter Pettigrew with the Cursed Necklace in Gringotts:"
        " Bob shows a card"
    ]
    assert "Cursed Necklace" not in str(view["suggestions"][0].get("card", ""))
    for seat in (2, 3):
        assert play.seen_by(seat)["shown_to_you"] == []


def physical() -> Play:
    play = Play(3, cards="physical")
    play.choose_all(first=0)
    return play


def test_physical_cards_the_box_keeps_no_cards() -> None:
    """Physical cards: the players deal and hold real Mystery cards (the box then does
    dice, wheels, Floo powder and the turn)."""
    play = physical()
    assert play.s.hands == [] and play.s.envelope == [] and play.s.burrow == []
    assert any("put one of each in the envelope without looking" in line for line in play.said)
    assert play.seen_by(0)["cards"] == []
    with pytest.raises(IllegalAction):
        Play(3, cards="imaginary")


def test_physical_cards_the_host_enters_who_showed() -> None:
    """ "Keep going until a player shows you a card or until all players have passed"."""
    play = physical()
    play.walk_to("Gringotts")
    play.suggest("Snatchers", "Poisoned Mead")
    (ask,) = [e for e in play.table.expects() if e.action == "answer"]
    assert ask.options == ("Bob", "Cat", "nobody") and ask.seat is None
    play.act("answer", choice="Cat")
    record = play.s.suggestions[-1]
    assert (record["passed"], record["shown_by"]) == ([1], 2) and play.s.current == 1
    play.walk_to("Malfoy Manor")
    play.suggest("Snatchers", "Poisoned Mead")
    play.act("answer", choice="nobody")
    assert play.s.suggestions[-1]["passed"] == [2, 0] and play.said[-2] == "Nobody can show a card."


def test_physical_cards_the_accuser_says_if_they_were_right() -> None:
    """ "Now secretly look at the cards in the envelope." """
    play = physical()
    play.walk_to(BURROW)
    play.accuse("Snatchers", "Poisoned Mead", "Gringotts")
    assert play.s.step == "verdict"
    play.act("verdict", by=0, choice="wrong")
    assert play.s.eliminated == [0] and play.s.current == 1
    play.walk_to(BURROW)
    play.accuse("Snatchers", "Poisoned Mead", "Malfoy Manor")
    play.act("verdict", by=1, choice="right")
    assert play.s.winner == 1 and play.said[-1] == "Bob has solved the mystery and wins! Show everyone the envelope."


def test_a_shown_card_is_final_so_the_holder_cannot_show_another() -> None:
    """The review's fault: undo a show and the holder showed a different card, leaving
    the suggester with two.  The show is final: undo is refused in words that name
    neither the card nor who saw it, and nothing changes."""
    play = table()
    in_gringotts(play)
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    play.act("show", by=1, choice="Cursed Necklace")
    before = (play.table.public_view(), play.table.private_view(0))
    refusal = play.table.undo_refusal()
    assert refusal is not None and "cannot be unseen" in refusal
    assert "Cursed Necklace" not in refusal and "Ann" not in refusal and "Bob" not in refusal
    with pytest.raises(UndoRefused):
        play.table.check_undo()
    assert (play.table.public_view(), play.table.private_view(0)) == before
    assert play.seen_by(0)["shown_to_you"] == [{"card": "Cursed Necklace", "by": "Bob", "suggestion": 1}]


def test_a_wrong_accusation_is_final_so_the_accuser_stays_out() -> None:
    """The review's fault: undo a wrong accusation and the accuser was back in the game
    with the envelope on their phone, and then "solved" it.  The end of a player's game
    showed them the envelope: undo stops there."""
    play = table()
    play.walk_to(BURROW)
    play.accuse("Snatchers", "Jinxed Broomstick", "Gringotts")
    with pytest.raises(UndoRefused):
        play.table.check_undo()
    assert play.s.eliminated == [0]
