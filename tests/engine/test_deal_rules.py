"""Monopoly Deal Wizarding World's rules, one test each, with the rulebook's sentence:
set-up, the turn, the Bank, items and wilds, complete sets and the win."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.games.deal_deck import parse
from engine.games.deal_state import CHARACTER, DISCARD, OVER, PLAY, UNSEEN
from support.deal import ABILITIES, Play

# --- Set-up -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="is for 2 to 5 players"):
        Play(players, start=False)


@pytest.mark.parametrize("players", [2, 5])
def test_each_player_chooses_a_character_and_is_dealt_five(players: int) -> None:
    """ "Remove the five character cards from the deck. Each player chooses one Hogwarts
    student" and "Shuffle the rest of the cards and deal five to each player.\""""
    play = Play(players, seed=players, start=False)
    play.act("youngest", choice=1)
    assert play.s.step == CHARACTER and play.s.turn == 1
    names = [c.name for c in play.s.deck.characters]
    for k in range(players):
        seat = (1 + k) % players
        offered = play.offered("character")
        assert set(offered) == set(names) - {n for n in play.s.characters if n}
        with pytest.raises(IllegalAction):
            play.act("character", by=(seat + 1) % players, choice=offered[0])
        play.act("character", by=seat, choice=offered[-1])
    assert len(set(play.s.characters)) == players
    # the youngest (seat 1) goes first: five dealt, then two drawn
    assert [len(h) for h in play.s.hands] == [5 if s != 1 else 7 for s in range(players)]
    assert play.s.step == PLAY and play.s.turn == 1
    assert len(play.s.draw) == len(play.s.deck.order) - 5 * players - 2


def test_a_chosen_character_is_not_offered_again() -> None:
    play = Play(3, start=False)
    play.act("youngest", choice=0)
    first = play.offered("character")[0]
    play.act("character", by=0, choice=first)
    with pytest.raises(IllegalAction, match="choose one of"):
        play.act("character", by=1, choice=first)


def test_the_physical_deck_is_counted_never_seen() -> None:
    """ "You can look at your cards, but keep them secret": at a physical table the box
    knows only how many cards each hand holds."""
    play = Play(3, deck="physical")
    assert all(set(h) == {UNSEEN} for h in play.s.hands)
    assert [len(h) for h in play.s.hands] == [7, 5, 5]
    assert play.table.public_view()["view"]["hand_sizes"] == [7, 5, 5]


# --- The turn -------------------------------------------------------------------------------


def test_draw_two_or_five_with_an_empty_hand() -> None:
    """ "Draw two cards. If you ever start your turn with no cards, draw five instead.\""""
    play = Play(2)
    play.hand(1, "1 Point")
    play.end()
    assert len(play.s.hands[1]) == 3
    play.hand(0)
    play.end()
    assert len(play.s.hands[0]) == 5
    assert "Ann's turn: draw 5 cards." in play.said


def test_play_moves_to_the_left() -> None:
    """ "The youngest player goes first, and play moves to the left.\""""
    play = Play(3)
    turns = []
    for _ in range(4):
        turns.append(play.s.turn)
        play.hand(play.s.turn)
        play.end()
    assert turns == [0, 1, 2, 0]


def test_up_to_three_plays_and_none_is_fine() -> None:
    """ "Take actions by playing up to three cards of any type. You may choose to play none.\""""
    play = Play(2)
    play.hand(0, "1 Point", "2 Points", "3 Points", "4 Points")
    for card in ("1 Point", "2 Points", "3 Points"):
        play.play(card)
    assert play.offered("play") == ()
    with pytest.raises(IllegalAction, match="only 3 cards a turn"):
        play.play("4 Points")
    play.end()
    play.hand(1, "1 Point")
    play.end()  # none played
    assert play.s.turn == 0


