"""Harry Potter Clue with real Mystery cards: the host enters The Burrow, each player
their own hand and ticks on their own phone, and the notepad helper works from those
alone."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.actions import Action, IllegalAction
from engine.games.clue_rules import IDENTITIES
from engine.games.clue_state import ClueState
from engine.table import UNDO, UNDO_PASSES, Entry, Table
from support.clue import Play
from support.clue_truth import Honest, Truth
from support.table import outcome, twin_of

BURROW_CARDS = ["Fenrir Greyback", "12 Grimmauld Place"]
BOB = ["Snatchers", "Cursed Necklace", "Gringotts", "Malfoy Manor"]


def line(play: Play, seat: int, card: str) -> dict[str, Any]:
    return next(entry for entry in play.seen_by(seat)["notepad"] if entry["card"] == card)


def entered(players: int = 4) -> Play:
    play = Play(players, cards="physical")
    play.act("burrow", choices=BURROW_CARDS)
    return play


def test_the_host_enters_the_burrow_before_the_characters() -> None:
    """ "Place any extra cards faceup in The Burrow." (4 players: 18 cards, 4 each, 2 over);
    "Look at the cards in your hand and faceup in The Burrow and tick them off"."""
    play = Play(4, cards="physical")
    assert [(e.action, e.count) for e in play.table.expects() if not e.optional] == [("burrow", 2)]
    with pytest.raises(IllegalAction):
        play.act("burrow", choices=["Fenrir Greyback"])  # two lie there
    with pytest.raises(IllegalAction):
        play.act("burrow", by=0, choices=BURROW_CARDS)  # the host's to enter
    play.act("burrow", choices=["fenrir greyback", "12 Grimmauld Place"])
    assert play.table.public_view()["view"]["burrow"] == sorted(BURROW_CARDS)
    assert line(play, 2, "12 Grimmauld Place") == {
        "card": "12 Grimmauld Place",
        "kind": "location",
        "ticked": True,
        "why": "in The Burrow",
    }
    assert {e.action for e in play.table.expects() if not e.optional} == {"identity"}
    with pytest.raises(IllegalAction):
        play.act("burrow", choices=BURROW_CARDS)  # once


def test_three_players_have_no_burrow_to_enter() -> None:
    play = Play(3, cards="physical")
    assert "burrow" not in {e.action for e in play.table.expects()}
    assert "hand" in {e.action for e in play.table.expects()}
    assert "Enter your own Mystery cards on your phone, so your notepad knows them." in play.said


def test_each_player_enters_their_own_hand_privately() -> None:
    play = entered()
    asked = [e for e in play.table.expects() if e.action == "hand"]
    assert [(e.seat, e.count, e.secret) for e in asked] == [(s, 4, True) for s in range(4)]
    assert not set(BURROW_CARDS) & set(asked[0].options), "a Burrow card is no one's"
    before = play.table.public_view()
    with pytest.raises(IllegalAction):
        play.act("hand", choices=BOB, seat=1)  # the host cannot
    with pytest.raises(IllegalAction):
        play.act("hand", by=1, choices=[*BOB[:3], "12 Grimmauld Place"])
    play.act("hand", by=1, choices=BOB)
    assert play.seen_by(1)["cards"] == sorted(BOB)
    assert line(play, 1, "Gringotts")["why"] == "your card"
    assert not line(play, 0, "Gringotts")["ticked"] and play.seen_by(0)["cards"] == []
    assert play.table.public_view() == before, "the host page cannot tell a hand was entered"
    assert 1 not in {e.seat for e in play.table.expects() if e.action == "hand"}


def test_the_helper_uses_an_entered_hand_and_the_burrow() -> None:
    """Bob's hand and The Burrow known, and Ann's suggestion passed by Bob and Cat and
    shown by Dan: Dan holds the one card Bob does not know of (Peter Pettigrew)."""
    play = entered()
    play.act("hand", by=1, choices=BOB)
    play.act("notepad", by=1, choice="turn the notepad helper on")
    play.choose_all(first=0)
    play.walk_to("Gringotts")
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    play.act("answer", choice="Bob")  # Bob shows one of his own to Ann
    play.walk_to("Malfoy Manor")  # Bob
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    play.act("answer", choice="Dan")  # Cat passed; Dan showed
    assert line(play, 1, "Peter Pettigrew")["why"] == "held by Dan"
    assert line(play, 2, "Peter Pettigrew")["ticked"] is False


def test_the_helper_says_nothing_of_the_envelope_without_the_burrow() -> None:
    """A table whose Burrow was never entered (a log from before it was asked): its cards
    would look unaccounted for, so no card is put in the envelope."""
    play = Play(4, cards="physical")
    free = [i for i in IDENTITIES if i != play.s.missing]
    for seat in range(4):  # the characters, accepted with The Burrow still unknown
        play.act("identity", by=seat, choice=free[seat])
    play.act("first", choice=0)
    for seat in range(4):
        play.act("notepad", by=seat, choice="turn the notepad helper on")
    for _ in range(4):  # every player passes on one suspect, item and location
        play.walk_to("Forbidden Forest" if play.s.current % 2 else "Gringotts")
        play.suggest("Snatchers", "Love Potion")
        play.act("answer", choice="nobody")
    for seat in range(4):
        assert all(entry["why"] != "in the envelope" for entry in play.seen_by(seat)["notepad"])


def test_each_phone_ticks_its_own_notepad() -> None:
    """The issue promised "the notepad only" with real cards: a player ticks a card (and
    who showed it, if they say), unticks it with a second tap, on their phone alone."""
    play = entered()
    play.choose_all(first=0)
    asked = [e for e in play.table.expects() if e.action == "tick"]
    assert [(e.seat, e.secret, e.optional) for e in asked] == [(s, True, True) for s in range(4)]
    before = play.table.public_view()
    play.submit(Action("tick", {"choice": "Snatchers", "by": "Cat"}, 0))
    play.act("tick", by=0, choice="Gringotts")
    assert line(play, 0, "Snatchers")["why"] == "held by Cat"
    assert line(play, 0, "Gringotts") == {
        "card": "Gringotts",
        "kind": "location",
        "ticked": True,
        "why": "ticked by you",
    }
    assert not line(play, 1, "Snatchers")["ticked"]
    assert play.table.public_view() == before
    play.act("tick", by=0, choice="Gringotts")
    assert not line(play, 0, "Gringotts")["ticked"]
    with pytest.raises(IllegalAction):
        play.act("tick", choice="Gringotts", seat=0)  # the host cannot tick a phone's notepad


def test_undo_passes_over_a_tick() -> None:
    """A tick is a phone's own, not the table's step: the host's undo takes back the
    table's last step (Ann's roll) and the tick stays."""
    play = entered()
    play.choose_all(first=0)
    play.roll(6, "star")
    play.act("tick", by=2, choice="Snatchers")
    play.table.check_undo()
    play.table.undo(action=Action(UNDO, {UNDO_PASSES: "private"}))
    assert play.s.step == "roll" and play.s.roll is None
    assert line(play, 2, "Snatchers")["ticked"]


def test_ticks_are_for_real_cards_only() -> None:
    """With the box's own deal the notepad ticks itself."""
    play = Play(3)
    play.choose_all(first=0)
    assert "tick" not in {e.action for e in play.table.expects()}
    with pytest.raises(IllegalAction):
        play.act("tick", by=0, choice="Snatchers")


