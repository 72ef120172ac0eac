"""Unmask the Death Eaters: how many cards a pool holds, and what a reveal must hold.

3. "Each player chosen for the Encounter including the Leader, hands in one Wizarding
World card face down to the Leader, unless a Leader ability allows them to turn in an
extra card."  4. "Once a Curse is dealt with, discard it. Continue the Encounter with
fewer cards in the Encounter Pool."  9C (a Battle): "All cards are revealed."
"""

from __future__ import annotations

import pytest

from engine.actions import IllegalAction
from engine.effects import Expect
from support.unmask import Play, started

# started(): five players, Ann (seat 0) leads; Bob, Cat, Dan and Eve follow.


def reveal_prompt(play: Play) -> Expect:
    return next(e for e in play.table.expects() if e.action == "reveal")


def looked(play: Play) -> None:
    """The pool looked at (no Curse) and nothing swapped: the reveal is asked next."""
    play.act("look", choice="no Curse")
    play.act("swap", choice="no swap")


def to_reveal(play: Play, check: str = "cards_total", target: int = 1) -> None:
    """An Encounter for a group of two, gathered and looked at."""
    play.act("encounter", group=2, check=check, target=target)
    play.gather()
    looked(play)


def test_an_extra_claimed_before_the_group_is_known_counts_one_a_member_at_most() -> None:
    """An ability used as the Encounter is revealed may claim five extra cards; a group of
    two hands in two extra at most, so its pool holds four, not seven."""
    play = started()
    play.act("ability", choice="first ability", extra=5)
    to_reveal(play)
    assert reveal_prompt(play).count == 4
    with pytest.raises(IllegalAction, match="the pool holds 4 cards now, not 7"):
        play.act("reveal", cards=["1"] * 7)
    play.act("reveal", cards=["1"] * 4)
    assert play.s.step == "token"


def test_the_battle_pool_starts_without_the_encounters_extras() -> None:
    """9: "All group members hand in a card to a Battle Pool": the extra card an ability
    allowed in the Encounter is not handed in again; an ability used in the Battle is."""
    play = started()
    play.act("encounter", group=2, check="cards_total", target=1)
    play.gather()
    play.act("ability", choice="first ability", extra=1)
    play.act("reveal", cards=["1"] * 3)
    play.act("token", choice="dementor")
    looked(play)
    assert play.s.now.battle == "dementor" and reveal_prompt(play).count == 2
    with pytest.raises(IllegalAction, match="the pool holds 2 cards now, not 3"):
        play.act("reveal", cards=["3"] * 3)
    with pytest.raises(IllegalAction, match="extra cards are entered after a Leader ability used for this pool"):
        play.act("extra_cards", choice="1")
    play.act("reveal", cards=["3", "3"])

    later = started()
    later.act("encounter", group=2, check="cards_total", target=1)
    later.gather()
    later.act("reveal", cards=["1", "1"])
    later.act("token", choice="dementor")
    later.act("ability", choice="second ability")  # kept for the Battle
    later.act("extra_cards", choice="1")
    looked(later)
    assert reveal_prompt(later).count == 3


def test_extras_never_drop_below_the_curses_already_discarded() -> None:
    """Three Curses found in a pool of four (two members, two extra) leave one card; the
    extras cannot then be lowered to none (the pool would hold less than nothing), and a
    pool of Curses only is revealed empty and judged."""
    play = started()
    play.act("encounter", group=2, check="cards_total", target=1)
    play.gather()
    play.act("ability", choice="first ability", extra=2)
    for _ in range(3):
        play.act("look", choice="a Curse")
        play.act("curse", choice="resolved")
    looked(play)
    assert reveal_prompt(play).count == 1
    assert next(e for e in play.table.expects() if e.action == "extra_cards").options == ("1", "2")
    with pytest.raises(IllegalAction, match="3 Curses were already discarded from this pool"):
        play.act("extra_cards", choice="0")
    play.act("curse", choice="resolved")  # a fourth Curse: every card handed in was one
    assert next(e for e in play.table.expects() if e.action == "extra_cards").options == ("2",)
    prompt = reveal_prompt(play)
    assert prompt.kind == "confirm" and "no card is left in the pool" in prompt.prompt
    play.act("reveal")
    assert "The cards show 0 dice in all." in play.said and "Not enough: 1 were needed." in play.said
    assert play.s.board.snake == 1 and play.s.leader == 1


def test_every_card_of_the_pool_is_revealed() -> None:
    """9C: "All cards are revealed": a Battle pool of two is not revealed as one card; nor
    is an Encounter judged on the card total, less the Curse found and discarded."""
    play = started()
    play.token("dementor")
    looked(play)
    assert reveal_prompt(play).prompt == "Reveal all 2 cards: each card's dice value"
    with pytest.raises(IllegalAction, match="the pool holds 2 cards now, not 1"):
        play.act("reveal", cards=["3"])
    play.act("reveal", cards=["3", "3"])
    assert play.s.step == "roll"

    total = started()
    total.act("encounter", group=3, check="cards_total", target=2)
    total.gather()
    total.act("look", choice="a Curse")
    total.act("curse", choice="resolved")
    for wrong in (1, 3):
        with pytest.raises(IllegalAction, match=f"the pool holds 2 cards now, not {wrong}"):
            total.act("reveal", cards=["1"] * wrong)
    total.act("reveal", cards=["1", "1"])
    assert total.s.step == "token"


def test_a_directive_the_host_judges_may_reveal_fewer_cards() -> None:
    """6: "The Leader only reveals as many cards as instructed by the Encounter card
    directive. If less than the full amount is to be revealed, the Leader flips over one
    card at a time, stopping immediately once the directive is fulfilled"."""
    play = started()
    to_reveal(play, check="host")
    assert reveal_prompt(play).prompt == "Reveal the cards (at most 2): each card's dice value"
    with pytest.raises(IllegalAction, match="the pool holds 2 cards now, not 3"):
        play.act("reveal", cards=["1"] * 3)
    play.act("reveal", cards=["1"])
    assert play.s.step == "result"


def test_a_pool_of_curses_only_is_revealed_empty_whoever_judges() -> None:
    """Even where fewer cards may be revealed, an empty pool reveals none."""
    play = started()
    play.act("encounter", group=2, check="host")
    play.gather()
    for _ in range(2):
        play.act("look", choice="a Curse")
        play.act("curse", choice="resolved")
    assert reveal_prompt(play).kind == "confirm"
    play.act("reveal")
    assert play.s.step == "result"


def test_the_encounter_card_in_view_is_left_out_of_the_pool_read_by_the_camera() -> None:
    """The Encounter card lies face up while the pool is revealed, so the camera reads it
    too, from the taught Encounter deck: it is not a pool card.  Another Encounter card
    among the pool is refused."""
    play = started()
    encounter = {"card": "Ambush", "group": 2, "check": "cards_total", "target": 2}
    play.act("encounter", cards=[encounter])
    play.gather()
    looked(play)
    pool = [{"card": "Owl", "dice": 1}, {"card": "Wand", "dice": 2}]
    with pytest.raises(IllegalAction, match="not a card of the pool"):
        play.act("reveal", cards=[{**encounter, "card": "Dragon"}, *pool])
    play.act("reveal", cards=[encounter, *pool])
    assert play.s.now.pool.card_dice == 3 and play.s.step == "token"
