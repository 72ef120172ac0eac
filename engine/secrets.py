"""Secrets are marked where they are kept, and every view is derived from the marks.

A game's state is a tree of dataclasses.  A field made with :func:`secret` says whose it
is: each seat's own entry (``per_seat``: a Loyalty per seat, a hand per seat), one
seat's (``owner``: the Revelio holder's peeks), or nobody's (the cards still to be
dealt).  From the marks the core derives:

* the public view: every unmarked field, secrets left out (or replaced by a public
  ``summary``, e.g. who has voted but not how) until ``shown`` says the game has
  revealed them;
* a seat's secrets: exactly the marked values that belong to that seat;
* a redacted copy of the state, which is all a game's own presentation code is given,
  so that code cannot leak what it never sees.

``learned`` separates what a seat was *shown* (a Loyalty, a peek: it cannot be unseen,
see :mod:`engine.table`) from the seat's own input that it already knows (its vote).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

MARK = "familiar.secret"


@dataclass(frozen=True)
class Secret:
    """How one field is hidden; see the module docstring."""

    label: str
    per_seat: bool = False
    owner: Callable[[Any], int | None] | None = None
    shown: Callable[[Any], bool] | None = None
    summary: tuple[str, Callable[[Any], Any]] | None = None
    learned: bool = True


def secret(
    label: str,
    *,
    per_seat: bool = False,
    owner: Callable[[Any], int | None] | None = None,
    shown: Callable[[Any], bool] | None = None,
    summary: tuple[str, Callable[[Any], Any]] | None = None,
    learned: bool = True,
    default_factory: Callable[[], Any] | None = None,
    default: Any = None,
) -> Any:
    """A dataclass field holding a secret.  ``owner`` and ``shown`` are given the whole
    game state; ``summary`` is ``(public key, function of the value)``."""
    mark = Secret(label, per_seat, owner, shown, summary, learned)
    if default_factory is not None:
        return dataclasses.field(default_factory=default_factory, metadata={MARK: mark})
    return dataclasses.field(default=default, metadata={MARK: mark})


def _mark(f: dataclasses.Field[Any]) -> Secret | None:
    mark = f.metadata.get(MARK)
    return mark if isinstance(mark, Secret) else None


def plain(value: Any) -> Any:
    """A JSON-able copy: dataclasses and tuples become dicts and lists, keys become text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [plain(v) for v in items]
    return value


def _secrets(node: Any) -> Iterator[tuple[Any, dataclasses.Field[Any], Secret]]:
    """Every marked field below ``node``: (the dataclass holding it, the field, its mark)."""
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return
    for f in dataclasses.fields(node):
        mark = _mark(f)
        if mark is not None:
            yield node, f, mark
        else:
            yield from _secrets(getattr(node, f.name))


def public(root: Any) -> dict[str, Any]:
    """The public view of a state: what anyone at the table may see."""
    view: dict[str, Any] = _public(root, root)
    return view


def _public(node: Any, root: Any) -> Any:
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return plain(node)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(node):
        value, mark = getattr(node, f.name), _mark(f)
        if mark is None:
            out[f.name] = _public(value, root)
            continue
        if mark.shown is not None and mark.shown(root):
            out[f.name] = plain(value)
        if mark.summary is not None:
            key, summarise = mark.summary
            out[key] = plain(summarise(value))
    return out


def _belongs(value: Any, mark: Secret, root: Any, seat: int) -> tuple[bool, Any]:
    """Whether ``seat`` holds (part of) this secret, and that part."""
    if mark.per_seat:
        if isinstance(value, Mapping):
            return (seat in value, value.get(seat))
        return (0 <= seat < len(value), value[seat] if 0 <= seat < len(value) else None)
    if mark.owner is not None and mark.owner(root) == seat:
        return True, value
    return False, None


def of_seat(root: Any, seat: int, learned_only: bool = False) -> dict[str, Any]:
    """The secrets ``seat`` holds, by field name (the seat's own slice of per-seat ones)."""
    out: dict[str, Any] = {}
    for node, f, mark in _secrets(root):
        if learned_only and not mark.learned:
            continue
        holds, part = _belongs(getattr(node, f.name), mark, root, seat)
        if holds:
            out[f.name] = plain(part)
    return out


def labels(root: Any) -> dict[str, str]:
    """What each secret field is called when the host is warned about it."""
    return {f.name: mark.label for _, f, mark in _secrets(root)}


def redacted(root: Any) -> Any:
    """A copy of the state with every secret not yet shown emptied (to its type's
    empty value), for a game's own presentation code."""
    twin = copy.deepcopy(root)
    for node, f, mark in list(_secrets(twin)):
        if mark.shown is not None and mark.shown(root):
            continue
        value = getattr(node, f.name)
        setattr(node, f.name, type(value)() if isinstance(value, (list, dict, set, tuple, str)) else None)
    return twin


def marked(root: Any) -> Iterator[tuple[Any, dataclasses.Field[Any], Secret]]:
    """Every marked field below ``root`` with the dataclass holding it: what an audit
    changes to prove that nobody's view depends on a secret it does not hold."""
    return _secrets(root)
