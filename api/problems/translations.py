"""A problem's ``detail`` in German, French or Spanish that names what the English one names.

The English sentence is written where the failure is raised, with the values at fault in it (the
game, the seat, the limit, the field, the seconds to wait). The other languages get the code's
sentence from ``domain/i18n/<lang>.json`` (``problem.<code>``) followed by those values, each with
the word that says what it is in that language ("Platz 3", "höchstens 64 Zeichen", "1–200",
"erhalten: 500", "erneut in 2 s", "bekannt: easy, hard").
The values are read from the English sentence, so every raise site is covered as it is written:
a quoted name, a number or id, a field path or snake_case name, a game status, a list of the
allowed or unknown names. Values stay as the API spells them (ids, enum values, field names).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from domain.i18n import platform_texts

# fmt: off
LABELS = frozenset({
    "game", "seat", "seats", "version", "decision_version", "option", "level", "phrase", "player",
    "endpoint", "host", "mode", "clock", "status", "type", "entry", "key",
})
"""Words that, just before a value, say what it is (``seat 3``): shown translated."""
UNITS = frozenset({
    "s", "seconds", "characters", "messages", "seats", "players", "games", "bytes", "levels",
    "requests", "decisions", "endpoints", "entries", "fields", "aliases", "tokens",
})
"""Words that, just after a number, say what it counts (``64 characters``): shown translated."""
# fmt: on
STATUSES = ("lobby", "in_progress", "finished", "aborted")
"""A game's status, a value after ``is`` or ``already``."""
STAND_INS = ("resigned", "forfeited", "timeout", "lapsed")
"""Why a bot plays a seat, a value after ``has``."""
LISTS = (
    ("known", re.compile(r"\bknown:\s*")),
    ("allowed", re.compile(r"\b(?:one of|list of)\s+")),
    ("unknown", re.compile(r"\bunknown(?: [\w()]+)*?(?: for (?P<type>[\w-]+))?:\s*")),
    ("waiting", re.compile(r"\bseat\(s\)\s+")),
)
"""A list of names after these words is one value: ``known: easy, normal, hard``."""
LIST_LABELS = frozenset(label for label, _ in LISTS)
LIST_END = re.compile(r";|, got |, not |\)| have | are |$")
TOKEN = re.compile(r"""'[^']*'|"[^"]*"|`[^`]*`|[^\s,;()]+""")
NAME = re.compile(r"[a-z][a-z0-9]*(?:[._/-][a-z0-9]+)*[._/][a-z0-9]+")
"""A field path or snake_case name (``body.options.rounds``, ``seed_mode``)."""
BOUNDS = {
    ("at", "most"): "at_most",
    ("at", "least"): "at_least",
    ("more", "than"): "more_than",
    ("retry", "after"): "retry",
    ("again", "in"): "retry",
    ("", "got"): "got",
    ("", "not"): "got",
}
"""Words before a value that say which bound or which wait it is (``at most 64``, ``retry after
2 s``), or that it is the value sent (``got 70``, ``not 3``): shown translated."""
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
DECODER = json.JSONDecoder()
POSSESSIVE = re.compile(r"(\w)'s\b")


@dataclass(frozen=True, slots=True)
class Specific:
    """One value of an English detail: the word before it and the word after it, if telling."""

    value: str
    label: str | None = None
    unit: str | None = None


