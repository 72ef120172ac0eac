"""A whole random game read in another language: does every word it says have a translation?

Generic over the games (a test names one): the game is played through
``engine.table.Table`` as the box plays it, answering only what its own prompts offer
(now and then from the wrong seat, so refusals are heard too; a running timer runs out
when nothing else is asked, so a night passes), and everything a person
would see or hear is gathered: the lines said, the host's notices, the timers' warnings,
the prompts and their options, the refusals, the public view and every seat's own, the
undo warning, the title, the view labels and the secrets' labels.

Two things are wrong in what is gathered: a line for people that is a plain ``str``
(built with an f-string or ``+``: the edge cannot translate it), and a message (or a
message inside one) that the language's catalog of its domain does not translate.

Not a test itself; the test modules call :func:`untranslated`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from babel.messages.catalog import Catalog

from engine.actions import Action, IllegalAction
from engine.effects import TIMER_DONE, Effect, Expect, Notice, Say, StartTimer
from engine.games import registry
from engine.messages import Msg, said
from engine.table import NEW, Table
from support.table import NAMES
from web.catalogs import read

Answer = Callable[[Expect, random.Random], Action]
"""What a page sends for a prompt, built from the prompt alone."""


def page_answer(expect: Expect, r: random.Random) -> Action:
    """A page's answer to any prompt, from the phone it is meant for (or the host's)."""
    if expect.kind == "choice":
        count = expect.count or 1
        picked = r.sample(expect.options, min(count, len(expect.options)))
        data: dict[str, Any] = {"choice": picked[0]} if count == 1 and picked else {"choices": picked}
    elif expect.kind == "vote":
        data = {"vote": r.random() < 0.6}
    elif expect.kind == "dice":
        data = {"dice": [r.randint(1, 6) for _ in range(expect.count or 2)]}
    elif expect.kind == "cards":
        data = {"cards": []}  # a game's own cards are its own test's business (pass ``answer``)
    else:
        data = {}
    return Action(expect.action, data, expect.seat)


@dataclass
class Heard:
    """Everything a game showed and said, sorted by what it must be."""

    lines: list[str] = field(default_factory=list)
    """Said, noticed, prompted or refused: each must be a message."""
    shown: list[Any] = field(default_factory=list)
    """Views and options: plain values (names, numbers, identifiers) may stay plain."""


def play(
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    answer: Answer = page_answer,
    most: int = 400,
) -> tuple[Table, Heard]:
    """A random game of ``game`` (at most ``most`` answers), and all it showed and said."""
    table, r, heard = Table(registry()), random.Random(seed), Heard()
    start = Action(NEW, {"game": game, "seats": NAMES[:players], "options": dict(options or {})})
    _hear(heard, _apply(table, start, r))
    expects, refused = _look(heard, table, players), 0
    for _ in range(most):
        if table.public_view()["over"] or refused > 50:
            break
        # nothing (more) to answer, as at night: a running timer runs out
        if (not expects or refused > 10) and _run_out(table, heard, r):
            expects, refused = _look(heard, table, players), 0
            continue
        if not expects:
            break
        action = _wrong_seat(answer(r.choice(expects), r), players, r)
        try:
            effects = _apply(table, action, r)
        except IllegalAction as exc:
            heard.lines.append(said(exc))
            refused += 1
            continue
        _hear(heard, effects)
        expects, refused = _look(heard, table, players), 0
    the_game = table.game
    assert the_game is not None
    heard.lines += [the_game.title, *the_game.labels.values(), *the_game.secret_labels(table.current.state).values()]
    return table, heard


def _apply(table: Table, action: Action, r: random.Random) -> list[Effect]:
    return table.apply(action, r.randrange(1 << 32))


def _run_out(table: Table, heard: Heard, r: random.Random) -> bool:
    """The first running timer runs out, as the box says it does; False if none runs."""
    running = sorted((t.deadline, name) for name, t in table.current.timers.items() if t.deadline is not None)
    if not running:
        return False
    deadline, name = running[0]
    _hear(heard, table.apply(Action(TIMER_DONE, {"name": name}), r.randrange(1 << 32), at=deadline))
    return True


def _wrong_seat(action: Action, players: int, r: random.Random) -> Action:
    """Now and then an answer from another phone, so the game's refusals are heard."""
    if players and r.random() < 0.1:  # (a table of no seats has no other phone)
        return Action(action.kind, action.data, r.randrange(players))
    return action


def _hear(heard: Heard, effects: list[Effect]) -> None:
    for effect in effects:
        if isinstance(effect, Say | Notice):
            heard.lines.append(effect.text)
        elif isinstance(effect, StartTimer):
            heard.lines += [line for _, line in effect.warnings]


def _look(heard: Heard, table: Table, players: int) -> list[Expect]:
    """What the pages show now; returns the prompts open now."""
    expects = table.expects()
    heard.lines += [e.prompt for e in expects]
    heard.shown += [list(e.options) + list(e.labels) for e in expects]
    heard.shown.append(table.public_view())
    heard.shown += [table.private_view(seat) for seat in range(players)]
    refusal = table.undo_refusal()
    if refusal is not None:
        heard.lines.append(refusal)
    return expects


def messages(value: Any) -> Iterator[Msg]:
    """Every message in a value: in lists and mappings, and the messages inside messages."""
    if isinstance(value, Msg):
        yield value
        for param in value.params.values():
            yield from messages(param)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from messages(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from messages(item)


def problems(heard: Heard, language: str, catalogs: Callable[[str], Catalog] | None = None) -> list[str]:
    """What ``language`` cannot say of what was heard: plain lines, untranslated messages."""
    # a plain line of numbers alone ("3, 5") says the same in every language
    found = [f"not a message: {line!r}" for line in heard.lines if _words(line) and not isinstance(line, Msg)]
    books: dict[str, Catalog] = {}
    for msg in messages([heard.lines, heard.shown]):
        if msg.domain not in books:
            books[msg.domain] = catalogs(msg.domain) if catalogs else read(language, msg.domain)
        if not _translates(books[msg.domain], msg):
            found.append(f"no {language} translation in {msg.domain}.po: {msg.msgid!r}")
    return sorted(set(found))


def _words(line: str) -> bool:
    return bool(re.search(r"[^\W\d_]", line or ""))


def _translates(catalog: Catalog, msg: Msg) -> bool:
    entry = catalog.get(msg.msgid, msg.context)
    if entry is None or entry.fuzzy:
        return False
    strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
    return all(strings)


def untranslated(
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    language: str = "de",
    answer: Answer = page_answer,
) -> list[str]:
    """Everything a random game of ``game`` says or shows that ``language`` cannot say."""
    return problems(play(game, players, seed, options, answer)[1], language)
