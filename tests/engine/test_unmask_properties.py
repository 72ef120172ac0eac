"""Property tests: random legal games keep the chart, move the Snake once a turn at most,
never leak a Loyalty, and replay (and undo/redo) to exactly the same state."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action
from engine.effects import Say
from engine.games.unmask_rules import DEATH_EATER, ORDER
from engine.table import UNDO, Entry, Table, replay
from support.table import outcome
from support.unmask import Play, chart_holds, random_action

STEPS = 400
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def flipped(table: Table, seat: int) -> Table:
    """A twin table where ``seat``'s Loyalty secrets (cards dealt, card to come) are the other side."""
    twin = Table(table.games)
    twin.current = copy.deepcopy(table.current)
    s = twin.current.state
    other = {ORDER: DEATH_EATER, DEATH_EATER: ORDER}
    if s.loyalty:
        s.loyalty[seat] = other[s.loyalty[seat]]
        s.dealt[seat] = [other[c] for c in s.dealt[seat]]
    if s.phase2_deck:
        s.phase2_deck[seat] = other[s.phase2_deck[seat]]
    return twin


def assert_same_outside(real: Table, twin: Table, secret: int) -> None:
    """Everything but ``secret``'s own view (and a Revelio peek at it) must be identical."""
    assert real.public_view() == twin.public_view()
    s = real.current.state
    for seat in range(s.players):
        if seat == secret or (seat == s.board.revelio and s.final is not None and secret in s.final.peeks):
            continue
        assert real.private_view(seat) == twin.private_view(seat), f"seat {secret}'s secret shows in seat {seat}'s view"


def walk(players: int, seed: int, check_secrets: bool) -> Play:
    """Play random legal actions; check the chart, the Snake and (optionally) secrecy at each."""
    play = Play(players, seed)
    r = random.Random(seed)
    moved_turns: set[int] = set()
    for _ in range(STEPS):
        if play.table.public_view()["over"]:
            break
        before = play.s
        action = random_action(before, r)
        seed_for = r.randrange(1 << 32)
        secret = r.randrange(players) if check_secrets and before.loyalty else None
        twin = flipped(play.table, secret) if secret is not None else None
        result = outcome(play.table, action, seed_for)
        assert result[0] == "ok", f"the random legal action {action} was refused: {result[1]}"
        play.entries.append(Entry(len(play.entries), action, seed_for))
        play.said += [e.text for e in result[1] if isinstance(e, Say)]
        after = play.s
        assert chart_holds(after)
        if after.board.snake != before.board.snake:
            assert after.board.snake == before.board.snake + 1 and before.turn not in moved_turns
            moved_turns.add(before.turn)
        if twin is not None and after.step != "over":  # the Moment of Truth reveals every Loyalty
            assert outcome(twin, action, seed_for) == result, "what the box says or refuses depends on a secret"
            assert_same_outside(play.table, twin, secret)
    return play


@pytest.mark.slow
@SETTINGS
@given(players=st.integers(4, 8), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_chart_snake_and_secrets(players: int, seed: int) -> None:
    walk(players, seed, check_secrets=True)


@pytest.mark.slow
@SETTINGS
@given(players=st.integers(4, 8), seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_replay_and_undo_redo_give_the_same_state(players: int, seed: int, cut: float) -> None:
    play = walk(players, seed, check_secrets=False)
    assert replay(play.entries, play.table.games).current == play.table.current
    keep = play.entries[: 1 + int(cut * (len(play.entries) - 1))]
    last = keep[-1]
    undone = replay([*keep, Entry(len(keep), Action(UNDO), 0)], play.table.games)
    if last.action.kind != "table.new":
        undone.apply(last.action, last.seed)
        assert undone.current == replay(keep, play.table.games).current


@pytest.mark.slow
def test_random_walks_reach_the_moment_of_truth() -> None:
    """The walks above are only meaningful if they get through whole games, with every
    Role recorded (so the secrecy walk runs with Roles on the table)."""
    plays = [walk(players, seed, check_secrets=False) for seed in range(10) for players in (4, 8)]
    finished = [p for p in plays if p.table.public_view()["over"]]
    assert len(finished) >= 10
    assert all(len(p.s.roles) == p.s.players for p in finished if p.s.turn > 1)
