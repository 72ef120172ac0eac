"""The message catalogs: which source files speak in which domain, and keeping the
``.po`` files in step with them (Babel's extract / update / compile, as ``pybabel`` does).

    python -m web.catalogs update [DOMAIN...]  # after changing words: new ids into the .po files
    python -m web.catalogs compile   # at install: the .mo files the box reads
    python -m web.catalogs check     # what is untranslated, fuzzy or malformed

A game's words are in its own domain, named after the game, drawn from the modules
``engine/games/<name>*.py``; the core's (``familiar``) from the engine's own modules and
the box's; the pages' (``messages``, Flask-Babel's default) from ``web/``.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from web.language import JS_KEYWORDS, LANGUAGES, SOURCE, TRANSLATIONS

ROOT = TRANSLATIONS.parent.parent
STABLE = datetime(2026, 12, 1, tzinfo=UTC)
Keywords = dict[str, tuple[int | tuple[int, str], ...] | None]
"""Babel's keyword specs: the message's argument positions, ``(n, "c")`` its context."""
PYTHON_KEYWORDS: Keywords = {"_": None, "_n": (1, 2), "_p": ((1, "c"), 2), "gettext": None, "ngettext": (1, 2)}
PAGES = "messages"
CORE = "familiar"


@dataclass(frozen=True)
class Source:
    """A set of files extracted with one method."""

    pattern: str
    method: str
    keywords: Keywords


def domains() -> dict[str, list[Source]]:
    """Every domain and its sources: the pages, the core, and one per game module family."""
    games = sorted({p.stem.split("_")[0] for p in (ROOT / "engine/games").glob("[a-z]*.py")})
    table = {
        PAGES: [
            Source("web/templates/*.html", "jinja2", {"_": None, "gettext": None, "ngettext": (1, 2)}),
            Source("web/static/*.js", "javascript", JS_KEYWORDS),
            Source("web/*.py", "python", PYTHON_KEYWORDS),
        ],
        CORE: [Source("engine/*.py", "python", PYTHON_KEYWORDS), Source("device/*.py", "python", PYTHON_KEYWORDS)],
    }
    for game in games:
        table[game] = [Source(f"engine/games/{game}*.py", "python", PYTHON_KEYWORDS)]
    return table


def _files(source: Source) -> Iterator[Path]:
    yield from sorted(ROOT.glob(source.pattern))


HEADER = {
    "project": "familiar",
    "version": "1",
    "copyright_holder": "the familiar authors",
    "msgid_bugs_address": "",
    "last_translator": "the familiar authors",
    "language_team": "familiar",
    "creation_date": STABLE,
    "revision_date": STABLE,
    "fuzzy": False,
}
"""Fixed header fields, so that updating a catalog changes only its messages."""


def template(domain: str) -> Catalog:
    """The domain's messages as they are in the source now (a ``.pot`` in memory)."""
    pot = Catalog(domain=domain, **HEADER)
    for source in domains()[domain]:
        method = "jinja2.ext:babel_extract" if source.method == "jinja2" else source.method
        for path in _files(source):
            for line, message, comments, context in extract_from_file(
                method, str(path), keywords=source.keywords, options={"trimmed": "true"}
            ):
                place = (str(path.relative_to(ROOT)), line)
                pot.add(message, locations=[place], auto_comments=comments, context=context)
    return pot


def po_path(language: str, domain: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po"


def read(language: str, domain: str) -> Catalog:
    path = po_path(language, domain)
    if not path.exists():
        return Catalog(locale=language, domain=domain, **HEADER)
    with path.open("rb") as file:
        return read_po(file, locale=language, domain=domain)


def update(only: list[str] | None = None) -> None:
    """Bring every language's ``.po`` up to the source (new ids empty, gone ids dropped),
    for every domain or ``only`` those named."""
    for domain in only or domains():
        pot = template(domain)
        for language in set(LANGUAGES) - {SOURCE}:
            po = read(language, domain)
            po.update(pot, no_fuzzy_matching=True, update_header_comment=False)
            po.obsolete.clear()  # git keeps history; an obsolete entry only confuses a translator
            path = po_path(language, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as file:
                write_po(file, po, width=100, include_lineno=False)


def compile_all() -> list[Path]:
    """Write every ``.mo`` the box reads; returns what was written."""
    written = []
    for path in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/*.po")):
        with path.open("rb") as file:
            po = read_po(file, locale=path.parent.parent.name, domain=path.stem)
        with path.with_suffix(".mo").open("wb") as file:
            write_mo(file, po)
        written.append(path.with_suffix(".mo"))
    return written


def fields(text: str) -> set[str]:
    """The ``{name}`` fields a message formats, which its translation must keep."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(language: str, domain: str) -> list[str]:
    """What is wrong with one catalog against the source: missing, untranslated or
    fuzzy messages, and translations that drop or invent a ``{field}``."""
    po, found = read(language, domain), []
    for message in template(domain):
        if not message.id:
            continue
        mine = po.get(message.id, message.context)
        where = f"{domain}.po: {_shown(message)}"
        if mine is None or not _translated(mine):
            found.append(f"{where}: no {language} translation")
        elif mine.fuzzy:
            found.append(f"{where}: marked fuzzy")
        else:
            found.extend(f"{where}: {p}" for p in _field_problems(message, mine))
    return found


def _shown(message: Message) -> str:
    text = message.id[0] if isinstance(message.id, tuple) else message.id
    return re.sub(r"\s+", " ", text)[:70]


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(strings)


def _field_problems(source: Message, mine: Message) -> list[str]:
    ids = source.id if isinstance(source.id, tuple) else (source.id,)
    wanted = set().union(*(fields(i) for i in ids)) | ({"count"} if isinstance(source.id, tuple) else set())
    strings = mine.string if isinstance(mine.string, tuple) else (mine.string,)
    return [f"unknown field in {s!r}" for s in strings if not fields(s) <= wanted]


def main(argv: list[str]) -> int:
    """``update``, ``compile`` or ``check`` (the default); 2 for a command or domain it
    does not know, before anything is read or written."""
    command, named = (argv[0], argv[1:]) if argv else ("check", [])
    known = domains()
    unknown = [d for d in named if d not in known]
    if command not in ("update", "compile", "check") or unknown or (command == "compile" and named):
        wrong = f"unknown domain {unknown[0][:40]!r} (known: {', '.join(known)})" if unknown else __doc__
        print(wrong, file=sys.stderr)
        return 2
    if command == "update":
        update(named)
    elif command == "compile":
        for path in compile_all():
            print(path.relative_to(ROOT))
    else:
        found = [p for lang in set(LANGUAGES) - {SOURCE} for d in named or known for p in problems(lang, d)]
        print("\n".join(found) or "every message is translated")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
