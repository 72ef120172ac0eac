"""Spell cards in Monopoly Deal Wizarding World: Accio by count, Protego and its chains,
Petrificus Totalus and its 10-point release, the character abilities it blocks, and
the Monopoly Deal actions of the deck (summon, swap, take a set, collect, draw)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import IllegalAction
from engine.games.deal_state import PAY, PLAY, RESPOND
from support.deal import Play

# --- Accio ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("reds", "points"), [(1, 2), (2, 3), (3, 6)])
def test_accio_collects_by_the_number_of_items_in_the_colour(reds: int, points: int) -> None:
    """ "Choose one of the colors shown on the card, and collect points based on the number
    of items you have in that color.\""""
    play = Play(3)
    play.items(0, *["Red Item"] * reds)
    play.bank(1, "4 Points", "2 Points")
    play.bank(2, "3 Points", "3 Points")
    play.hand(0, "Accio Red/Yellow")
    play.cast("Accio Red/Yellow")
    assert play.offered("accio") == ("Red",)  # Monopoly Deal: only a colour with items
    play.answer("Red")
    assert f"Accio for Red: {points} points." in play.said
    for seat in (1, 2):
        play.let()
        assert play.s.debts[0].amount == points and play.s.debts[0].payer == seat
        play.pay()
    assert play.s.step == PLAY and len(play.s.banks[1]) < 2 and len(play.s.banks[2]) < 2


def test_accio_counts_one_set_of_a_colour_at_most() -> None:
    """Monopoly Deal: with two sets of a colour, rent is charged for one."""
    play = Play(2)
    play.items(0, "Brown Item", "Brown Item", ("Light Blue/Brown Wild", "brown"))
    play.bank(1, "10 Points")
    play.hand(0, "Accio Light Blue/Brown")
    play.cast("Accio Light Blue/Brown", "Brown")
    assert "Accio for Brown: 2 points." in play.said


def test_accio_with_no_item_of_its_colours_can_only_be_banked() -> None:
    play = Play(2)
    play.items(0, "Green Item")
    play.hand(0, "Accio Red/Yellow")
    play.play("Accio Red/Yellow")
    assert play.offered("how") == ("bank it",)
    with pytest.raises(IllegalAction, match="choose one of: bank it"):
        play.answer("cast it")


def test_the_every_colour_accio_is_cast_on_one_player() -> None:
    play = Play(3)
    play.items(0, "Green Item", "Green Item")
    play.bank(1, "5 Points")
    play.bank(2, "5 Points")
    play.hand(0, "Accio Every Colour")
    play.cast("Accio Every Colour", "Green", "Cat")
    play.let()
    play.pay()
    assert play.s.banks == [["5 Points"], ["5 Points"], []]


# --- Protego --------------------------------------------------------------------------------


def accio_on_two(protegos: int, by_target: int = 1) -> Play:
    """Ann's Accio (2 points) on Bob and Cat, with Bob and Ann holding Protegos."""
    play = Play(3)
    play.items(0, "Red Item")
    play.hand(1, "Protego", "Protego")
    play.hand(0, "Accio Red/Yellow", "Protego")
    for seat in (1, 2):
        play.bank(seat, "2 Points")
    play.cast("Accio Red/Yellow", "Red")
    for k in range(protegos):
        play.protego(by=by_target if k % 2 == 0 else 0)
    play.let()
    return play


def test_protego_blocks_a_spell_cast_against_you_only() -> None:
    """ "if you cast Protego when another player casts Accio, you do not have to pay that
    player but all other players do.\""""
    play = accio_on_two(1)
    assert "Protego: Bob is not touched by Accio Red/Yellow." in play.said
    assert play.s.step == RESPOND  # Cat is asked next
    play.let()
    play.pay()
    assert play.s.banks == [["2 Points"], ["2 Points"], []]
    assert play.s.discard.count("Protego") == 1 and play.s.plays == 1


def test_a_protego_cancelled_by_another_protego() -> None:
    """ "This spell can be canceled if another player casts Protego on top of it.\""""
    play = accio_on_two(2)
    assert play.s.step == PAY and play.s.debts[0].payer == 1
    assert play.s.discard.count("Protego") == 2