def _scramble(r: random.Random) -> Callable[[ClueState], set[int]]:
    """One seat's entered hand and ticks changed to others (the twin-state technique)."""

    def change(s: ClueState) -> set[int]:
        seat = r.randrange(s.players)
        free = [c for c in s.cards() if c not in s.burrow]
        s.entered = {**s.entered, seat: sorted(r.sample(free, len(s.entered.get(seat) or []) or 3))}
        s.ticks = {**s.ticks, seat: {c: r.choice([None, 0]) for c in r.sample(s.cards(), 4)}}
        return {seat}

    return change


def _table_view(table: Table) -> dict[str, Any]:
    """The host page's view, less what comes from the log the twin does not have (its
    undo line: a private move is never the table's step, so it leaves that unchanged)."""
    return {k: v for k, v in table.public_view().items() if k not in ("last_by", "undoes", "undo_refused")}


@pytest.mark.slow
def test_hands_and_ticks_reach_no_other_seat_nor_the_table() -> None:
    """Whatever a phone entered or ticked, the same action says and shows the same to the
    host page and to every other phone."""
    for seed in range(4):
        play = Play(4 + seed % 2, seed, cards="physical")
        r = random.Random(seed)
        table = Honest(play, Truth.deal(play.s, r), r)
        for _ in range(400):
            if play.table.public_view()["over"]:
                break
            action, seed_for = table.action(accuse=0.3), r.randrange(1 << 32)
            twin, holders = twin_of(play.table, _scramble(r))
            mirror = outcome(twin, action, seed_for)
            real = outcome(play.table, action, seed_for)
            play.entries.append(Entry(len(play.entries), action, seed_for))
            if action.seat in holders:
                continue  # the holder acting on what it entered
            assert mirror == real and _table_view(twin) == _table_view(play.table)
            for seat in set(range(play.s.players)) - holders:
                assert twin.private_view(seat) == play.table.private_view(seat)


def test_the_suggester_ticks_the_card_shown_in_one_tap() -> None:
    """Real cards: "If they have one of the Mystery cards you have called, they show it to
    you (and only you)." / "Check this card off on your notepad": Ann's phone alone asks
    which card Bob showed, and the tick says Bob holds it."""
    play = entered()
    play.choose_all(first=0)
    play.walk_to("Gringotts")
    play.suggest("Peter Pettigrew", "Cursed Necklace")
    play.act("answer", choice="Bob")
    asked = [e for e in play.table.expects() if e.action == "seen"]
    assert [(e.seat, e.options, e.secret) for e in asked] == [
        (0, ("Peter Pettigrew", "Cursed Necklace", "Gringotts"), True)
    ]
    with pytest.raises(IllegalAction):
        play.act("seen", by=1, choice="Gringotts")  # only the suggester
    before = play.table.public_view()["view"]
    play.act("seen", by=0, choice="Cursed Necklace")
    assert line(play, 0, "Cursed Necklace")["why"] == "held by Bob"
    assert not line(play, 2, "Cursed Necklace")["ticked"]
    assert play.table.public_view()["view"] == before
    assert "seen" not in {e.action for e in play.table.expects()}
