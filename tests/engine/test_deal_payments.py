"""Paying debts in Monopoly Deal Wizarding World: what counts, no change, items when the
Bank is short, everything when short of the debt, never the hand, never the every-colour
wild.  Each debt here is made by a Spell Ann casts, as at the table."""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.games.deal_state import OVER, PAY, PLAY
from support.deal import Play


def owes(bank: list[str], items: list[str | tuple[str, str]], amount: int, players: int = 2) -> Play:
    """Bob (and everyone else) with that Bank and items, owing Ann ``amount`` (5 or 2)."""
    play = Play(players)
    for seat in range(1, players):
        play.bank(seat, *bank)
        play.items(seat, *items)
    spell = {5: "Collect 5 Points", 2: "Collect 2 From Everyone"}[amount]
    play.hand(0, spell)
    play.cast(spell, *(["Bob"] if amount == 5 else []))
    play.let()
    return play


def test_paying_exactly() -> None:
    """ "Pay from your Bank. Give the player Point or Spell cards from your Bank, which go
    to the other player's Bank.\""""
    play = owes(["1 Point", "2 Points", "3 Points"], [], 5)
    assert play.s.step == PAY
    assert play.offered("pay") == ("2 Points and 3 Points",)
    play.pay()
    assert sorted(play.s.banks[0]) == ["2 Points", "3 Points"] and play.s.banks[1] == ["1 Point"]
    assert "Bob pays Ann 5 points: 2 Points and 3 Points." in play.said
    assert play.s.step == PLAY and "Collect 5 Points" in play.s.discard


def test_no_change_is_given() -> None:
    """ "if you owe a player 2 points, have a 5 Point card in your Bank and no items, you
    must give them 5 points.\""""
    play = owes(["5 Points"], [], 2)
    assert play.offered("pay") == ("5 Points",)
    play.pay()
    assert play.s.banks == [["5 Points"], []]


def test_a_card_more_than_needed_is_refused() -> None:
    """There's no change, but no gift either: the proposal is the least overpaid."""
    play = owes(["1 Point", "1 Point", "5 Points"], [], 2)
    assert play.offered("pay") == ("2 × 1 Point",)
    with pytest.raises(IllegalAction, match="more than owed"):
        play.pay("1 Point", "1 Point", "5 Points")
    play.pay("5 Points")  # the payer chooses: one card that covers it is fine
    assert play.s.banks[0] == ["5 Points"]


def test_items_are_paid_when_the_bank_is_short() -> None:
    """ "If you don't have enough in your Bank, then you must pay with your items!" and
    "Items ... go to the other player's item collection. Items never go in the Bank!\""""
    play = owes(["1 Point"], ["Red Item", "Green Item"], 5)
    assert play.offered("pay") == ("1 Point and Green Item",)
    with pytest.raises(IllegalAction, match="4 points, short of the 5 owed"):
        play.pay("1 Point", "Red Item")
    play.pay("Red Item", "Green Item")  # the payer chooses how
    assert [p.card for p in play.s.items[0]] == ["Red Item", "Green Item"] and play.s.banks[0] == []
    assert play.s.banks[1] == ["1 Point"] and play.s.items[1] == []


def test_items_are_not_paid_while_the_bank_covers_the_debt() -> None:
    play = owes(["2 Points"], ["Red Item"], 2)
    with pytest.raises(IllegalAction, match="your Bank covers it"):
        play.pay("Red Item")
    play.pay("2 Points")
    assert [p.card for p in play.s.items[1]] == ["Red Item"]


def test_short_of_the_debt_everything_is_paid() -> None:
    """ "If you don't have enough points or items, just pay what you can.\""""
    play = owes(["1 Point"], ["Brown Item"], 5)
    with pytest.raises(IllegalAction, match="everything is paid"):
        play.pay("1 Point")
    assert play.offered("pay") == ("1 Point and Brown Item",)
    play.pay()
    assert play.s.banks[1] == [] and play.s.items[1] == []


