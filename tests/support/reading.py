"""Does a line read well?  The slips a table hears when a sentence is built from parts:
a plural after one ("1 names"), an article or word said twice ("the The", "Encounter:
the Encounter", "a an"), "a" before a vowel, a placeholder or a gap left over.

Each check is a pattern over the finished line in one language; the German plurals are
read from the German catalog itself (the forms its plural entries use for many), so a
translation that says "1 Karten" is found without a hand-kept word list.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from babel.messages.pofile import read_po

from web.language import TRANSLATIONS

NOT_NOUNS = "is|was|has|does|plus|minus|less|this|its|his|us|as|yes|shows|gives|goes|takes|stays|wins|loses"
"""Words after "1" that end in s but are no plural noun ("space 1 is taken").  Only the
figure is checked: "one" is as often a pronoun ("no one draws")."""
COUNTED = "name|roll|player|card|die|vote|space|token|policy|pinch|turn|seat|second|minute|Galleon|Location"
"""Things the games count: after a figure other than one, each takes its plural (unless
it names a kind of card: "the 17 policy cards")."""
GERMAN_ARTICLES = {"der", "die", "das", "den", "dem", "des"}
"""A German word said twice that can be right: "die Karten, die die Gruppe zeigt"."""

ENGLISH_SLIPS = {
    "a plural after one": re.compile(
        rf"(?<![\w.,+-])1 (?:[A-Z][a-z]+ )?(?!(?:{NOT_NOUNS})\b)(?:[A-Za-z]+s|dice|were|are)\b"
    ),
    "a singular after many": re.compile(rf"(?<![\w.,+-])(?:[02-9]|\d\d+) (?:{COUNTED})\b(?! cards?\b| tokens?\b)"),
    "a word said twice": re.compile(r"\b([^\W\d]+)\s+\1\b(?!-)", re.I),
    "a name repeated after its label": re.compile(r"\b(\w+): (?:the|a|an) \1\b", re.I),
    "two articles": re.compile(r"\b(?:a|an|the) (?:a|an|the)\b", re.I),
    "'a' before a vowel": re.compile(r"\ba (?!one\b|once\b|uni|use|usu|eu)[aeiouAEIOU]"),
    "'an' before a consonant": re.compile(r"\ban (?![aeiouAEIOU]|h)[A-Za-z]"),
}
GERMAN_SLIPS = {
    "ein Wort doppelt": re.compile(r"\b([^\W\d]+)\s+\1\b(?!-)", re.I),
    "ein Name nach seiner Überschrift wiederholt": re.compile(r"\b(\w+): (?:der|die|das|ein|eine) \1\b", re.I),
    "zwei Artikel": re.compile(r"\b(?:ein|eine|einen|der|die|das) (?:ein|eine|einen)\b", re.I),
}
EITHER_SLIPS = {
    "a placeholder left in": re.compile(r"[{}]"),
    "a space before punctuation": re.compile(r"\s[.,;:!?]"),
    "punctuation twice": re.compile(r"[,;:][.,;:]|\.[,;:]|(?<!\.)\.\.(?!\.)"),
    "a gap of two spaces": re.compile(r"\S {2,}\S"),
    "a line that begins with a gap": re.compile(r"^\s|^[,.;:]"),
}


@functools.cache
def german_plurals() -> frozenset[str]:
    """Words the German catalog uses after ``{count}`` for many but never for one."""
    many, one = set(), set()
    for path in sorted((TRANSLATIONS / "de" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as file:
            for entry in read_po(file, locale="de"):
                if entry.pluralizable and isinstance(entry.string, tuple) and len(entry.string) > 1:
                    one |= set(re.findall(r"\{count\} (\w+)", entry.string[0]))
                    many |= set(re.findall(r"\{count\} (\w+)", entry.string[1]))
    return frozenset(many - one)


def english_slips(line: str) -> list[str]:
    """What reads badly in an English line, each with the words that do."""
    return _found(line, {**ENGLISH_SLIPS, **EITHER_SLIPS})


def german_slips(line: str) -> list[str]:
    """What reads badly in a German line ("1 Karten" among them)."""
    found = [
        f"{what}: {hit!r}"
        for what, hit in _hits(line, {**GERMAN_SLIPS, **EITHER_SLIPS})
        if not (what == "ein Wort doppelt" and hit.split()[0] in GERMAN_ARTICLES and hit.islower())
    ]
    plurals = german_plurals()
    found += [
        f"Mehrzahl nach eins: {m.group()!r}" for m in re.finditer(r"(?<![\w.,+-])1 (\w+)", line) if m[1] in plurals
    ]
    return found


def _found(line: str, checks: dict[str, re.Pattern[str]]) -> list[str]:
    return [f"{what}: {hit!r}" for what, hit in _hits(line, checks)]


def _hits(line: str, checks: dict[str, re.Pattern[str]]) -> Iterable[tuple[str, str]]:
    for what, pattern in checks.items():
        for match in pattern.finditer(line):
            yield what, match.group()
