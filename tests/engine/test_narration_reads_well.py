"""Narration and prompts read well in English and German: every line said, every prompt
and option, every refusal and every message in a view, over random whole games of every
game (seats and options drawn as a host might set them), is said in both languages and
has none of the slips a listener trips on (tests/support/reading.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.actions import Action, IllegalAction
from engine.games import registry
from engine.messages import Msg
from engine.table import NEW, Table
from support import clue, deal, kampf, unmask, voldemort
from support.random_play import new_game_action
from support.reading import english_slips, german_plurals, german_slips
from support.words import Answer, messages, page_answer, play
from web.language import Language

GAMES = sorted(registry())
SEEDS = range(6)
ANSWERS: dict[str, Answer] = {
    "clue": clue.page_action,
    "deal": deal.page_action,
    "kampf": kampf.page_action,
    "unmask": unmask.page_action,
    "voldemort": voldemort.page_action,
}
"""Each game's own page answers (its cards, its black die); any other game's prompts
are answered from the prompt alone."""
GERMAN = Language("de")


def set_up(name: str, seed: int) -> tuple[int, dict[str, Any]]:
    """Seats and options as a host might choose them, each option's values taken in turn
    over the seeds (so both decks are played); a set-up the game refuses is drawn anew."""
    game = registry()[name]
    start = new_game_action(game, random.Random(f"reads-{name}-{seed}"))
    turned = {k: list(v)[seed % len(v)] for k, v in (getattr(game, "option_choices", {}) or {}).items()}
    options = {**start.data["options"], **turned}
    try:
        Table({name: game}).attempt(Action(NEW, {**start.data, "options": options}), seed)
    except IllegalAction:
        options = start.data["options"]
    return len(start.data["seats"]), options


def heard(name: str, seed: int) -> Iterator[Msg]:
    """Every message one random game of ``name`` said or showed, each once."""
    seats, options = set_up(name, seed)
    _, gathered = play(name, seats, seed, options, answer=ANSWERS.get(name, page_answer))
    seen: set[str] = set()
    for msg in messages([gathered.lines, gathered.shown]):
        key = repr(msg.__reduce__())
        if key not in seen:
            seen.add(key)
            yield msg


@pytest.mark.parametrize("name", GAMES)
def test_every_line_and_prompt_reads_well_in_english_and_german(name: str) -> None:
    slips: set[str] = set()
    for seed in SEEDS:
        for msg in heard(name, seed):
            english, german = str(msg), GERMAN.text(msg)
            slips |= {f"{english!r}: {slip}" for slip in english_slips(english)}
            slips |= {f"{german!r}: {slip}" for slip in german_slips(german)}
    assert sorted(slips) == []


@pytest.mark.parametrize(
    "line",
    [
        "Ann: submit 1 names",
        "up to 1 rolls",
        "with 1 players",
        "roll 1 dice",
        "the The Leader",
        "Encounter: the Encounter",
        "draw a an card",
        "a Inferius attacks",
        "an Dementor",
        "Ann ,Bob",
        "Bob  casts",
        "{name} wakes up",
        "Ann: : roll",
        "1 Loyalty cards",
        "Enough: 1 were needed.",
        "submit 2 name",
    ],
)
def test_the_checks_find_each_slip(line: str) -> None:
    """The checks above can fail: each line here has a slip they must find."""
    assert english_slips(line)


@pytest.mark.parametrize(
    "line",
    [
        "Ann: submit 1 name",
        "up to 1 roll",
        "roll 2 dice",
        "space 1 is taken",
        "one of them",
        "a unicorn, an hour, an Inferius",
        "Encounter: Dementor",
        "wait...",
        "Turn 1 of 2, Leader Ann",
        "3 players, 2 dice, 10 seconds, the 17 policy cards",
    ],
)
def test_the_checks_take_a_line_that_reads_well(line: str) -> None:
    assert english_slips(line) == []


def test_the_german_checks_know_the_plurals_from_the_catalog() -> None:
    """A plural the German catalog uses for many is a slip after one; "die die" may be right."""
    assert "Karten" in german_plurals()
    assert german_slips("Ann: lege 1 Karten ab") and german_slips("der Der Anführer")
    assert german_slips("Ann: lege 1 Karte ab, die die Gruppe zeigt") == []


def test_a_roll_of_one_die_is_said_and_asked_in_the_singular() -> None:
    """A dice Encounter whose cards show a single die (random games seldom deal one): the
    line and the prompt say "1 die", in both languages."""
    from support.unmask import started

    play = started()
    play.act("encounter", group=2, check="dice_total", target=3, rolls=2)
    play.gather()
    play.act("reveal", cards=[{"dice": 1}, {"dice": 0}])
    asked = [e.prompt for e in play.table.expects() if e.action == "roll"]
    leader = play.s.names[play.s.leader]
    assert asked == [f"{leader}: roll 1 die (roll 1 of 2)"] and f"{leader}, roll 1 die." in play.said[-1]
    for line in [*asked, *play.said]:
        assert english_slips(line) == [] and german_slips(GERMAN.text(line)) == []