def test_with_nothing_to_pay_nothing_happens() -> None:
    """ "If you have no points or items, nothing happens.\""""
    play = owes([], [], 5)
    assert play.s.step == PLAY and "Bob has nothing to pay with." in play.said


def test_the_every_colour_wild_never_pays() -> None:
    """ "This card can't be used as points.\""""
    play = owes([], [("Every-Colour Wild", "red")], 5)
    assert play.s.step == PLAY and "Bob has nothing to pay with." in play.said
    play = owes(["1 Point"], [("Every-Colour Wild", "red")], 5)
    assert play.offered("pay") == ("1 Point",)
    with pytest.raises(IllegalAction, match="can't be used as points"):
        play.pay("1 Point", "Every-Colour Wild")


def test_never_with_cards_from_the_hand() -> None:
    """ "Never pay with cards from your hand.\""""
    play = Play(2)
    play.hand(1, "5 Points")
    play.bank(1, "1 Point")
    play.hand(0, "Collect 5 Points")
    play.cast("Collect 5 Points", "Bob")
    play.let()
    with pytest.raises(IllegalAction, match="not in your Bank or items"):
        play.pay("5 Points")
    play.pay("1 Point")
    assert play.s.hands[1] == ["5 Points"]


def test_paying_with_an_item_breaks_its_set_and_a_wild_keeps_its_colour() -> None:
    play = owes([], ["Dark Blue Item", ("Dark Blue/Green Wild", "dark_blue")], 2)
    assert play.table.public_view()["view"]["players"][1]["complete_colours"] == ["Dark Blue"]
    play.pay("Dark Blue/Green Wild")
    assert play.table.public_view()["view"]["players"][1]["complete_colours"] == []
    assert play.s.items[0][0].card == "Dark Blue/Green Wild" and play.s.items[0][0].colour == "dark_blue"
    # the receiver may recolour it on their turn
    play.act("recolour", by=0, choice="Dark Blue/Green Wild: from Dark Blue to Green")
    assert play.s.items[0][0].colour == "green"


def test_a_complete_set_is_broken_to_pay() -> None:
    play = Play(2)
    play.items(1, "Dark Blue Item", "Dark Blue Item")
    assert play.table.public_view()["view"]["players"][1]["complete_colours"] == ["Dark Blue"]
    play.hand(0, "Collect 2 From Everyone")
    play.cast("Collect 2 From Everyone")
    play.let()
    play.pay()
    assert play.table.public_view()["view"]["players"][1]["complete_colours"] == []
    assert [p.card for p in play.s.items[0]] == ["Dark Blue Item"]


def test_every_other_player_pays_in_turn() -> None:
    play = owes(["2 Points"], [], 2, players=3)
    assert play.s.debts[0].payer == 1
    play.pay()
    assert play.s.step != PAY or play.s.debts[0].payer != 1
    play.let()
    assert play.s.debts[0].payer == 2
    play.pay()
    assert play.s.banks == [["2 Points", "2 Points"], [], []] and play.s.step == PLAY


def test_a_payment_that_completes_a_third_set_wins_before_the_others_pay() -> None:
    """The win is "checked after every change": Bob's item paid to Ann completes her third
    set, so she wins at once, and Cy is never asked to pay."""
    play = Play(3)
    play.items(0, "Brown Item", "Brown Item", "Dark Blue Item", "Dark Blue Item", "Grey Item")
    play.items(1, "Grey Item")
    play.items(2, "Red Item")
    play.hand(0, "Collect 2 From Everyone")
    play.cast("Collect 2 From Everyone")
    play.let()
    assert play.s.debts[0].payer == 1
    play.pay()
    assert play.s.winner == 0 and play.s.step == OVER and play.s.debts == []
    assert "Ann has three complete sets of different colours and wins!" in play.said
    assert [p.card for p in play.s.items[2]] == ["Red Item"] and "Collect 2 From Everyone" in play.s.discard