def test_a_played_card_never_returns_to_the_hand() -> None:
    """ "Once you play a card, you can't put it back in your hand.\""""
    play = Play(2)
    play.hand(0, "Protego")
    play.play("Protego")
    assert play.offered("how") == ("bank it",)  # Protego is cast only against a Spell
    assert "Protego" not in play.s.hands[0]
    with pytest.raises(IllegalAction):
        play.act("end", by=0)
    play.answer("bank it")
    assert play.s.banks[0] == ["Protego"] and play.s.plays == 1


def test_the_seven_card_hand_limit() -> None:
    """ "At the end of your turn, you may have up to seven cards in your hand. If you have
    more than seven, choose which extras to discard.\""""
    play = Play(2)
    play.hand(0, *["1 Point"] * 6, "2 Points", "3 Points", "Red Item")
    play.end()
    assert play.s.step == DISCARD and "Ann, discard 2 cards." in play.said
    with pytest.raises(IllegalAction, match="not in your hand"):
        play.act("discard", by=0, choice="Blue Item")
    play.act("discard", by=0, choice="Red Item")
    assert play.s.step == DISCARD
    play.act("discard", by=0, choice="3 Points")
    assert play.s.turn == 1 and len(play.s.hands[0]) == 7
    assert play.s.discard[-2:] == ["Red Item", "3 Points"]


def test_an_empty_hand_at_the_end_is_fine() -> None:
    """ "(It's OK to end your turn with no cards!)\""""
    play = Play(2)
    play.hand(0)
    play.end()
    assert play.s.turn == 1


def test_the_draw_pile_is_reshuffled_from_the_discards() -> None:
    """Monopoly Deal: an empty draw pile is replaced by the shuffled discards."""
    play = Play(2)
    play.hand(1, "1 Point")
    s = play.s
    s.discard, s.draw = s.draw[1:], s.draw[:1]
    play.end()
    assert len(play.s.hands[1]) == 3 and play.s.shuffles == 1
    assert "The draw pile is empty: shuffle the discard pile to make a new one." in play.said


# --- The Bank and items -----------------------------------------------------------------------


def test_point_cards_and_banked_spells_go_to_the_bank() -> None:
    """ "Add to your Bank by placing Point or Spell cards in front of you" and "You can't
    cast its spell once it's in there.\""""
    play = Play(2)
    play.hand(0, "5 Points", "Collect 5 Points")
    play.play("5 Points")
    play.play("Collect 5 Points", "bank it")
    assert play.s.banks[0] == ["5 Points", "Collect 5 Points"]
    assert play.table.public_view()["view"]["players"][0]["bank_total"] == 8
    assert play.s.pending is None and play.s.step == PLAY


def test_items_never_go_in_the_bank() -> None:
    """ "Magical Item Cards ... You can never place them in your Bank.\""""
    play = Play(2)
    play.hand(0, "Red Item")
    play.play("Red Item")
    assert play.s.banks[0] == [] and [p.card for p in play.s.items[0]] == ["Red Item"]


def test_a_two_colour_wild_counts_as_one_of_its_colours() -> None:
    """ "Choose one color and flip it so the color you'd like it to represent is on top.\""""
    play = Play(2)
    play.hand(0, "Red/Yellow Wild")
    play.play("Red/Yellow Wild")
    assert set(play.offered("colour")) == {"Red", "Yellow"}
    with pytest.raises(IllegalAction):
        play.answer("Green")
    play.answer("Yellow")
    assert play.s.items[0][0].colour == "yellow" and play.s.plays == 1


def test_the_every_colour_wild_takes_any_colour() -> None:
    """ "Choose any color you'd like it to represent.\""""
    play = Play(2)
    play.hand(0, "Every-Colour Wild")
    play.play("Every-Colour Wild")
    assert len(play.offered("colour")) == len(play.s.deck.colours)
    play.answer("Dark Blue")
    assert play.s.items[0][0].colour == "dark_blue"


