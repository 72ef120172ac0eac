"""Every word Monopoly Deal Wizarding World says or shows is a message with a German
translation: the spoken lines, the prompts and their options, the refusals, the status
line and the view labels, gathered over random games of both decks."""

from __future__ import annotations

import functools
import random

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from engine.actions import IllegalAction
from engine.games.deal import Deal
from engine.messages import Msg
from support.deal import Play, page_action, random_prompt
from web.catalogs import po_path
from web.language import Language

GERMAN = Language("de")


@functools.cache
def po(domain: str) -> Catalog:
    with po_path("de", domain).open("rb") as file:
        return read_po(file, locale="de", domain=domain)


def untranslated(message: Msg) -> list[str]:
    """The ids in ``message`` (its parameters too) the German catalog lacks."""
    entry = po(message.domain).get(message.msgid)
    done = entry is not None and (all(entry.string) if isinstance(entry.string, tuple) else bool(entry.string))
    missing = [] if done else [message.msgid]
    for value in message.params.values():
        if isinstance(value, Msg):
            missing += untranslated(value)
    return missing


def words_of_a_game(seed: int, physical: bool) -> tuple[list[str], set[str]]:
    """Everything said, asked and refused in one random game; and the plain names (seats,
    cards, colours) that may appear as they are printed."""
    play = Play(2 + seed % 4, seed, start=False, deck="physical" if physical else "digital")
    r = random.Random(seed)
    names = set(play.s.names) | set(play.s.deck.cards) | {c.name for c in play.s.deck.colours.values()}
    names |= {c.name for c in play.s.deck.characters}
    texts: list[str] = []
    for _ in range(600):
        if play.table.public_view()["over"]:
            break
        expects = play.table.expects()
        texts += [e.prompt for e in expects] + [o for e in expects for o in e.options]
        texts.append(play.table.public_view()["view"]["status"])
        try:
            play.submit(page_action(random_prompt(play.table, r), r))
        except IllegalAction as exc:
            texts.append(exc.args[0])  # the refusal as raised: a message stays one
    return texts + play.said, names


@pytest.mark.parametrize(("seed", "physical"), [(1, False), (2, True), (3, False)])
def test_every_word_is_a_translated_message(seed: int, physical: bool) -> None:
    texts, names = words_of_a_game(seed, physical)
    plain = [t for t in texts if not isinstance(t, Msg) and t not in names]
    assert not plain, f"not messages: {sorted(set(plain))[:5]}"
    missing = {m for t in texts if isinstance(t, Msg) for m in untranslated(t)}
    assert not missing, f"no German for: {sorted(missing)[:5]}"
    assert GERMAN.text(next(t for t in texts if isinstance(t, Msg) and "Zug" in GERMAN.text(t)))


def test_the_labels_and_title_are_translated() -> None:
    game = Deal()
    play = Play(2)
    secrets = game.secret_labels(play.s)
    for label in [game.title, *game.labels.values(), *secrets.values()]:
        assert isinstance(label, Msg) and not untranslated(label)
    assert GERMAN.text(game.labels["draw_pile"]) == "Nachziehstapel"


def test_a_phones_hand_names_each_cards_kind_in_words() -> None:
    play = Play(2)
    hand = play.table.private_view(0)["view"]["hand"]
    assert hand and all(isinstance(c["kind"], Msg) and not untranslated(c["kind"]) for c in hand)
