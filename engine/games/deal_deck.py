"""Monopoly Deal Wizarding World: the deck, read from a data file the owner edits.

The printed card list is not in the rulebook, so it is data, not code: the file
``deal_deck.toml`` ships inside this package (read with :mod:`importlib.resources`,
the engine's only reading, like the vision package's models) with the structure, a
documented template, the rulebook's values and Monopoly Deal's official deck as the
stand-in for the rest, marked for the owner to fill in.  A package file rather than
a set-up option because a deck is a hundred cards: an owner edits and shares one
file, and every game on the box uses it, where an option would have to carry the
whole list into every game's log.  :func:`parse` takes the same text for tests and
for a deck handed in another way.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from engine.actions import IllegalAction
from engine.messages import words

_, _n = words("deal")

POINT, ITEM, WILD, SPELL = "point", "item", "wild", "spell"
EVERY = "every"
SPELL_EFFECTS = ("accio", "collect", "summon", "swap", "take_set", "draw", "protego", "petrificus")
CHARACTER_EFFECTS = ("table", "extra_draw", "extra_play", "hand_limit")
CHARACTERS = 5
"""RULEBOOK: "Remove the five character cards from the deck.\""""
NAME_LONGEST = 60


@dataclass(frozen=True)
class Colour:
    key: str
    name: str
    size: int
    accio: tuple[int, ...]


@dataclass(frozen=True)
class Card:
    """One card (every copy of it): its kind, value and what it does."""

    name: str
    kind: str
    value: int
    count: int = 1
    colour: str | None = None  # an item's colour
    colours: tuple[str, ...] = ()  # a two-colour wild's or an Accio's colours (all, for "every")
    effect: str = ""  # a spell's
    amount: int = 0
    every: bool = False  # a collect from every other player
    one_player: bool = False  # an Accio on one player
    every_colour: bool = False  # the every-colour wild: worth nothing, never paid, never a set alone


@dataclass(frozen=True)
class Character:
    name: str
    ability: str
    effect: str = "table"
    amount: int = 0


@dataclass(frozen=True)
class Deck:
    id: str
    colours: Mapping[str, Colour]
    cards: Mapping[str, Card]
    characters: tuple[Character, ...]
    order: tuple[str, ...] = field(default=())  # every copy, by name, as the file lists them

    def card(self, name: str) -> Card:
        return self.cards[name]

    def find(self, name: str) -> str | None:
        """The card called ``name`` (case and spaces aside), as the deck spells it."""
        wanted = " ".join(name.split()).casefold()
        return next((n for n in self.cards if n.casefold() == wanted), None)

    def colour_name(self, key: str) -> str:
        return self.colours[key].name


def _fail(what: str) -> IllegalAction:
    return IllegalAction(_("the deck file is wrong: {what}", what=what))


def _int(entry: Mapping[str, Any], key: str, lo: int, default: int | None = None) -> int:
    value = entry.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < lo:
        raise _fail(_("{card}: {key} must be a whole number of at least {lo}", card=_named(entry), key=key, lo=lo))
    return value


def _named(entry: Mapping[str, Any]) -> str:
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LONGEST:
        raise _fail(_("every card needs a name of 1 to {most} characters", most=NAME_LONGEST))
    return " ".join(name.split())


def _colours(raw: Any, known: Mapping[str, Colour], card: str) -> tuple[str, ...]:
    if raw == EVERY:
        return tuple(known)
    if not isinstance(raw, list) or not raw or any(c not in known for c in raw):
        raise _fail(_('{card}: colours must be colour keys from [colours] or "every"', card=card))
    return tuple(raw)


def _colour_table(raw: Any) -> dict[str, Colour]:
    if not isinstance(raw, dict) or not raw:
        raise _fail(_("it needs a [colours] table"))
    out = {}
    for key, entry in raw.items():
        size = _int(entry, "size", 1)
        accio = entry.get("accio")
        if not isinstance(accio, list) or len(accio) != size or any(not isinstance(a, int) for a in accio):
            raise _fail(_("colour {key}: accio needs one number per item of the set", key=key))
        out[key] = Colour(key, _named(entry), size, tuple(accio))
    return out