def test_wilds_are_recoloured_on_their_owners_turn_for_free() -> None:
    """ "you can always change which color you'd like them to represent later in the
    game, as long as you do so during your turn" and "Changing them to a new color does
    not count as one of your three actions.\""""
    play = Play(2)
    play.items(0, ("Red/Yellow Wild", "red"))
    play.act("recolour", by=0, choice="Red/Yellow Wild: from Red to Yellow")
    assert play.s.items[0][0].colour == "yellow" and play.s.plays == 0
    play.hand(0)
    play.end()
    with pytest.raises(IllegalAction, match="only Bob"):
        play.act("recolour", by=0, choice="Red/Yellow Wild: from Yellow to Red")


def test_a_wild_starts_a_new_set_and_never_overfills_one() -> None:
    """ "You can't ... use them to exceed the number of magical items in a set of that
    color, but you can use them to start a new set.\""""
    play = Play(2)
    play.items(0, "Brown Item", "Brown Item", ("Light Blue/Brown Wild", "brown"))
    brown = play.table.public_view()["view"]["players"][0]["sets"][0]
    assert brown == {
        "colour": "Brown",
        "items": ["Brown Item", "Brown Item", "Light Blue/Brown Wild"],
        "size": 2,
        "complete": 1,
    }


def test_a_set_of_only_every_colour_wilds_is_never_complete() -> None:
    """ "You may not make a complete item set using only these cards.\""""
    play = Play(2)
    play.items(0, ("Every-Colour Wild", "brown"), ("Every-Colour Wild", "brown"))
    assert play.table.public_view()["view"]["players"][0]["complete_colours"] == []
    play.items(0, "Brown Item")
    assert play.table.public_view()["view"]["players"][0]["complete_colours"] == ["Brown"]


WILDS_ONLY = """
[colours.brown]
name = "Brown"
size = 2
accio = [1, 2]

[colours.blue]
name = "Blue"
size = 2
accio = [3, 8]

[[point]]
name = "1 Point"
value = 1
count = 10

[[wild]]
name = "Brown/Blue Wild"
colours = ["brown", "blue"]
value = 2
count = 4
"""


def test_two_colour_wilds_alone_can_complete_a_set() -> None:
    """ "You may make a complete item set using only these cards.\""""
    deck = parse(WILDS_ONLY + ABILITIES)
    play = Play(2, cards=deck)
    play.items(0, ("Brown/Blue Wild", "blue"), ("Brown/Blue Wild", "blue"))
    assert play.table.public_view()["view"]["players"][0]["complete_colours"] == ["Blue"]


# --- Winning ---------------------------------------------------------------------------------


def test_three_complete_sets_of_different_colours_win_at_once() -> None:
    """ "Be the first player to collect three complete sets of magical items. Each set
    must be a different color.\""""
    play = Play(2)
    play.items(0, "Brown Item", "Brown Item", "Dark Blue Item", "Dark Blue Item", "Grey Item")
    play.hand(0, "Grey Item")
    play.play("Grey Item")
    assert play.s.step == OVER and play.s.winner == 0
    assert "Ann has three complete sets of different colours and wins!" in play.said
    assert play.table.public_view()["over"]


def test_two_sets_of_one_colour_and_one_other_do_not_win() -> None:
    """ "you can't win with two red sets and one blue set.\""""
    play = Play(2)
    play.items(0, *["Black Item"] * 4, ("Black/Green Wild", "black"), ("Black/Grey Wild", "black"))
    play.items(0, ("Black/Light Blue Wild", "black"), ("Every-Colour Wild", "black"))
    play.items(0, "Brown Item", "Brown Item")
    view = play.table.public_view()["view"]["players"][0]
    assert [s["complete"] for s in view["sets"] if s["colour"] == "Black"] == [2]
    assert view["complete_colours"] == ["Brown", "Black"] and play.s.step == PLAY


