"""Property tests over random legal games of Harry Potter Clue, played through the game's
own prompts as the pages answer them: every prompt's options are accepted, all 21
Mystery cards stay accounted for, games end, and no seat's cards reach another seat's
view, the public view or any spoken line, except the one card shown to a suggester (the
twin-state technique: change one secret in a copy of the table, do the same action in
both, and everything the secret's holders do not see must come out the same)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action
from engine.effects import Expect
from engine.games.clue_mystery import matching
from engine.games.clue_rules import BURROW
from engine.games.clue_state import ClueState
from engine.table import Table, replay
from support.clue import Play, accounted, page_action, random_prompt
from support.table import outcome, twin_of
from support.table import walk as table_walk

STEPS = 2500
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Change = Callable[[ClueState], set[int]]


def knowers(s: ClueState, cards: set[str]) -> set[int]:
    """Seats that were shown, showed or looked at any of ``cards`` (the envelope too)."""
    seen = {a for a, shown in s.shown.items() if any(x["card"] in cards for x in shown)}
    gave = {g for g, shown in s.gave.items() if any(x["card"] in cards for x in shown)}
    peeked = {p for p, env in s.peeks.items() if set(env) & cards}
    return seen | gave | peeked


def swap_hands(r: random.Random) -> Change:
    """A card of one player's hand and one of another's change places."""

    def change(s: ClueState) -> set[int]:
        a, b = r.sample(range(s.players), 2)
        x, y = r.choice(s.hands[a]), r.choice(s.hands[b])
        s.hands[a] = sorted([*(c for c in s.hands[a] if c != x), y])
        s.hands[b] = sorted([*(c for c in s.hands[b] if c != y), x])
        return {a, b} | knowers(s, {x, y})

    return change


def swap_envelope(r: random.Random) -> Change:
    """A card of one player's hand and the envelope's card of its kind change places."""

    def change(s: ClueState) -> set[int]:
        a = r.randrange(s.players)
        x = r.choice(s.hands[a])
        index = ("suspect", "item", "location").index(s.kind_of(x))
        y = s.envelope[index]
        s.hands[a] = sorted([*(c for c in s.hands[a] if c != x), y])
        s.envelope[index] = x
        return {a} | knowers(s, {x, y}) | set(s.peeks)

    return change


def same_by_rule(before: ClueState, a: ClueState, b: ClueState, action: Action) -> bool:
    """Whether the rules let the two tables differ in public after ``action``: naming a
    suggestion's item makes public who must show (and who passed), an accusation's
    location whether it was right.  When those came out the same, all else must too."""
    if action.kind == "item" and before.purpose == "suggest" and a.suggestions and b.suggestions:
        return (a.showing, a.suggestions[-1]["passed"]) == (b.showing, b.suggestions[-1]["passed"])
    if action.kind == "place" and a.accusations and b.accusations:
        return a.accusations[-1]["right"] == b.accusations[-1]["right"]
    return True


def check_choice(play: Play, action: Action, seed: int) -> None:
    """Which card a holder shows is seen by the suggester alone: showing any other card
    the holder could have shown says and shows the same to everyone else."""
    s = play.s
    if action.kind != "show" or s.showing is None:
        return
    asker, holder = s.suggestions[-1]["by"], s.showing
    results = []
    for card in matching(s):
        twin = Table(play.table.games)
        twin.current = copy.deepcopy(play.table.current)
        said = outcome(twin, Action("show", {"choice": card}, holder), seed)
        views = [twin.private_view(x) for x in range(s.players) if x not in (asker, holder)]
        results.append((said, twin.public_view(), views))
    assert all(result == results[0] for result in results), "which card was shown reaches someone else"


def check_twin(play: Play, action: Action, seed: int, r: random.Random) -> None:
    check_choice(play, action, seed)
    before = copy.deepcopy(play.s)
    twin, holders = twin_of(play.table, r.choice([swap_hands(r), swap_envelope(r)]))
    real = outcome(play.table, action, seed)
    assert real[0] == "ok", f"the offered action {action} was refused: {real[1]}"
    mirror = outcome(twin, action, seed)
    if not same_by_rule(before, play.s, twin.current.state, action):
        return
    if play.s.step == "over" or twin.current.state.step == "over":
        return  # the envelope is revealed: it differs in public by the rules
    if action.kind == "place":
        holders.add(before.current)  # the accuser has looked in the envelope
    if action.seat is not None and action.seat in holders:
        return  # a holder acting on what it knows
    assert mirror == real, "what the box says or refuses depends on a secret"
    assert play.table.public_view() == twin.public_view(), "the public view depends on a secret"
    for seat in range(play.s.players):
        if seat not in holders:
            assert play.table.private_view(seat) == twin.private_view(seat), f"a secret reaches seat {seat}'s view"


def check_cards(play: Play) -> None:
    """21 cards, each in one place; the envelope only with an accuser and at the end."""
    s = play.s
    assert len(s.cards()) == 21
    assert accounted(s) == (sorted(s.burrow) if s.physical else sorted(s.cards()))
    public = play.table.public_view()
    assert ("envelope" in public["view"]) == public["over"]
    accusers = {a["by"] for a in s.accusations}
    for seat in range(s.players):
        view = play.table.private_view(seat)["view"]
        seen_it = seat in accusers and not s.physical
        assert (view["envelope_seen"] == s.envelope) if seen_it else view["envelope_seen"] == []
        for shown in view["shown_to_you"]:
            assert shown["card"] in s.hands[s.names.index(shown["by"])]


def steer(expect: Expect, action: Action, s: ClueState, r: random.Random) -> Action:
    """Now and then the option a player who had solved it would pick: The Burrow when
    moving, the envelope's card when accusing (else the walks would hardly ever win)."""
    wanted = None
    if expect.action == "move" and BURROW in expect.options and r.random() < 0.2:
        wanted = BURROW
    accusing = s.step == "burrow" or (s.step in ("item", "place") and s.purpose == "accuse")
    if accusing and s.envelope and expect.action in ("suspect", "item", "place") and r.random() < 0.5:
        wanted = s.envelope[("suspect", "item", "place").index(expect.action)]
    if wanted is None:
        return action
    return Action(action.kind, {**action.data, "choice": wanted}, action.seat)