def test_a_chain_of_three_protegos_blocks_the_spell() -> None:
    play = accio_on_two(3)
    assert play.s.step == RESPOND and play.s.pending is not None and play.s.pending.targets == [2]
    assert play.s.banks[1] == ["2 Points"] and play.s.hands[1] == []


def test_the_sides_take_turns_in_a_chain() -> None:
    play = Play(3)
    play.items(0, "Red Item")
    play.hand(1, "Protego", "Protego")
    play.hand(0, "Accio Red/Yellow")
    play.cast("Accio Red/Yellow", "Red")
    play.protego(by=1)
    with pytest.raises(IllegalAction, match="only Ann"):
        play.protego(by=1)
    with pytest.raises(IllegalAction, match="no Protego"):
        play.protego(by=0)


def test_protego_can_be_cast_only_against_a_spell() -> None:
    """ "Block a Spell that is cast against you by another player.\""""
    play = Play(2)
    play.hand(1, "Protego")
    with pytest.raises(IllegalAction, match="none is waiting for an answer"):
        play.protego(by=1)


def test_casting_protego_is_not_a_play_but_banking_it_is() -> None:
    """ "If you add this card to your Bank as points, it counts as one of the three actions
    you may take."  Casting it is answered on any player's turn, outside the three."""
    play = accio_on_two(2)
    assert play.s.plays == 1  # only the Accio
    play.pay()
    play.let()
    play.pay()
    play.hand(0, "Protego")
    play.play("Protego", "bank it")
    assert play.s.plays == 2


# --- Petrificus Totalus and the characters ---------------------------------------------------


def petrify_bob() -> Play:
    play = Play(2, characters=["Reader", "Drawer"])
    play.hand(0, "Petrificus Totalus")
    play.cast("Petrificus Totalus", "Bob")
    play.let()
    return play


def test_petrificus_totalus_stays_on_the_character_and_blocks_it() -> None:
    """ "Place on another player's character card to stop that player from using their
    character's special ability.\""""
    play = Play(2, characters=["Reader", "Drawer"])
    play.hand(0)
    play.hand(1, "1 Point")
    play.end()
    assert len(play.s.hands[1]) == 4  # Drawer: two, and one more
    play = petrify_bob()
    assert play.s.petrified == {1: "Petrificus Totalus"} and "Petrificus Totalus" not in play.s.discard
    assert play.table.public_view()["view"]["players"][1]["petrified"]
    play.hand(0)
    play.hand(1, "1 Point")
    play.end()
    assert len(play.s.hands[1]) == 3  # blocked: two only


def test_petrificus_is_released_by_discarding_ten_points_for_free() -> None:
    """ "The special ability will remain blocked until the player discards an equivalent of
    10 points during their turn (discarding points does not count towards the three cards
    you may play during your turn).\""""
    play = petrify_bob()
    play.bank(1, "5 Points", "4 Points", "2 Points", "1 Point")
    with pytest.raises(IllegalAction, match="only Ann|only Bob"):
        play.act("release", by=1, cards=["5 Points", "4 Points", "1 Point"])  # not Bob's turn
    play.hand(0)
    play.end()
    assert play.offered("release") == ("1 Point, 4 Points and 5 Points",)
    with pytest.raises(IllegalAction, match="9 points, short of the 10 owed"):
        play.act("release", by=1, cards=["5 Points", "4 Points"])
    play.act("release", by=1, cards=["5 Points", "4 Points", "2 Points"])  # no change
    assert play.s.petrified == {} and play.s.plays == 0
    assert play.s.banks[1] == ["1 Point"] and "Petrificus Totalus" in play.s.discard


def test_petrificus_needs_ten_points_in_the_bank() -> None:
    play = petrify_bob()
    play.bank(1, "5 Points")
    play.hand(0)
    play.end()
    assert play.offered("release") == ()
    with pytest.raises(IllegalAction, match="10 points in the Bank"):
        play.act("release", by=1, cards=["5 Points"])


