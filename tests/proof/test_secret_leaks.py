"""Secret-leak audit of every registered game, over random legal games (support.leaks
says how the audit is derived from the secret marks), and undo never re-deals."""

from __future__ import annotations

import copy
import random

import pytest

from engine.games import registry
from engine.secrets import plain
from engine.table import Table
from support.leaks import audit_step
from support.random_play import new_game_action, table_moves

GAMES = sorted(registry())
SEEDS = range(3)
STEPS = 100


def random_game(name: str, seed: int) -> tuple[Table, random.Random]:
    rng = random.Random(f"{name}-{seed}")
    table = Table()
    table.apply(new_game_action(registry()[name], rng), rng.randrange(1 << 32))
    return table, rng


@pytest.mark.parametrize("name", GAMES)
def test_no_view_answer_or_line_depends_on_a_secret_its_audience_does_not_hold(name):
    findings, checks = set(), 0
    for seed in SEEDS:
        table, rng = random_game(name, seed)
        for action, action_seed in table_moves(table, rng, STEPS):
            found = audit_step(table, action, action_seed)
            checks += 2 * len(table.current.seats) + 3
            findings |= {f"{name} seed {seed} step {len(table.kept)}: {f}" for f in found}
    print(f"\n{name}: {checks} leak checks")
    assert sorted(findings) == []


@pytest.mark.parametrize("name", GAMES)
def test_undo_then_the_same_action_deals_the_same_secrets(name):
    for seed in SEEDS:
        table, rng = random_game(name, seed)
        for action, action_seed in table_moves(table, rng, STEPS):
            if rng.random() > 0.3:
                continue
            twin = copy.deepcopy(table)
            twin.apply(action, action_seed)
            once = plain(twin.current.state)
            twin.undo()
            assert plain(twin.current.state) == plain(table.current.state)
            twin.apply(action, action_seed)
            assert plain(twin.current.state) == once, f"{name} seed {seed}: undo re-dealt at {action.kind}"


def _leaky(where: str) -> Table:
    """Secret words whose "next" line or prompt names seat 1's word: what the audit is for.
    A glanceable prompt may not name even its own seat's word (it is shown openly)."""
    from engine.effects import Expect, Say
    from engine.steps import Move, Step
    from support.web import SecretWords

    def next_round(state, turn):
        return [Say(f"Round: {state.words[1]}." if where == "said" else "Round.")]

    def ask(state):
        if where == "glanceable":
            return [Expect.choice("next", f"Next, {state.words[1]}", ("go",), seat=1, secret=True, glanceable=True)]
        return [Expect("confirm", "next", "Next" if where == "said" else f"Next, not {state.words[1]}")]

    class Leaky(SecretWords):
        name = "leaky"
        steps = (Step("playing", "the table is playing", (Move("next", next_round, ask=ask),)),)

    table = Table({"leaky": Leaky()})
    table.apply(new_game_action(Leaky(), random.Random(1)), 7)
    return table


@pytest.mark.parametrize("where", ["said", "prompt", "glanceable"])
def test_the_audit_finds_a_secret_named_aloud_or_in_a_prompt(where):
    from engine.actions import Action

    found = audit_step(_leaky(where), Action("next"), 0)
    assert found, "the audit missed a leak"
    if where == "glanceable":  # seat 1 holds its word: only the open prompt is a leak
        assert found == ["seat 1's glanceable prompt depends on a secret"]
