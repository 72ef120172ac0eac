"""The table's language at the edge: engine messages said in English or German.

The rules make :class:`engine.messages.Msg` values; this module turns them into the
words of a language with the gettext catalogs in ``web/translations`` (one domain per
game, ``familiar`` for the core, ``messages`` for the pages), read with Babel.  The
narrator and the pages both translate here, so a line is said and shown alike.

Catalogs are compiled into the built package (``setup.py``) and in a checkout by
``make catalogs``; a catalog whose ``.mo`` is missing or older than its ``.po`` (a
checkout edited since) is read from the ``.po`` instead, so the box never speaks from a
stale catalog.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from engine.messages import LANGUAGES, Msg

TRANSLATIONS = Path(__file__).with_name("translations")
SOURCE = "en"
"""The language the messages are written in: it needs no catalog."""


@functools.cache
def catalog(language: str, domain: str) -> NullTranslations:
    """One domain's translations for ``language``; English, and a missing catalog, give
    the message ids themselves."""
    if language == SOURCE or language not in LANGUAGES:
        return NullTranslations()
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    po, mo = folder / f"{domain}.po", folder / f"{domain}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as file:
            return Translations(file, domain=domain)
    if not po.exists():
        return NullTranslations()
    with po.open("rb") as file:
        compiled = io.BytesIO()
        write_mo(compiled, read_po(file, locale=language, domain=domain))
    compiled.seek(0)
    return Translations(compiled, domain=domain)


@dataclass(frozen=True)
class Language:
    """The words of one language, for every message the box says or shows."""

    code: str

    def __post_init__(self) -> None:
        if self.code not in LANGUAGES:
            raise ValueError(f"the box speaks {', '.join(LANGUAGES)}, not {self.code!r}")

    def text(self, said: str) -> str:
        """One line: a message in this language; any other text (a seat's name) as it is."""
        if isinstance(said, Msg):
            return said.translated(lambda domain: catalog(self.code, domain))
        return said

    def deep(self, value: Any) -> Any:
        """A view or prompt as JSON-ready data with every message in it translated;
        dictionary keys are kept (pages and clients address data by them)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {key: self.deep(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.deep(item) for item in value]
        return value

    def labels(self, labels: Mapping[str, str]) -> dict[str, str]:
        """A game's view labels (key -> message) in this language, for the pages."""
        return {key: self.text(label) for key, label in labels.items()}


ENGLISH = Language(SOURCE)
SCRIPTS = Path(__file__).with_name("static")
JS_KEYWORDS: dict[str, tuple[int, ...] | None] = {"t": None}
"""How the pages' scripts mark their words: ``t("...")`` (the catalogs extract the same)."""
PAGES = "messages"
"""The pages' own domain (Flask-Babel's default): templates, scripts and web/ refusals."""


@functools.cache
def _script_ids() -> tuple[str, ...]:
    """Every text the pages' scripts show, as marked ``t("...")`` in them."""
    found = []
    for path in sorted(SCRIPTS.glob("*.js")):
        found += [message for _, message, _, _ in extract_from_file("javascript", str(path), keywords=JS_KEYWORDS)]
    return tuple(dict.fromkeys(found))


def script_words(language: str) -> dict[str, str]:
    """The scripts' texts in ``language`` (English: none needed), carried by each page."""
    if language == SOURCE:
        return {}
    pages = catalog(language, PAGES)
    return {text: pages.gettext(text) for text in _script_ids()}
