"""The story of a Monopoly Deal Wizarding World game: one line per turn, in order, of
what lies face up (cards banked, laid, cast, paid, taken, the win), never a card that
is or was only in a hand, and taken back by undo with the action that told it."""

from __future__ import annotations

import copy

from engine.actions import Action
from support.deal import Play


def story(play: Play) -> list[str]:
    return play.table.public_view()["view"]["story"]


def test_each_turn_is_one_line_of_what_was_played_and_paid_in_order() -> None:
    play = Play(2)
    play.hand(0, "5 Points", "Brown Item", "Collect 5 Points")
    play.bank(1, "2 Points", "3 Points")
    play.play("5 Points")
    play.play("Brown Item")
    play.cast("Collect 5 Points", "Bob")
    play.let()
    play.pay()
    play.end()
    assert story(play)[0] == (
        "Turn 1, Ann: banks 5 Points; lays Brown Item as Brown; casts Collect 5 Points, on Bob;"
        " Bob pays Ann 5 points: 2 Points and 3 Points"
    )
    assert story(play)[1] == "Turn 2, Bob: no card played"
    assert len(story(play)) == 2


def test_an_accio_a_protego_chain_and_an_item_taken_are_told_as_they_happened() -> None:
    play = Play(3)
    play.items(0, "Red Item", "Red Item")
    play.items(1, "Green Item")
    play.bank(1, "4 Points")
    play.bank(2, "10 Points")
    play.hand(0, "Accio Red/Yellow", "Summon an Item", "Protego")
    play.hand(2, "Protego")
    play.cast("Accio Red/Yellow", "Red")
    play.let()  # Bob lets it: he pays
    play.pay()
    play.protego(2)  # Cat blocks it
    play.let()  # Ann casts none on top
    play.cast("Summon an Item", "Bob", "Green Item (Green)")
    play.let()
    (line,) = story(play)
    assert line == (
        "Turn 1, Ann: casts Accio Red/Yellow for Red, 3 points, on everyone; Bob pays Ann 4 points: 4 Points;"
        " Cat casts Protego; Cat is not touched; casts Summon an Item, on Bob; Ann takes Green Item from Bob"
    )


def test_the_winner_is_told_with_the_three_sets_and_the_end_shows_them() -> None:
    play = Play(2)
    play.items(0, "Brown Item", "Brown Item", "Dark Blue Item", "Dark Blue Item", "Grey Item")
    play.hand(0, "Grey Item")
    play.play("Grey Item")
    view = play.table.public_view()["view"]
    assert view["story"] == ["Turn 1, Ann: lays Grey Item as Grey; Ann wins with Brown, Dark Blue and Grey"]
    end = view["reveal"]
    assert end["story"] == view["story"]
    assert end["cards"][0]["card"]["detail"] == "Brown, Dark Blue and Grey; Bank: 0 points"
    assert end["cards"][1]["card"]["detail"] == "Bank: 0 points"


def test_cards_drawn_or_discarded_from_a_hand_are_counted_never_named() -> None:
    """Draw Two (Pass Go) draws and the hand limit's discards go from hand to hand or face down:
    the story says how many, as anyone counting the cards sees, never which."""
    play = Play(2)
    play.hand(0, *["Draw Two"] * 8)
    play.top("10 Points", "Summon an Item")
    play.cast("Draw Two")
    play.end()
    for name in ("10 Points", "Summon an Item"):
        play.act("discard", by=0, choice=name)
    (line, _next) = story(play)
    assert line == "Turn 1, Ann: casts Draw Two; discards 2 cards"
    assert "10 Points" not in str(play.table.public_view()["view"]["story"])


def test_the_story_is_the_same_however_the_hidden_cards_lie() -> None:
    """The twin-state check for the story alone (the leak audit of tests/proof checks
    the whole view, story included): other hands and the draw pile changed, same lines."""
    play = Play(3)
    play.hand(0, "5 Points", "Red Item")
    play.play("5 Points")
    play.play("Red Item")
    twin = copy.deepcopy(play.table)
    twin.current.state.hands[1], twin.current.state.hands[2] = twin.current.state.hands[2], twin.current.state.hands[1]
    twin.current.state.draw.reverse()
    assert twin.public_view()["view"]["story"] == story(play)


def test_undo_takes_back_the_fact_and_the_turn_it_told() -> None:
    """The story is part of the state, which is the fold of the log: undo replays it."""
    play = Play(2, deck="physical")
    before = story(play)
    play.act("play", by=0, choice="5 Points")
    assert story(play) == ["Turn 1, Ann: banks 5 Points"]
    play.table.undo()
    assert story(play) == before == ["Turn 1, Ann: no card played"]
    play.act("end", by=0)
    assert len(story(play)) == 2
    play.table.undo()
    assert story(play) == before
    play.table.apply(Action("play", {"choice": "Red Item"}, 0), 1)
    assert story(play) == ["Turn 1, Ann: lays Red Item as Red"]


def test_a_swap_a_set_taken_a_petrificus_and_a_correction_are_each_told() -> None:
    play = Play(3)
    play.items(0, "Red Item")
    play.items(1, "Green Item", "Brown Item", "Brown Item")
    play.hand(0, "Swap Items", "Take a Set", "Petrificus Totalus")
    play.cast("Swap Items", "Bob", "Green Item (Green)", "Red Item (Red)")
    play.let()
    play.cast("Take a Set", "Bob", "Brown")
    play.let()
    play.cast("Petrificus Totalus", "Cat")
    play.let()
    play.act("correct", card="Green Item", owner=0, to=2, area="items")
    (line,) = story(play)
    assert line.split("; ") == [
        "Turn 1, Ann: casts Swap Items, on Bob",
        "Ann swaps Red Item for Bob's Green Item",
        "casts Take a Set, on Bob",
        "Ann takes Bob's complete Brown set",
        "casts Petrificus Totalus, on Cat",
        f"{play.s.characters[2]} is petrified",
        "the host moves Green Item to Cat's items",
    ]