def _card(kind: str, entry: Mapping[str, Any], colours: Mapping[str, Colour]) -> Card:
    name = _named(entry)
    count, value = _int(entry, "count", 1, 1), _int(entry, "value", 0)
    if kind == POINT:
        return Card(name, POINT, value, count)
    if kind == ITEM:
        colour = entry.get("colour")
        if colour not in colours:
            raise _fail(_("{card}: colour must be a key from [colours]", card=name))
        return Card(name, ITEM, value, count, colour=str(colour))
    if kind == WILD:
        wild = _colours(entry.get("colours"), colours, name)
        if entry.get("colours") != EVERY and len(wild) != 2:
            raise _fail(_('{card}: a wild has two colours, or "every"', card=name))
        # RULEBOOK: the every-colour wild "can't be used as points".
        every = entry.get("colours") == EVERY
        return Card(name, WILD, 0 if every else value, count, colours=wild, every_colour=every)
    effect = entry.get("effect")
    if effect not in SPELL_EFFECTS:
        raise _fail(_("{card}: effect must be one of {effects}", card=name, effects=", ".join(SPELL_EFFECTS)))
    return Card(
        name,
        SPELL,
        value,
        count,
        colours=_colours(entry.get("colours"), colours, name) if effect == "accio" else (),
        effect=str(effect),
        amount=_int(entry, "amount", 1) if effect in ("collect", "draw") else 0,
        every=bool(entry.get("every", False)),
        one_player=bool(entry.get("one_player", False)),
    )


def _character(entry: Mapping[str, Any]) -> Character:
    name, effect = _named(entry), entry.get("effect", "table")
    if effect not in CHARACTER_EFFECTS:
        raise _fail(_("{card}: effect must be one of {effects}", card=name, effects=", ".join(CHARACTER_EFFECTS)))
    ability = entry.get("ability", "")
    amount = _int(entry, "amount", 1) if effect != "table" else 0
    return Character(name, str(ability)[:200], str(effect), amount)


_PARSED: dict[str, Deck] = {}
"""Every deck parsed in this process, by the digest of its text: a game's state names
its deck by that digest, so a replay after the file was edited is refused, never
played with other cards."""


def by_id(deck_id: str) -> Deck:
    if deck_id not in _PARSED and packaged().id != deck_id:
        raise IllegalAction(_("the deck file has changed since this game began: start a new game"))
    return _PARSED[deck_id]


def parse(text: str) -> Deck:
    """A deck from the text of a deck file; a mistake in it is refused with what is wrong."""
    deck_id = hashlib.sha256(text.encode()).hexdigest()[:16]
    if deck_id in _PARSED:
        return _PARSED[deck_id]
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(str(exc)) from None
    colours = _colour_table(raw.get("colours"))
    cards: dict[str, Card] = {}
    for kind in (POINT, ITEM, WILD, SPELL):
        for entry in raw.get(kind, []):
            card = _card(kind, entry, colours)
            if card.name in cards:
                raise _fail(_("{card} is listed twice", card=card.name))
            cards[card.name] = card
    characters = tuple(_character(e) for e in raw.get("character", []))
    if len(characters) != CHARACTERS:
        raise _fail(_("it needs exactly {count} character cards", count=CHARACTERS))
    order = tuple(name for name, card in cards.items() for _copy in range(card.count))
    deck = Deck(deck_id, colours, cards, characters, order)
    _PARSED[deck_id] = deck
    return deck


@cache
def packaged() -> Deck:
    """The deck file shipped in this package (read once a process)."""
    return parse(resources.files("engine.games").joinpath("deal_deck.toml").read_text(encoding="utf-8"))
