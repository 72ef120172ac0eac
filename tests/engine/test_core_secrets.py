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
from engine.table import NEW, GameFault, Table, UndoRefused
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


def test_the_roll_that_deals_loyalty_is_final() -> None:
    """The measured fault was a re-deal on undo and re-roll; now the roll that dealt the
    Loyalty cards showed each phone its card, so it cannot be taken back at all."""
    play = Play(5, seed=3)
    for _ in range(4):
        play.act("roll", dice=[1, 2])
    play.act("roll", dice=[6, 6])
    first = list(play.s.loyalty)
    with pytest.raises(UndoRefused, match="cannot be unseen"):
        play.table.check_undo()
    assert play.s.loyalty == first


def test_a_revelio_peek_is_final_and_no_second_peek_adds_to_it() -> None:
    """The review's fault: an undone Revelio let a second peek add to the first.  The
    peek is final; the refusal names neither the holder nor what was seen."""
    from support.unmask import revelio_taken

    play = revelio_taken(options={"revelio_peeks": [2, 2, 2, 2, 2, 2]})
    for _ in range(5):
        play.encounter(False)
    assert play.s.step == "revelio"
    holder = play.s.board.revelio
    others = [s for s in range(5) if s != holder]
    play.act("peek", by=holder, choices=others[:1])
    refusal = play.table.undo_refusal()
    assert refusal is not None and all(name not in refusal for name in play.s.names)
    with pytest.raises(UndoRefused):
        play.table.check_undo()
    peeks = play.table.private_view(holder)["view"]["peeks"]
    assert [p["seat"] for p in peeks] == others[:1] and play.table.private_view(holder)["seen"] == []


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