def specifics(detail: str) -> list[Specific]:
    """The values an English detail names, in the order it names them, each once."""
    text = POSSESSIVE.sub(r"\1", detail)
    found: list[tuple[int, Specific]] = []
    taken: list[tuple[int, int]] = []
    for label, opening in LISTS:
        for match in opening.finditer(text):
            closing = LIST_END.search(text, match.end())
            stop = closing.start() if closing else len(text)
            listed = text[match.end() : stop].strip().rstrip(".")
            if listed and not any(a <= match.start() < b for a, b in taken):
                if match.groupdict().get("type"):  # ``unknown option(s) for keythedral: …``
                    found.append((match.start("type"), Specific(match.group("type"), "type")))
                found.append((match.end(), Specific(listed, label)))
                taken.append((match.start(), stop))
    for start in (i for i, c in enumerate(text) if c in "{["):
        if any(a <= start < b for a, b in taken):
            continue
        try:  # a JSON value quoted whole (a refused choice): one value
            _, stop = DECODER.raw_decode(text, start)
        except ValueError:
            continue
        found.append((start, Specific(text[start:stop])))
        taken.append((start, stop))
    tokens = [(m.group(), m.start()) for m in TOKEN.finditer(text)]
    skipped: set[int] = set()
    for i, (token, start) in enumerate(tokens):
        if i in skipped or any(a <= start < b for a, b in taken):
            continue
        value = token if token[0] in "'\"`" else token.rstrip(".:")
        if not value:
            continue
        before = tokens[i - 1][0].lower() if i else ""
        after = tokens[i + 1][0].rstrip(".:").lower() if i + 1 < len(tokens) else ""
        then = tokens[i + 2][0].rstrip(".:").lower() if i + 2 < len(tokens) else ""
        if value.lower() in LABELS and after and _is_value(after, value.lower()):
            continue  # ``decision_version 4``: the name says what the next value is
        subject = (i == 0 or before in LABELS) and _is_named_by(after, then)
        if not (subject or _is_value(value, before)):
            continue
        word = before if before in LABELS else ("status" if value in STATUSES else None)
        prior = tokens[i - 2][0].lower() if i > 1 else ""
        word = BOUNDS.get((prior, before)) or BOUNDS.get(("", before)) or word
        if after in ("and", "to") and _is_number(then) and _is_number(value):  # ``2 to 4``
            value, after = f"{value}–{then.rstrip('.:')}", _word(tokens, i + 3)
            skipped.add(i + 2)
        unit = after if after in UNITS and any(c.isdigit() for c in value) else None
        found.append((start, Specific(value, word, unit)))
    return list(dict.fromkeys(specific for _, specific in sorted(found, key=lambda placed: placed[0])))


def _word(tokens: list[tuple[str, int]], i: int) -> str:
    return tokens[i][0].rstrip(".:").lower() if i < len(tokens) else ""


def _is_number(token: str) -> bool:
    return NUMBER.fullmatch(token.rstrip(".:")) is not None


def _is_value(token: str, before: str) -> bool:
    """Whether a token is a value: quoted, a number or id, a field or snake_case name, or a
    status or stand-in reason where the sentence states one."""
    if token[0] in "'\"`":
        return True
    if any(c.isdigit() for c in token):
        return True
    if token in STATUSES:
        return before in ("is", "already")
    if token in STAND_INS:
        return before == "has"
    return NAME.fullmatch(token) is not None


def _is_named_by(after: str, then: str) -> bool:
    """Whether the words after a plain word make it the name at fault: the sentence's subject
    (``increment must be…``, ``Carcassonne needs…``) or a label's (``clock seconds is required``)."""
    return after in ("must", "needs") or (after, then) == ("is", "required")


def translated_detail(code: str, detail: str, lang: str) -> str:
    """The code's sentence in ``lang``, with the values of the English ``detail``."""
    texts = platform_texts(lang)
    sentence = texts[f"problem.{code}"]
    named = [_shown(specific, texts) for specific in specifics(detail)]
    if not named:
        return sentence
    ending = sentence[-1] if sentence[-1] in ".!?" else ""
    return f"{sentence.removesuffix(ending)} ({'; '.join(named)}){ending}"


def _shown(specific: Specific, texts: dict[str, str]) -> str:
    parts = [specific.value]
    if specific.label is not None:
        word = texts[f"problem.word.{specific.label}"]
        parts.insert(0, f"{word}:" if specific.label in LIST_LABELS or specific.label == "got" else word)
    if specific.unit is not None:
        parts.append(texts[f"problem.word.{specific.unit}"])
    return " ".join(parts)
