"""Bad input through the table, for every registered game: hypothesis builds actions of
the game's own kinds (and others) with malformed, oversized, wrong-typed, non-ASCII and
other-seat data, at random points of random legal games.  Each is taken or refused; a
refusal changes nothing, and no game code ever fails with anything but a refusal."""

from __future__ import annotations

import copy
import functools
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, IllegalAction
from engine.games import registry
from engine.secrets import plain
from engine.table import NEW, TIMER, UNDO, GameFault, Table
from support.random_play import new_game_action, table_moves

GAMES = sorted(registry())
EXAMPLES = int(os.environ.get("FAMILIAR_FUZZ_EXAMPLES", "100"))
ODD_TEXT = st.sampled_from(["", " ", "٣", "３", "²", "1e9", "-1", "NaN", "null", "\x00", "é" * 300, "curse", "Order"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    ODD_TEXT,
    st.just("x" * 20_000),
    st.just(functools.reduce(lambda inner, _: [inner], range(40), 1)),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=12,
)
ARG_NAMES = st.sampled_from(["choice", "choices", "vote", "dice", "cards", "seat", "name", "confirm", "game", "seats"])


def kinds_of(name: str) -> list[str]:
    """The action kinds a game declares (a step game's moves), and the table's own."""
    game = registry()[name]
    moves = [m for step in getattr(game, "steps", ()) for m in step.moves] + list(getattr(game, "anytime", ()))
    return sorted({m.kind for m in moves} | {NEW, UNDO, TIMER, "timer_done"})


def played(name: str, seed: int, steps: int) -> Table:
    rng = random.Random(seed)
    table = Table()
    table.apply(new_game_action(registry()[name], rng), rng.randrange(1 << 32))
    for _ in table_moves(table, rng, steps):
        pass
    return table


@pytest.mark.parametrize("name", GAMES)
def test_a_refused_action_changes_nothing_and_no_game_code_crashes(name):
    kinds = kinds_of(name)
    tables = {(seed, steps): played(name, seed, steps) for seed in range(3) for steps in (0, 5, 25, 80)}
    data = st.one_of(JSON, st.dictionaries(ARG_NAMES, JSON, max_size=4))

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(
        where=st.sampled_from(sorted(tables)),
        kind=st.one_of(st.sampled_from(kinds), st.text(max_size=20)),
        data=data,
        seat=st.one_of(st.none(), st.integers(min_value=-2, max_value=12)),
    )
    def fuzz(where, kind, data, seat):
        table = tables[where]
        before = (plain(table.current), len(table.kept), copy.deepcopy(table.seen))
        try:
            action = Action(kind, data if isinstance(data, dict) else {"value": data}, seat)
            table.attempt(action, 1234)
        except GameFault as fault:
            raise AssertionError(f"{name}: {kind} crashed the game's code:\n{fault.trace}") from None
        except IllegalAction:
            pass
        assert (plain(table.current), len(table.kept), table.seen) == before

    fuzz()
