"""A long evening's log: replay folds only the games an undo in the log reaches, and the
table it builds is the table that never restarted (issue 24 #6: 20,001 entries took
seconds to start because every old game was folded again)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, IllegalAction
from engine.table import MARK_EVERY, NEW, UNDO, UNDO_PASSES, Entry, Table, replay
from support.web import SecretWords, games


class Counting(SecretWords):
    """Secret words that count how often its rules run."""

    applied = 0

    def apply(self, state: Any, action: Action, turn: Any) -> Any:
        Counting.applied += 1
        return super().apply(state, action, turn)


def test_replay_runs_only_the_current_game_when_no_undo_reaches_an_older_one():
    log: list[Entry] = []
    for game in range(5):
        log.append(Entry(len(log) + 1, Action(NEW, {"game": "secrets", "seats": ["Ann", "Bob"]}), game))
        log += [Entry(len(log) + 1, Action("next"), 0) for _ in range(10)]
    Counting.applied = 0
    table = replay(log, {"secrets": Counting()})
    assert Counting.applied == 10  # the last game's moves, not 50
    assert table.public_view()["view"]["rounds"] == 10 and len(table.kept) == len(log)
    table.undo(len(log) + 1)
    assert table.public_view()["view"]["rounds"] == 9


def test_replay_runs_at_most_two_games_whatever_undos_older_ones_hold():
    """Issue 51: a log of 232 games with an undo in each started in 110 s, every game run
    again.  The current game runs, and the one an undo of its start brings back; the
    table is the one that never restarted, and undoing back into the older games works."""
    live, log = Table(games()), []
    for game in range(6):
        for action in [Action(NEW, {"game": "secrets", "seats": ["Ann", "Bob"]}), *[Action("next")] * 10]:
            live.apply(action, game, seq=len(log) + 1)
            log.append(Entry(len(log) + 1, action, game))
        log.append(Entry(len(log) + 1, Action(UNDO), 0))
        live.undo(log[-1].seq, log[-1].action)
    Counting.applied = 0
    restarted = replay(log, {"secrets": Counting()})
    assert Counting.applied <= 2 * 10 + 2 * MARK_EVERY  # two games and their undos' rebuilds, not six
    assert restarted.public_view() == live.public_view()
    assert [restarted.private_view(s) for s in (0, 1)] == [live.private_view(s) for s in (0, 1)]
    for _ in range(10):  # back through the current game's start into the one before
        live.undo()
        restarted.undo()
    assert restarted.public_view() == live.public_view() and restarted.game_seq == live.game_seq < log[-12].seq


def test_an_undo_late_in_a_long_game_replays_a_few_entries_not_the_game():
    """Undo runs under the table's lock, which every page waits on: it starts from the
    latest mark, and the table it gives is the one that never had the undone entry."""
    live, log = Table({"secrets": Counting()}), []
    moves = [Action(NEW, {"game": "secrets", "seats": ["Ann", "Bob"]})]
    moves += [Action("peek", {"choice": "Bob"}, 0) if i % 5 == 0 else Action("next") for i in range(100)]
    for action in moves:
        try:
            live.apply(action, 7, seq=len(log) + 1)
        except IllegalAction:
            continue
        log.append(Entry(len(log) + 1, action, 7))
    assert len(log) > 3 * MARK_EVERY
    Counting.applied = 0
    live.undo(len(log) + 1)
    assert 0 < Counting.applied < MARK_EVERY
    never = Table({"secrets": Counting()})
    for entry in log[:-1]:
        never.apply(entry.action, entry.seed, seq=entry.seq)
    assert live.public_view() == never.public_view()
    assert [live.private_view(s) for s in (0, 1)] == [never.private_view(s) for s in (0, 1)]


STEPS = st.lists(
    st.sampled_from(["next", "peek", "vote", "new2", "new3", "undo", "undo", "restart"]), min_size=1, max_size=40
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS)
def test_a_restart_anywhere_gives_the_table_that_never_restarted(steps):
    """Games started, played and undone in any order (undos reaching back into older games
    included), undone as the box undoes now (never a step that showed a secret): the log
    replayed at any point is the live table, views and memories alike.  An older box's
    undo of a reveal two games back comes back without its memory after a restart
    (replay runs only the last two games: issue 51), so such logs are tested apart."""
    live, log = Table(games()), []

    def append(action: Action, seed: int = 0) -> None:
        log.append(Entry(len(log) + 1, action, seed))

    live.apply(Action(NEW, {"game": "secrets", "seats": ["Ann", "Bob", "Cy"]}), 1, seq=1)
    append(Action(NEW, {"game": "secrets", "seats": ["Ann", "Bob", "Cy"]}), 1)
    for step in steps:
        if step == "restart":
            live = replay(log, games())
            continue
        if step == "undo":
            if len(live.kept) > 1 and live.undo_refusal() is None:
                append(Action(UNDO, {UNDO_PASSES: "private"}))
                live.undo(log[-1].seq, log[-1].action)
            continue
        if step.startswith("new"):
            action, seed = (
                Action(NEW, {"game": "secrets", "seats": ["Ann", "Bob", "Cy", "Di"][: int(step[3])]}),
                len(log),
            )
        else:
            action, seed = (
                {
                    "next": Action("next"),
                    "peek": Action("peek", {"choice": "Bob"}, 0),
                    "vote": Action("vote", {"vote": True}, 1),
                }[step],
                0,
            )
        try:
            live.apply(action, seed, seq=len(log) + 1)
        except ValueError:
            continue
        append(action, seed)
    restarted = replay(log, games())
    assert restarted.public_view() == live.public_view()
    for seat in range(4):
        assert restarted.private_view(seat) == live.private_view(seat)
    assert restarted.undo_refusal() == live.undo_refusal()
    current = [
        e.seq for e in live.kept if e.seq >= live.game_seq
    ]  # an older game's marks are made when undo brings it back
    assert [restarted.final.get(q) for q in current] == [live.final.get(q) for q in current]
    assert restarted.current_since == live.current_since
