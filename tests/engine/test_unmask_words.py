"""Unmask speaks in messages: every line said, prompt shown and refusal given is a
message of a catalogued domain, and the German catalog has each of them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po

from engine.actions import IllegalAction
from engine.effects import Notice, Say
from engine.games.unmask import Unmask
from engine.messages import Msg
from support.unmask import Play, page_action
from web.catalogs import po_path
from web.language import Language


def _german(domain: str) -> set[Any]:
    with po_path("de", domain).open("rb") as file:
        return {m.id for m in read_po(file) if m.id and m.string and all(m.string)}


def _messages(value: Any) -> Iterator[Msg]:
    """Every message in a value, its message parameters included."""
    if isinstance(value, Msg):
        yield value
        for param in value.params.values():
            yield from _messages(param)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _messages(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _messages(item)


def _said_in_a_game(players: int, seed: int) -> tuple[list[str], list[str]]:
    """A game played from its prompts: (every text it said, showed or refused, refusals only)."""
    play, r = Play(players, seed), random.Random(seed)
    texts: list[str] = []
    refusals: list[str] = []
    for _ in range(1500):
        if play.table.public_view()["over"]:
            break
        expects = play.table.expects()
        texts += [e.prompt for e in expects] + [o for e in expects for o in e.options if not o.isdigit()]
        texts.append(play.table.public_view()["view"]["status"])
        expect = r.choice(expects)
        try:
            effects = play.submit(page_action(expect, r))
        except IllegalAction as refused:
            refusals.append(refused.message)
            continue
        texts += [e.text for e in effects if isinstance(e, (Say, Notice))]
    return texts, refusals


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (8, 2)])
def test_every_line_and_prompt_is_a_translated_message(players: int, seed: int) -> None:
    texts, refusals = _said_in_a_game(players, seed)
    plain = [t for t in texts + refusals if not isinstance(t, Msg) and not t.isdigit()]
    names = set(Play(players).s.names)
    assert not [t for t in plain if t not in names], "text built outside a message cannot be translated"
    german = {"unmask": _german("unmask"), "familiar": _german("familiar")}
    found = {(m.domain, m.msgid if m.plural is None else (m.msgid, m.plural)) for t in texts for m in _messages(t)}
    assert {d for d, _ in found} <= set(german)
    assert not [key for d, key in found if key not in german[d]]


def test_the_title_labels_and_a_line_read_in_german() -> None:
    de = Language("de")
    game = Unmask()
    assert de.text(game.title) == "Harry Potter: Entlarvt die Todesser"
    assert de.labels(game.labels)["phase_name"] == "Phase" and all(isinstance(v, Msg) for v in game.labels.values())
    play = Play(4)
    assert de.text(play.table.expects()[0].prompt) == "Ann: welche Rollenkarte hast du genommen?"
    play.roles()  # the Role first (set-up step 1), then the roll (step 7)
    assert de.text(play.table.expects()[0].prompt) == "Ann: wirf zwei Würfel um den ersten Anführer"