def test_the_win_on_another_players_turn() -> None:
    """ "The game ends when one player collects three complete sets", whoever's turn it
    is: Ann's swap gives Bob the item that completes his third set."""
    play = Play(2)
    play.items(1, "Brown Item", "Brown Item", "Dark Blue Item", "Dark Blue Item", "Grey Item", "Red Item")
    play.items(0, "Grey Item")
    play.hand(0, "Swap Items")
    play.cast("Swap Items", "Bob", "Red Item (Red)", "Grey Item (Grey)")
    play.let()
    assert play.s.winner == 1 and play.s.step == OVER and play.s.turn == 0
    assert "Bob has three complete sets of different colours and wins!" in play.said
    assert "Swap Items" in play.s.discard


# --- The table: cards read by the camera, placements corrected --------------------------------


def test_a_card_read_by_the_card_reader_is_laid_where_the_rules_say() -> None:
    """The card reader sends each card as ``{"card": name, ...its taught data}``; the box
    takes what the card is from its own deck file."""
    play = Play(2, deck="physical")
    play.act("play", by=0, cards=[{"card": "red item", "value": 99}])
    play.act("play", by=0, cards=[{"card": "Red/Yellow Wild"}])
    play.answer("Red")
    play.act("play", by=0, cards=[{"card": "10 Points"}])
    assert play.s.banks[0] == ["10 Points"]
    assert [(p.card, p.colour) for p in play.s.items[0]] == [("Red Item", "red"), ("Red/Yellow Wild", "red")]
    assert len(play.s.hands[0]) == 4
    play.end()
    with pytest.raises(IllegalAction, match="every 10 Points of the deck is already on the table"):
        play.act("play", by=1, cards=[{"card": "10 Points"}])
    with pytest.raises(IllegalAction, match="no card called"):
        play.act("play", by=1, cards=[{"card": "Nimbus 2000"}])


def test_the_host_corrects_a_placement() -> None:
    """The host can correct any placement: a card misread into the wrong player's area."""
    play = Play(2)
    play.items(0, "Red Item")
    play.bank(0, "5 Points")
    play.act("correct", card="Red Item", owner=0, to=1, area="items")
    play.act("correct", card="5 Points", owner="Ann", to="Bob", area="bank")
    assert play.s.banks == [[], ["5 Points"]] and [p.card for p in play.s.items[1]] == ["Red Item"]
    with pytest.raises(IllegalAction, match="only in a collection"):
        play.act("correct", card="Red Item", owner=1, to=1, area="bank")
    with pytest.raises(IllegalAction, match="which colour"):
        play.items(0, ("Red/Yellow Wild", "red"))
        play.act("correct", card="Red/Yellow Wild", owner=0, to=1, area="items")
    play.act("correct", card="Red/Yellow Wild", owner=0, to=1, area="items", colour="yellow")
    assert play.s.items[1][-1].colour == "yellow"
    with pytest.raises(IllegalAction, match="only the host"):
        play.act("correct", by=0, card="Red Item", owner=1, to=0, area="items")


def test_a_draw_is_final_and_undo_points_to_the_correction() -> None:
    """Cards drawn to a phone cannot be unseen: undo is refused, naming neither who drew
    nor what, and says how a card put in the wrong place is corrected instead."""
    play = Play(2)
    play.hand(0)
    play.end()
    refusal = play.table.undo_refusal()
    assert refusal is not None and "cannot be unseen" in refusal and "card laid in the wrong place" in refusal
    assert "Bob" not in refusal and not any(card in refusal for card in play.s.hands[1])


def test_nothing_is_corrected_before_the_deal_or_after_the_win() -> None:
    play = Play(2, start=False)
    with pytest.raises(IllegalAction, match="nothing is laid yet"):
        play.act("correct", card="Red Item", owner=0, to=1, area="items")
    play = Play(2)
    play.items(0, "Brown Item", "Brown Item", "Dark Blue Item", "Dark Blue Item", "Grey Item", "Grey Item")
    play.act("correct", card="Grey Item", owner=0, to=0, area="items")  # the win is checked again
    assert play.s.winner == 0
    with pytest.raises(IllegalAction, match="the game is over"):
        play.act("correct", card="Grey Item", owner=0, to=1, area="items")
