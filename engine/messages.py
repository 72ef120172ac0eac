"""Words for people, made by the rules and translated at the edge.

Rules code never builds a sentence for a language: it writes ``_("{name} is the Leader",
name=seat)`` and the box's edge (the narrator, the pages) says it in the table's
language from a gettext catalog (``web/translations/<lang>/LC_MESSAGES/<domain>.po``).
Each game keeps its words in a domain named after it, so its catalog travels with it::

    _, _n = words("coins")
    Say(_("{name} flips the coin.", name=turn.seats[seat]))
    Notice(_n("one flip left", "{count} flips left", left))

A :class:`Msg` *is* its English text (a ``str``), so logs, tests, JSON and the English
pages read it as they are, and a choice's option answers with its English value
whatever language the button shows.  It also keeps its message id, domain and
parameters, which is all the edge needs to say it in another language.  Parameters may be
messages themselves (a role's name inside a sentence); plain strings (seat names, card
names) are never translated.  Building text with ``+`` or f-strings loses the message:
the catalog test finds such lines, because they have no translation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

CORE = "familiar"
"""The domain of the table core's own words (refusals, timers, the box's warnings)."""
LANGUAGES = {"en": "English", "de": "Deutsch"}
"""The languages the box speaks, by code, each named in its own words; English is the
language messages are written in."""

Param = str | int | float


class Catalog(Protocol):
    """What the edge translates with: a gettext translations object for one domain."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


class Msg(str):
    """A message: its English text, with what it is made of for other languages.

    ``plural`` and ``count`` make a message that picks its form by ``count`` (passed to
    the format as ``count`` too).  ``context`` tells apart one English text that other
    languages say in two ways (a role and a party both called "Death Eater")."""

    msgid: str
    domain: str
    params: dict[str, Param]
    plural: str | None
    number: int | None
    context: str | None

    def __new__(
        cls,
        msgid: str,
        domain: str = CORE,
        params: Mapping[str, Param] | None = None,
        plural: str | None = None,
        count: int | None = None,
        context: str | None = None,
    ) -> Msg:
        values = dict(params or {})
        if count is not None:
            values.setdefault("count", count)
        template = plural if plural is not None and count is not None and count != 1 else msgid
        self = super().__new__(cls, template.format(**values))
        self.msgid, self.domain, self.params = msgid, domain, values
        self.plural, self.number, self.context = plural, count, context
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # deepcopy and pickle rebuild from the parts, not from the English text
        return (Msg, (self.msgid, self.domain, self.params, self.plural, self.number, self.context))

    def __repr__(self) -> str:
        return f"Msg({str(self)!r})"

    def translated(self, catalogs: Callable[[str], Catalog]) -> str:
        """This message in the language of ``catalogs`` (domain -> catalog); parameters
        that are messages are translated too, plain ones kept as they are."""
        catalog = catalogs(self.domain)
        if self.plural is not None and self.number is not None:
            template = catalog.ngettext(self.msgid, self.plural, self.number)
        elif self.context is not None:
            template = catalog.pgettext(self.context, self.msgid)
        else:
            template = catalog.gettext(self.msgid)
        values = {k: v.translated(catalogs) if isinstance(v, Msg) else v for k, v in self.params.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            # a catalog entry with a placeholder the message lacks: say it in English
            # rather than fail (the catalog test refuses such entries)
            return self.msgid.format(**values) if self.plural is None else str(self)


Maker = Callable[..., Msg]
"""A domain's ``_`` or ``_n``: text (and its plural) with parameters, to a message."""


def words(domain: str) -> tuple[Maker, Maker]:
    """The two message makers of one domain: ``_(text, **params)`` and
    ``_n(singular, plural, count, **params)``, the names the catalog extraction knows."""

    def one(msgid: str, /, **params: Param) -> Msg:
        return Msg(msgid, domain, params)

    def many(singular: str, plural: str, count: int, /, **params: Param) -> Msg:
        return Msg(singular, domain, params, plural=plural, count=count)

    return one, many


def words_in_context(domain: str) -> Maker:
    """The message maker ``_p(context, text, **params)`` of one domain, for an English
    text that needs two translations (the extraction knows ``_p`` too)."""

    def particular(context: str, msgid: str, /, **params: Param) -> Msg:
        return Msg(msgid, domain, params, context=context)

    return particular


_, _n = words(CORE)


def listing(items: Iterable[Param], last: str = "and") -> Msg | str:
    """Items as a sentence's list, "Ann, Ben and Cy" ("... or Cy" with ``last="or"``),
    in the table's language: each join is a message, so German says "und" / "oder"."""
    parts = list(items)
    if not parts:
        return ""
    said: Param = parts[0]
    for index, item in enumerate(parts[1:], start=2):
        if index < len(parts):
            said = _("{items}, {item}", items=said, item=item)
        elif last == "or":
            said = _("{items} or {item}", items=said, item=item)
        else:
            said = _("{items} and {item}", items=said, item=item)
    return said if isinstance(said, Msg) else str(said)


def said(error: BaseException) -> str:
    """An exception's message as it was raised: a message stays a message (``str(error)``
    would make it plain English), so a refusal can be translated where it is shown."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, str) else str(error)
