"""Property tests over random legal games of Monopoly Deal Wizarding World, played
through the game's own prompts as the pages answer them: every card is accounted for
(draw pile, hands, Banks, items, discards, characters, in play), no Bank total is ever
negative, every offered option is accepted, every game ends, and no seat's hand reaches
another seat's view, the public view or any spoken line (the twin-state technique:
change one hand in a copy of the table, do the same action in both, and everything the
hand's holders do not see must come out the same)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from engine.actions import Action
from engine.games.deal_bank import bank_total
from engine.games.deal_state import OVER, UNSEEN, DealState
from engine.games.deal_turns import STUCK
from engine.table import replay
from support.deal import Play, accounted, page_action, random_prompt
from support.table import outcome, twin_of
from support.table import walk as table_walk

STEPS = 5000
# The only input is a seed, so there is nothing to shrink: a failure is reported as found.
SETTINGS = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


def swap_with_draw(r: random.Random) -> Callable[[DealState], set[int]]:
    """One card of a hand changed for one of the draw pile: only its holder may tell."""

    def change(s: DealState) -> set[int]:
        seats = [x for x in range(s.players) if s.hands[x]]
        if not seats or not s.draw:
            return set(range(s.players))
        seat = r.choice(seats)
        h, d = r.randrange(len(s.hands[seat])), r.randrange(len(s.draw))
        s.hands[seat][h], s.draw[d] = s.draw[d], s.hands[seat][h]
        return {seat}

    return change


def swap_between_hands(r: random.Random) -> Callable[[DealState], set[int]]:
    """A card of one hand exchanged with a card of another: only the two may tell."""

    def change(s: DealState) -> set[int]:
        seats = [x for x in range(s.players) if s.hands[x]]
        if len(seats) < 2:
            return set(range(s.players))
        a, b = r.sample(seats, 2)
        i, j = r.randrange(len(s.hands[a])), r.randrange(len(s.hands[b]))
        s.hands[a][i], s.hands[b][j] = s.hands[b][j], s.hands[a][i]
        return {a, b}

    return change


def actor(action: Action) -> int | None:
    seat = action.data.get("seat")
    return action.seat if action.seat is not None else seat if isinstance(seat, int) else None


def check_twin(play: Play, action: Action, seed: int, r: random.Random) -> None:
    """Apply ``action`` to the real table and to a twin with one hand changed; compare."""
    twin, holders = twin_of(play.table, r.choice([swap_with_draw(r), swap_between_hands(r)]))
    real = outcome(play.table, action, seed)
    assert real[0] == "ok", f"the offered action {action} was refused: {real[1]}"
    mirror = outcome(twin, action, seed)
    a, b = play.s, twin.current.state
    if len(holders) == a.players or actor(action) in holders:
        return  # nothing changed, or a holder acting on what it knows
    assert mirror == real, "what the box says or refuses depends on a hand"
    assert play.table.public_view() == twin.public_view(), "the public view depends on a hand"
    drew = {x for x in range(a.players) if a.hands[x] != b.hands[x]}
    for seat in set(range(a.players)) - holders - drew:
        assert play.table.private_view(seat) == twin.private_view(seat), f"a hand reaches seat {seat}'s view"


def check_table(s: DealState) -> None:
    """Every card somewhere, each exactly as often as the deck has it; no Bank negative."""
    deck = Counter(s.deck.order)
    where = accounted(s)
    if s.digital:
        assert where == deck, (where - deck, deck - where)
    else:
        seen = Counter({c: n for c, n in where.items() if c != UNSEEN})
        assert sum(where.values()) == len(s.deck.order) and not seen - deck
    assert all(bank_total(s, seat) >= 0 for seat in range(s.players))


def walk(players: int, seed: int, physical: bool, secrets: bool) -> Play:
    play = Play(players, seed, start=False, deck="physical" if physical else "digital")
    r = random.Random(seed)
    twin = (lambda action, seed_for: check_twin(play, action, seed_for, r)) if secrets else None
    # Physical: a card named at random may have all its copies on the table already.
    choose = lambda: page_action(random_prompt(play.table, r), r)  # noqa: E731
    table_walk(play, r, STEPS, choose, lambda: check_table(play.s), twin, refusals=physical)
    return play


@pytest.mark.slow
@SETTINGS
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), physical=st.booleans())
def test_random_games_account_for_every_card_and_end(players: int, seed: int, physical: bool) -> None:
    play = walk(players, seed, physical, secrets=False)
    assert play.s.step == OVER, f"stuck at {play.s.step}"
    if play.s.winner is None:  # the cards ran out and nobody could win (deal_stuck)
        assert play.said[-1] == STUCK and play.table.public_view()["view"]["winner_name"] is None
    else:
        assert play.table.public_view()["view"]["winner_name"] == play.s.names[play.s.winner]
    assert replay(play.entries, play.table.games).current == play.table.current


@pytest.mark.slow
@SETTINGS
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
@example(players=3, seed=295)  # a release proposal longer than a card's name
def test_no_hand_reaches_another_seat_or_the_speaker(players: int, seed: int) -> None:
    walk(players, seed, physical=False, secrets=True)


@pytest.mark.slow
def test_the_walks_reach_every_spell() -> None:
    """The properties mean something only if the walks cast every kind of Spell, chains
    of Protego included, and finish their games."""
    said: Counter[str] = Counter()
    for seed in range(12):
        play = walk(2 + seed % 4, seed, physical=seed % 3 == 0, secrets=False)
        assert play.s.step == OVER
        for line in play.said:
            for word in WALKED:
                said[word] += word in line
    assert all(said[w] for w in WALKED), said


WALKED = (
    "casts Protego",
    "is petrified",
    "is free again",
    "takes a complete",
    "pays",
    "takes",
    "has nothing to pay with",
    "shuffle the discard pile",
    "discard 2 cards",
)