def walk(players: int, seed: int, secrets: bool, accuse: float = 0.3, physical: bool = False) -> Play:
    play = Play(players, seed, cards="physical" if physical else "digital")
    r = random.Random(seed)

    def choose() -> Action:
        return steer(expect := random_prompt(play.table, r, accuse), page_action(expect, r), play.s, r)

    twin = (lambda action, seed_for: check_twin(play, action, seed_for, r)) if secrets else None
    table_walk(play, r, STEPS, choose, lambda: check_cards(play), twin)
    return play


@pytest.mark.slow
@SETTINGS
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1), physical=st.booleans())
def test_random_games_account_for_every_card_and_end(players: int, seed: int, physical: bool) -> None:
    play = walk(players, seed, secrets=False, physical=physical)
    assert play.table.public_view()["over"], f"stuck at {play.s.step}"
    assert replay(play.entries, play.table.games).current == play.table.current


@pytest.mark.slow
@SETTINGS
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32 - 1))
def test_no_card_reaches_another_seat_or_the_speaker(players: int, seed: int) -> None:
    walk(players, seed, secrets=True)


@pytest.mark.slow
def test_the_walks_reach_both_endings_and_show_cards() -> None:
    """The properties mean something only if the walks get through whole games, both ways,
    with cards shown on the way."""
    winners, shown = set(), 0
    for seed in range(12):
        play = walk(3 + seed % 3, seed, secrets=False, accuse=0.6)
        assert play.s.step == "over"
        winners.add(play.s.winner is None)
        shown += sum(1 for r in play.s.suggestions if r["shown_by"] is not None)
    assert winners == {True, False} and shown > 20
