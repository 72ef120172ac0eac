"""Twin tables: nothing the whole table sees or hears depends on a secret.

Two tables play the same game with the same public moves but different hidden facts:
the twin's deal is the first's with every secret changed where the table cannot see it
(support.leaks.hide_from), or the same set-up dealt from another seed.  A seat's answer
to its secret prompt is paired by seat and move (each twin answers its own prompt).
While the two public views agree, everything the table is given must agree too:

* the public view (the host page, the board page and /api/board: tracks, undo's words);
* the public prompts (the status light breathes for them, the camera answers them);
* undo's answer (its refusal, or the table it leaves);
* every effect of the step (what is said with its pauses, notices, timers, tracks);
* whether the step wakes the pages (the live-update signal).

A seat's answer to a secret prompt that the twin's seat is not given (its role lies in
the middle) is nothing in the twin: the table must not hear or see that difference.

Unlike the one-step audit (test_secret_leaks), the twins carry their own histories, so
what depends on earlier steps (which step is final, what undo would take back) is
compared too.  Where the game's own public views part (a policy enacted, a card
played), it has shown something on purpose and the pair stops there; each game must be
compared over enough steps for the test to mean something.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from engine.actions import Action, IllegalAction
from engine.effects import Effect
from engine.games import registry
from engine.secrets import plain
from engine.table import Entry, Table
from support.leaks import hide_from
from support.random_play import candidates, new_game_action, paced_moves

GAMES = sorted(registry())
MOST_SEEDS = 12
STEPS = 80
COMPARED = 150
"""Steps compared per game over its seeds and both kinds of twin (short games, such as
one night, take more seeds)."""


def hidden_twin(table: Table) -> Table:
    """The table with its deal's unseen secrets changed; its undo rebuilds from that deal."""
    twin = copy.deepcopy(table)
    state = hide_from(table.current.state, len(table.current.seats), None)
    twin.current = dataclasses.replace(twin.current, state=state)
    twin.marks[twin.kept[-1].seq] = twin.current  # what undo replays the game from
    return twin


def reseeded_twin(table: Table, seed: int) -> Table:
    """The same set-up dealt from another seed."""
    twin = Table()
    twin.apply(table.kept[-1].action, seed)
    return twin


def public(table: Table) -> dict[str, Any]:
    """Everything the whole table may be given now, from ``table``."""
    return {
        "view": plain(table.public_view()),
        "prompts": [plain(e.to_json()) for e in table.expects() if not e.secret],
        "tracks": plain({k: dataclasses.asdict(t) for k, t in table.tracks().items()}),
        "refusal": table.undo_refusal(),
        "undone": _undone(table),
    }


def shown(table: Table) -> Any:
    """What the game itself shows the table (its public view and whether it is over):
    where the twins' differ, the game revealed something on purpose.  All the rest of
    the public view (prompts, tracks, undo's words) must then still agree."""
    view = table.public_view()
    return plain((view["view"], view["over"]))


def _undone(table: Table) -> Any:
    """The public view that undo leaves now, when undo is allowed."""
    if table.undo_refusal() is not None:
        return None
    twin = copy.deepcopy(table)
    twin.undo()
    return plain(twin.public_view())


def heard(effects: list[Effect]) -> list[Any]:
    return [(type(e).__name__, plain(dataclasses.asdict(e))) for e in effects]


def take(table: Table, action: Action, seed: int, at: float) -> tuple[list[Effect], bool] | None:
    """Apply ``action``: its effects and whether it wakes the pages (as the box decides,
    see ``TableService.submit``), or None if refused."""
    try:
        outcome = table.attempt(action, seed, at)
    except IllegalAction:
        return None
    before = table.seen_by_all()
    table.commit(outcome, Entry(table._next_seq(), action, seed, at))
    quiet = action.seat is not None and not outcome.effects and table.seen_by_all() == before
    return outcome.effects, not quiet


def paired(twin: Table, action: Action, seed: int, at: float, rng: random.Random) -> tuple[list[Effect], bool] | None:
    """The twin's move for ``action``: the same, or the same seat's answer to its own
    secret prompt of that move."""
    done = take(twin, action, seed, at)
    if done is not None:
        return done
    own = [e.to_json() for e in twin.expects() if e.secret and e.seat == action.seat and e.action == action.kind]
    for data in [d for e in own for d in candidates(e, rng)]:
        done = take(twin, Action(action.kind, data, action.seat), seed, at)
        if done is not None:
            return done
    return None


def compare(first: Table, twin: Table, rng: random.Random, where: str) -> tuple[int, list[str]]:
    """Play the twins side by side while their public views agree: steps compared, findings."""
    findings: list[str] = []
    for compared in range(STEPS):
        mine, theirs = public(first), public(twin)
        if shown(first) != shown(twin):
            return compared, findings  # the game showed something: the pair stops here
        findings += [f"{where} step {compared}: {k} differs" for k in mine if mine[k] != theirs[k]]
        secret = {(e.seat, e.action) for e in first.expects() if e.secret}
        for action, at in paced_moves(first, rng):
            seed = rng.randrange(1 << 32)
            done = take(first, action, seed, at)
            if done is not None:
                break
        else:
            return compared, findings
        other = paired(twin, action, seed, at, rng)
        if other is None and (action.seat, action.kind) in secret:
            other = [], False  # the twin's seat is not asked that (its role lies in the middle)
        elif other is None:
            return compared, findings  # the twin's own secret refuses it (its hand): parted
        same_view = shown(first) == shown(twin)
        if same_view and heard(done[0]) != heard(other[0]):
            findings.append(f"{where} step {compared}: what {action.kind} says or shows differs")
        if same_view and done[1] != other[1]:
            findings.append(f"{where} step {compared}: whether {action.kind} wakes the pages differs")
    return STEPS, findings


@pytest.mark.parametrize("name", GAMES)
def test_twin_tables_look_and_sound_alike_until_the_game_shows_a_difference(name: str) -> None:
    total, findings, seed = 0, [], 0
    while total < COMPARED and seed < MOST_SEEDS:
        rng = random.Random(f"twins-{name}-{seed}")
        first = Table()
        first.apply(new_game_action(registry()[name], rng), rng.randrange(1 << 32))
        for kind, twin in (("hidden", hidden_twin(first)), ("reseeded", reseeded_twin(first, rng.randrange(1 << 32)))):
            compared, found = compare(copy.deepcopy(first), twin, random.Random(f"{name}-{seed}-{kind}"), kind)
            total += compared
            findings += [f"{name} seed {seed} {f}" for f in found]
        seed += 1
    print(f"\n{name}: {total} steps compared over {seed} deals")
    assert findings == []
    assert total >= COMPARED
