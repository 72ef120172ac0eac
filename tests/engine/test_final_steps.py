"""A step that showed a secret is final, in every game: undo stops at it and changes
nothing; every other step is taken back exactly and may be done again.

The random games are played through the prompts as the pages answer them
(support.random_play), and what each step showed is judged here from the seats' own
views, not from the table's marks, so the test checks the rule rather than the code."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from engine.actions import Action
from engine.games import registry
from engine.secrets import plain
from engine.table import NEW, UNDO, UNDO_PASSES, Entry, Table, UndoRefused, news
from support.random_play import new_game_action, paced_step

GAMES = sorted(registry())
SEEDS = range(3)
STEPS = 120


def views(table: Table) -> Any:
    seats = range(len(table.current.seats))
    return plain([table.public_view(), *[table.private_view(s) for s in seats]])


def learned(table: Table) -> list[Any]:
    game = table.game
    assert game is not None
    return [plain(game.learned(table.current.state, s)) for s in range(len(table.current.seats))]


def check_refused(table: Table) -> None:
    """Undo is refused in words naming no seat, and the refusal changes nothing."""
    before = views(table)
    refusal = table.undo_refusal()
    assert refusal is not None
    assert not any(name in refusal for name in table.current.seats), refusal
    with pytest.raises(UndoRefused):
        table.check_undo()
    assert views(table) == before


def check_undone(table: Table, before: Any, after: Any, done: Entry) -> None:
    """Undo takes the step back exactly; done again, it gives the same table."""
    twin = copy.deepcopy(table)
    twin.check_undo()
    twin.undo()
    assert views(twin) == before
    twin.apply(done.action, done.seed, at=done.at)
    assert views(twin) == after


@pytest.mark.parametrize("name", GAMES)
def test_undo_stops_at_every_step_that_showed_a_secret_and_takes_back_the_others(name: str) -> None:
    counts = {"final": 0, "undone": 0}
    for seed in SEEDS:
        rng = random.Random(f"final-{name}-{seed}")
        table = Table()
        table.apply(new_game_action(registry()[name], rng), rng.randrange(1 << 32))
        for _ in range(STEPS):
            game = table.game
            assert game is not None
            night = game.hides_actors(table.current.state)
            was, before = learned(table), views(table)
            done = paced_step(table, rng)
            if done is None:
                break
            showed = any(news(w, n) for w, n in zip(was, learned(table), strict=True))
            night = night or game.hides_actors(table.current.state)  # undo is refused all night
            if night or showed or game.is_over(table.current.state):
                check_refused(table)
                counts["final"] += 1
            elif done.action.kind != NEW:
                check_undone(table, before, views(table), done)
                counts["undone"] += 1
    print(f"\n{name}: {counts}")
    assert counts["undone"] and (counts["final"] or name == "dice"), counts  # the dice have no secret


def test_a_card_played_from_a_hand_is_no_news_but_a_card_drawn_is() -> None:
    assert not news({"hand": ["A", "B", "B"]}, {"hand": ["B", "A"]})
    assert news({"hand": ["A", "B"]}, {"hand": ["A", "B", "B"]})
    assert news({"peeks": []}, {"peeks": [{"seat": 1, "party": "order"}]})
    assert news({"role": "order"}, {"role": "death_eater"})
    assert not news({}, {}) and news({}, {"envelope": ["x"]})


def test_the_end_of_a_game_is_final_and_says_to_start_a_new_one() -> None:
    from support.kampf import Play

    play = Play(3, 1)
    play.vote(1, 2, 0)
    assert play.table.public_view()["over"]
    refusal = play.table.undo_refusal()
    assert refusal is not None and "start a new game" in refusal


def test_a_phones_private_switch_is_passed_over_by_undo_and_named_nowhere() -> None:
    """Bob turns his notepad helper on after Ann's roll: the host's undo still takes back
    Ann's roll (not Bob's switch, which stays), and the host page says nothing of it."""
    from support.clue import Play

    play = Play(3)
    play.choose_all(first=0)
    before_roll = plain(play.table.public_view())
    play.roll(6, "star")
    public = plain(play.table.public_view())
    play.act("notepad", by=1, choice="turn the notepad helper on")
    assert plain(play.table.public_view()) == public  # no "last by Bob", no new undo words
    play.table.check_undo()
    play.table.undo(action=Action(UNDO, {UNDO_PASSES: "private"}))
    assert plain(play.table.public_view()) == before_roll
    assert play.s.helper.get(1) is True
