"""The core's promises for every game: undo never re-deals or un-shows a secret, a game's
bug is a refusal, prompts ask only for what the game accepts.

The game-independent tests walk each registered game through its own prompts (as the
pages answer them), so a game added to the registry is checked without a line here."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Action, IllegalAction
from engine.effects import Effect, Expect
from engine.game import Turn
from engine.games import registry
from engine.steps import Move, Step, StepGame
from engine.table import NEW, GameFault, Table
from support.table import NAMES
from support.unmask import Play, page_action

WALK = 150


def seats_for(name: str) -> list[str]:
    game = registry()[name]
    return NAMES[: max(game.min_seats, min(game.max_seats, 5))]


def walk(name: str, seed: int, steps: int = WALK) -> tuple[Table, list[Action]]:
    """A table playing ``name`` through its own prompts, answered as the pages do."""
    table, r = Table(), random.Random(seed)
    table.apply(Action(NEW, {"game": name, "seats": seats_for(name)}), seed)
    done: list[Action] = []
    for _ in range(steps):
        expects = table.expects()
        if table.public_view()["over"] or not expects:
            break
        action = page_action(r.choice(expects), r)
        try:
            table.apply(action, r.randrange(1 << 32))
        except IllegalAction:
            continue
        done.append(action)
    return table, done


def learned(table: Table) -> list[dict[str, Any]]:
    game = table.game
    assert game is not None
    return [game.learned(table.current.state, s) for s in range(len(table.current.seats))]


@pytest.mark.parametrize("name", sorted(registry()))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_undo_then_the_same_action_never_deals_again(name: str, seed: int, cut: float) -> None:
    """Any action, undone and done again with another seed, leaves every seat having been
    shown exactly what it was shown the first time."""
    table, done = walk(name, seed)
    if not done:
        return
    keep = max(1, int(cut * len(done)))
    replayed, _ = walk(name, seed, steps=0)
    for action in done[:keep]:
        replayed.apply(action, 1)
    shown = learned(replayed)
    replayed.undo()
    replayed.apply(done[keep - 1], 2)
    assert learned(replayed) == shown


@pytest.mark.parametrize("name", sorted(registry()))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_step_that_shows_a_secret_warns_before_undo(name: str, seed: int) -> None:
    """Whenever an action changed what some seat has been shown, the table warns before
    undoing it, names that seat (unless who acts is the secret, as at night), and the seat
    keeps seeing it after a confirmed undo."""
    table, r = walk(name, seed, steps=0)[0], random.Random(seed)
    undone = 0
    for _ in range(WALK):
        if undone:
            break
        expects = table.expects()
        if table.public_view()["over"] or not expects:
            break
        before = learned(table)
        try:
            table.apply(page_action(r.choice(expects), r), 0)
        except IllegalAction:
            continue
        after = learned(table)
        informed = [s for s, (b, a) in enumerate(zip(before, after, strict=True)) if a != b]
        warning = table.undo_warning()
        assert bool(informed) == bool(warning)
        hidden = table.kept[-1].seq in table.hidden  # a night: the warning names nobody
        for seat in informed:
            assert (table.current.seats[seat] in (warning or "")) != hidden
        if informed and r.random() < 0.3:
            table.undo()
            for seat in informed:
                changed = {k: v for k, v in after[seat].items() if before[seat].get(k) != v}
                assert changed in table.private_view(seat)["seen"]
            undone += 1
    assert undone <= 1


@pytest.mark.parametrize("name", sorted(registry()))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_prompt_asks_for_a_move_the_game_accepts_now(name: str, seed: int) -> None:
    """A prompt whose action the game would refuse as out of step is a dead end on a page."""
    table, _ = walk(name, seed)
    game = table.game
    assert isinstance(game, StepGame)
    state = table.current.state
    kinds = {m.kind for m in game.moves_now(state)}
    assert {e.action for e in game.expects(state)} <= kinds


def test_the_loyalty_deal_survives_six_undos_and_rerolls() -> None:
    """The measured fault: undo the roll that deals, roll again, six times: one deal."""
    play = Play(5, seed=3)
    for _ in range(4):
        play.act("roll", dice=[1, 2])
    play.act("roll", dice=[6, 6])
    first = list(play.s.loyalty)
    for attempt in range(6):
        assert play.table.undo_warning() is not None
        play.table.undo()
        play.table.apply(Action("roll", {"dice": [6, 6]}), attempt + 100)
        assert play.s.loyalty == first


def test_a_revelio_peek_cannot_be_unseen() -> None:
    """Undo of a peek warns; once confirmed, the holder still sees what was shown, and a
    second peek adds to it rather than replacing it."""
    from support.unmask import revelio_taken

    play = revelio_taken(options={"revelio_peeks": [2, 2, 2, 2, 2, 2]})
    for _ in range(5):
        play.encounter(False)
    assert play.s.step == "revelio"
    holder = play.s.board.revelio
    others = [s for s in range(5) if s != holder]
    play.act("peek", by=holder, choices=others[:1])
    warning = play.table.undo_warning()
    assert warning and play.s.names[holder] in warning and "Revelio peeks" in warning
    assert all(play.s.loyalty[s] not in warning.split(":")[-1] for s in others)  # names who, never what
    play.table.undo()
    seen = play.table.private_view(holder)["seen"]
    assert seen == [{"peeks": {str(others[0]): play.s.loyalty[others[0]]}}]
    play.act("peek", by=holder, choices=others[1:2])
    view = play.table.private_view(holder)
    assert [p["seat"] for p in view["view"]["peeks"]] == others[1:2] and view["seen"] == seen
    assert all(not play.table.private_view(s)["seen"] for s in others)


@pytest.mark.parametrize(
    "data",
    [
        {"check": ["x"]},
        {"choice": "²"},
        {"choice": "٣"},
        {"group": "3", "check": {}},
        {"choice": 2, "extra": 1},
        {"choice": True},
    ],
)
def test_malformed_encounters_are_refused_and_change_nothing(data: dict[str, Any]) -> None:
    """Inputs that once reached a handler and crashed it (HTTP 500) are refusals."""
    play = Play(4)
    play.first_leader(0)
    before = play.table.public_view()
    with pytest.raises(IllegalAction) as refused:
        play.act("encounter", by=0, **data)
    assert not isinstance(refused.value, GameFault)
    assert play.table.public_view() == before


@dataclass
class Broken:
    step: str = "only"
    items: list[int] = field(default_factory=list)


def _crash(state: Broken, turn: Turn) -> list[Effect]:
    state.items.append(1)
    return [].pop()  # a bug: IndexError


class BrokenGame(StepGame[Broken]):
    name, title, min_seats, max_seats = "broken", "Broken", 1, 2
    steps = (Step("only", "waiting", (Move("crash", _crash, ask=lambda s: [Expect("confirm", "crash", "Crash")]),)),)

    def setup(self, options: Any, turn: Turn) -> tuple[Broken, list[Effect]]:
        return Broken(), []


def test_only_a_seats_secret_prompt_can_be_glanceable() -> None:
    """Glanceable says how a seat's phone shows one of its secret prompts (openly); on any
    other prompt it would mean nothing, so it is refused where the prompt is made."""
    shown = Expect.choice("peek", "Revelio", ("Ann",), seat=1, secret=True, glanceable=True)
    assert shown.to_json()["glanceable"] and shown.to_json()["secret"]
    for seat, secret in ((None, True), (1, False)):
        with pytest.raises(ValueError, match="glanceable"):
            Expect.choice("peek", "Revelio", ("Ann",), seat=seat, secret=secret, glanceable=True)


def test_a_bug_in_a_game_is_a_refusal_that_changes_nothing() -> None:
    table = Table({"broken": BrokenGame()})
    table.apply(Action(NEW, {"game": "broken", "seats": ["Ann"]}), 1)
    with pytest.raises(GameFault) as fault:
        table.apply(Action("crash"), 2)
    assert "IndexError" in fault.value.trace and "Traceback" not in str(fault.value)
    assert table.current.state.items == [] and len(table.kept) == 1


def test_refusals_never_name_internal_steps() -> None:
    play = Play(4)
    with pytest.raises(IllegalAction) as refused:
        play.act("reveal", cards=["1"])
    assert "first_roll" not in str(refused.value) and "rolling for the first Leader" in str(refused.value)


def test_an_undone_new_game_brings_back_what_its_seats_saw_after_a_restart() -> None:
    """Game A's peek, undone with the host's confirmation, stays on Ann's phone; a new game
    B is started, the box restarts, and B is undone: A comes back with Ann's memory, as on
    the table that never restarted (the review's reproduction)."""
    from engine.table import UNDO, Entry, replay
    from support.web import games

    log: list[Entry] = []

    def add(action: Action, seed: int = 0) -> None:
        log.append(Entry(len(log) + 1, action, seed))

    add(Action(NEW, {"game": "secrets", "seats": ["Ann", "Bob", "Cy"]}), 7)
    add(Action("peek", {"choice": "Bob"}, 0))
    add(Action(UNDO))
    remembered = replay(log, games()).private_view(0)["seen"]  # game A, after the undo
    assert remembered and remembered[0]["peeked"] == "Bob"
    add(Action(NEW, {"game": "secrets", "seats": ["Ann", "Bob"]}), 8)
    add(Action(UNDO))  # undo game B, on the restarted box
    restarted = replay(log[:-1], games())
    restarted.undo(log[-1].seq)
    assert restarted.private_view(0)["seen"] == remembered == replay(log, games()).private_view(0)["seen"]