def test_protego_blocks_petrificus() -> None:
    play = Play(2)
    play.hand(1, "Protego")
    play.hand(0, "Petrificus Totalus")
    play.cast("Petrificus Totalus", "Bob")
    play.protego(by=1)
    play.let()
    assert play.s.petrified == {} and "Petrificus Totalus" in play.s.discard


def test_the_play_and_hand_abilities() -> None:
    play = Play(2, characters=["Player", "Keeper"])
    cards = ["1 Point", "2 Points", "3 Points", "4 Points"]
    play.hand(0, *cards)
    for card in cards:
        play.play(card)
    assert play.offered("play") == ()
    play.end()
    play.hand(1, *["Draw Two"] * 9)
    play.end()
    assert play.s.turn == 0  # Keeper keeps nine


# --- The Monopoly Deal actions ------------------------------------------------------------------


def test_summon_takes_an_item_not_in_a_complete_set() -> None:
    """Monopoly Deal (Sly Deal): an item is taken, never from a complete set."""
    play = Play(2)
    play.items(1, "Brown Item", "Brown Item", ("Light Blue/Brown Wild", "brown"), "Red Item")
    play.hand(0, "Summon an Item")
    play.cast("Summon an Item", "Bob")
    assert set(play.offered("take")) == {"Brown Item (Brown)", "Light Blue/Brown Wild (Brown)", "Red Item (Red)"}
    play.answer("Brown Item (Brown)")
    play.let()
    assert [p.card for p in play.s.items[0]] == ["Brown Item"]
    assert play.table.public_view()["view"]["players"][1]["complete_colours"] == ["Brown"]


def test_summon_never_breaks_a_complete_set() -> None:
    play = Play(2)
    play.items(1, "Brown Item", "Brown Item")
    play.hand(0, "Summon an Item")
    play.play("Summon an Item")
    assert play.offered("how") == ("bank it",)


def test_take_a_set_takes_one_complete_set() -> None:
    """Monopoly Deal (Deal Breaker): a complete set is taken whole; a second set of the
    colour stays, and an every-colour wild goes only if it must."""
    play = Play(2)
    play.items(1, "Brown Item", "Brown Item", ("Every-Colour Wild", "brown"), ("Light Blue/Brown Wild", "brown"))
    play.hand(0, "Take a Set")
    play.cast("Take a Set", "Bob", "Brown")
    play.let()
    assert play.table.public_view()["view"]["players"][0]["complete_colours"] == ["Brown"]
    assert play.table.public_view()["view"]["players"][1]["complete_colours"] == ["Brown"]


def test_a_set_broken_by_a_steal() -> None:
    """A complete set taken leaves its owner none of that colour complete."""
    play = Play(2)
    play.items(1, "Brown Item", "Brown Item", "Red Item")
    play.hand(0, "Take a Set")
    play.cast("Take a Set", "Bob", "Brown")
    play.let()
    assert play.table.public_view()["view"]["players"][1]["complete_colours"] == []
    assert [p.card for p in play.s.items[1]] == ["Red Item"]


def test_swap_exchanges_two_loose_items() -> None:
    play = Play(2)
    play.items(0, "Green Item")
    play.items(1, "Red Item")
    play.hand(0, "Swap Items")
    play.cast("Swap Items", "Bob", "Red Item (Red)", "Green Item (Green)")
    play.let()
    assert [p.card for p in play.s.items[0]] == ["Red Item"]
    assert [p.card for p in play.s.items[1]] == ["Green Item"]


def test_a_spell_cannot_be_cast_on_an_unfit_target() -> None:
    play = Play(3)
    play.items(1, "Red Item")
    play.hand(0, "Summon an Item")
    play.cast("Summon an Item")
    assert play.offered("target") == ("Bob",)
    with pytest.raises(IllegalAction, match="can't be cast on Cat"):
        play.act("target", by=0, choice="Cat")


def test_draw_two_draws_and_is_discarded() -> None:
    play = Play(2)
    play.hand(0, "Draw Two")
    play.cast("Draw Two")
    assert len(play.s.hands[0]) == 2 and play.s.discard == ["Draw Two"] and play.s.step == PLAY


