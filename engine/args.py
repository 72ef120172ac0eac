"""What a move accepts: its arguments declared once, parsed the same way for every game.

Pages send a move's arguments as a JSON object (``{"choice": "Ann"}``, ``{"dice": [3, 5]}``).
A move declares each key it takes with one of the specs below; the core parses them
before the handler runs, so a handler only ever sees valid, typed values, and a key it
does not declare is refused rather than silently ignored (an ignored key would be
logged and replayed forever).

Every refusal is an :class:`~engine.actions.IllegalAction` whose message is written for
the person at the table.  Numbers may come as JSON numbers or, as pages send what was
tapped, as text of ASCII digits only: ``str.isdigit`` would take ``"²"`` and crash ``int``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.actions import IllegalAction
from engine.dice import parse_roll
from engine.messages import _, listing, said

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
DIGITS = re.compile(r"[0-9]{1,6}")
"""A number typed on a page: ASCII digits only, and short enough never to be huge."""

Bound = int | Callable[[Any], int]
"""A limit fixed at declaration, or computed from the state (e.g. the number of players)."""


@dataclass(frozen=True)
class Where:
    """What a spec may consult besides the raw value: the state and the seat names."""

    state: Any
    seats: Sequence[str]


class Spec(Protocol[T_co]):
    """Turns one raw JSON value into a typed argument, or refuses it."""

    def parse(self, raw: Any, where: Where, what: str) -> T_co: ...


def _bound(bound: Bound, state: Any) -> int:
    return bound(state) if callable(bound) else bound


def whole_number(raw: Any, lo: int, hi: int, what: str) -> int:
    """A whole number in ``lo..hi``, given as a JSON number or as ASCII digits."""
    if isinstance(raw, str) and DIGITS.fullmatch(raw.strip()):
        raw = int(raw.strip())
    if not isinstance(raw, int) or isinstance(raw, bool) or not lo <= raw <= hi:
        raise IllegalAction(_("{what} must be a whole number from {lo} to {hi}", what=what, lo=lo, hi=hi))
    return raw


@dataclass(frozen=True)
class Number:
    """A whole number from ``lo`` to ``hi``."""

    lo: Bound
    hi: Bound

    def parse(self, raw: Any, where: Where, what: str) -> int:
        return whole_number(raw, _bound(self.lo, where.state), _bound(self.hi, where.state), what)


@dataclass(frozen=True)
class Flag:
    """Yes or no (a vote, a checkbox): JSON true or false only."""

    def parse(self, raw: Any, where: Where, what: str) -> bool:
        if not isinstance(raw, bool):
            raise IllegalAction(_("{what} must be true or false", what=what))
        return raw


@dataclass(frozen=True)
class Text:
    """A short printable text (a card's name), trimmed."""

    longest: int = 60

    def parse(self, raw: Any, where: Where, what: str) -> str:
        text = " ".join(raw.split()) if isinstance(raw, str) else ""
        if not text or len(text) > self.longest or not text.isprintable():
            raise IllegalAction(_("{what} must be 1 to {most} printable characters", what=what, most=self.longest))
        return text


@dataclass(frozen=True)
class Choice:
    """One of a list of options, matched without regard to case or spaces around it.

    ``options`` may depend on the state (the tokens still face down).  The option is
    returned as declared, so handlers compare against their own constants."""

    options: Sequence[str] | Callable[[Any], Sequence[str]]

    def parse(self, raw: Any, where: Where, what: str) -> str:
        options = self.options(where.state) if callable(self.options) else self.options
        text = str(raw).strip().casefold() if isinstance(raw, (str, int)) and not isinstance(raw, bool) else None
        for option in options:
            if option.casefold() == text:
                return option
        raise IllegalAction(_("choose one of: {options}", options=listing(options, "or")))


@dataclass(frozen=True)
class Seat:
    """A player, by seat number or by name (the page may send either)."""

    def parse(self, raw: Any, where: Where, what: str) -> int:
        if isinstance(raw, str):
            wanted = " ".join(raw.split()).casefold()
            for seat, name in enumerate(where.seats):
                if name.casefold() == wanted:
                    return seat
            raise IllegalAction(_("no player called {name!r}", name=raw[:40]))
        last = len(where.seats) - 1
        if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= last:
            raise IllegalAction(
                _("{what} must be a player's name or a seat number from 0 to {last}", what=what, last=last)
            )
        return raw


@dataclass(frozen=True)
class Seats:
    """Several distinct players, as a list of names or seat numbers."""

    def parse(self, raw: Any, where: Where, what: str) -> list[int]:
        if not isinstance(raw, list) or len(raw) > len(where.seats):
            raise IllegalAction(_("{what} must be a list of players", what=what))
        seats = [Seat().parse(item, where, what) for item in raw]
        if len(set(seats)) != len(seats):
            raise IllegalAction(_("{what} names a player twice", what=what))
        return seats


@dataclass(frozen=True)
class Dice:
    """A roll as read or typed: pips 1-6 (``count`` of them, if fixed), and with ``named``
    the face names of symbol dice taught to the box."""

    count: Bound | None = None
    named: bool = False

    def parse(self, raw: Any, where: Where, what: str) -> list[Any]:
        count = None if self.count is None else _bound(self.count, where.state)
        return parse_roll(raw, count=count, named=self.named)


@dataclass(frozen=True)
class Items(Generic[T]):
    """A list of up to ``longest`` items, each parsed by ``item`` (revealed cards)."""

    item: Callable[[Any], T]
    longest: int

    def parse(self, raw: Any, where: Where, what: str) -> list[T]:
        if not isinstance(raw, list) or len(raw) > self.longest:
            raise IllegalAction(_("{what} must be a list of up to {most}", what=what, most=self.longest))
        return [self.item(value) for value in raw]


@dataclass(frozen=True)
class Either:
    """The first of several specs that accepts the value (a player, or the word "no one")."""

    specs: tuple[Spec[Any], ...]

    def parse(self, raw: Any, where: Where, what: str) -> Any:
        refusals = []
        for spec in self.specs:
            try:
                return spec.parse(raw, where, what)
            except IllegalAction as exc:
                refusals.append(said(exc))
        raise IllegalAction(listing(refusals, "or"))


@dataclass(frozen=True)
class Opt(Generic[T]):
    """An argument that may be left out; then the handler sees ``default``."""

    spec: Spec[T]
    default: T | None = None


ArgSpec = Spec[Any] | Opt[Any]


def parse_args(specs: Mapping[str, ArgSpec], data: Mapping[str, Any], where: Where) -> dict[str, Any]:
    """Every declared argument parsed (missing optional ones at their default); an
    undeclared key or a missing required one is refused."""
    unknown = sorted(set(data) - set(specs))
    if unknown:
        keys = ", ".join(repr(k[:40]) for k in unknown)
        if not specs:
            raise IllegalAction(_("unexpected {keys}: this takes nothing", keys=keys))
        raise IllegalAction(_("unexpected {keys}: this takes {taken}", keys=keys, taken=", ".join(specs)))
    args: dict[str, Any] = {}
    for key, spec in specs.items():
        if isinstance(spec, Opt):
            args[key] = spec.spec.parse(data[key], where, key) if key in data else spec.default
        elif key in data:
            args[key] = spec.parse(data[key], where, key)
        else:
            raise IllegalAction(_("{key} is missing", key=key))

    return args


PICK: dict[str, ArgSpec] = {"choice": Opt(Seat()), "choices": Opt(Seats())}
"""Players picked on a page: ``choice`` when the prompt asks for one, ``choices`` for several."""


def picked(args: Mapping[str, Any]) -> list[int]:
    """The players of a :data:`PICK`, in the order given (``choices`` wins if both are sent)."""
    if args.get("choices") is not None:
        return list(args["choices"])
    return [] if args.get("choice") is None else [args["choice"]]