def test_release_by_the_proposal_and_refusals() -> None:
    play = petrify_bob()
    play.bank(1, "10 Points", "1 Point")
    play.hand(0)
    play.end()
    with pytest.raises(IllegalAction, match="discard 10 Points, or name the cards"):
        play.act("release", by=1, choice="1 Point")
    play.act("release", by=1, choice="10 Points")
    assert play.s.banks[1] == ["1 Point"] and not play.s.petrified
    with pytest.raises(IllegalAction, match="only a player under Petrificus Totalus"):
        play.act("release", by=1, choice="10 Points")


def test_a_release_of_many_small_cards_is_offered_and_taken() -> None:
    play = petrify_bob()
    play.bank(1, "2 Points", "5 Points", "Accio Dark Blue/Green", "Accio Pink/Orange", "Draw Two")
    play.hand(0)
    play.end()
    (offer,) = play.offered("release")
    assert len(offer) > 60
    play.act("release", by=1, choice=offer)
    assert play.s.banks[1] == [] and not play.s.petrified


def _asked_of(holds: bool) -> Play:
    """Bob, holding a Protego or a Point card, is the target of an Accio."""
    play = Play(2)
    play.items(0, "Red Item")
    play.hand(1, "Protego" if holds else "1 Point")
    play.hand(0, "Accio Red/Yellow")
    play.cast("Accio Red/Yellow", "Red")
    return play


def _outside(expect: dict[str, Any]) -> dict[str, Any]:
    """A prompt as a phone shows it outside the tap: a secret one's options lie behind it."""
    hidden = ("options", "option_labels") if expect["secret"] and not expect["glanceable"] else ()
    return {k: v for k, v in expect.items() if k not in hidden}


def test_whether_a_phone_holds_protego_shows_only_behind_its_tap() -> None:
    """Twin tables, Bob holding a Protego in one and not in the other: everything his
    phone shows outside the tap, and the whole table's view, is the same; the one secret,
    non-optional question lights his button either way (issue 50)."""
    holding, empty = _asked_of(True), _asked_of(False)
    assert holding.table.public_view()["expects"] == empty.table.public_view()["expects"] == []
    shapes = [[_outside(e) for e in p.table.private_view(1)["expects"]] for p in (holding, empty)]
    assert shapes[0] == shapes[1] and len(shapes[0]) == 1
    (asked,) = shapes[0]
    assert asked["secret"] and not asked["optional"] and not asked["glanceable"] and asked["seat"] == 1
    assert holding.offered("answer") == ("cast Protego", "cast no Protego")
    assert empty.offered("answer") == ("cast no Protego",)
    assert "Protego" not in str(holding.table.public_view()["view"]["hand_sizes"])


@pytest.mark.parametrize("holds", [True, False])
def test_the_secret_question_casts_or_lets_the_spell(holds: bool) -> None:
    play = _asked_of(holds)
    play.act("answer", by=1, choice=play.offered("answer")[0])
    if holds:
        assert play.s.step == "respond" and play.s.discard[-1] == "Protego"
        assert play.offered("answer") == ("cast no Protego",)  # Ann holds none: she lets it stand
        play.act("answer", by=0, choice="cast no Protego")
        assert play.s.step == "play" and "Protego: Bob is not touched by Accio Red/Yellow." in play.said
    else:
        assert play.s.step in ("pay", "play") and "Protego" not in play.s.discard


def test_a_seat_holding_no_protego_cannot_choose_to_cast_one() -> None:
    play = _asked_of(False)
    with pytest.raises(IllegalAction):
        play.act("answer", by=1, choice="cast Protego")


def test_a_physical_table_always_offers_protego() -> None:
    play = Play(2, deck="physical")
    play.items(0, "Red Item")
    play.act("play", by=0, cards=["Accio Red/Yellow"])
    play.answer("cast it")
    play.answer("Red")
    assert {e.action for e in play.table.expects()} == {"let", "protego"}
    play.protego(by=1)
    play.protego(by=0)
    play.let()
    assert play.s.step == "pay" or "Bob has nothing to pay with." in play.said
    assert [len(h) for h in play.s.hands] == [5, 4]  # 7 less the Accio and a Protego; 5 less one
