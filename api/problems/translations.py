"""A problem's ``detail`` in German, French or Spanish that names what the English one names.

A detail is a sentence with named values (``domain.errors.Detail``): English fills the sentence
in; the other languages take the code's sentence from ``domain/i18n/<lang>.json``
(``problem.<code>``) followed by the same values, each with the words its field has in
``domain.errors.FIELDS``, in that language ("Platz 3", "höchstens 64 Zeichen", "1–200",
"erhalten: 500", "erneut in 2 s", "bekannt: easy, hard"). Values stay as the API spells them (ids,
enum values, field names)."""

from __future__ import annotations

from domain.errors import FIELDS, Detail, Field, Shown
from domain.i18n import platform_texts

WITH_COLON = frozenset({"known", "allowed", "unknown", "waiting", "got"})
"""Labels followed by a colon: a list (``bekannt: easy, hard``) or the value sent (``erhalten: 500``)."""


def translated_detail(code: str, detail: Detail, lang: str) -> str:
    """The code's sentence in ``lang``, with the values of ``detail``."""
    texts = platform_texts(lang)
    sentence = texts[f"problem.{code}"]
    shown = [value for value in detail.shown() if FIELDS.get(value.field, Field()).in_translation]
    named = list(dict.fromkeys(_shown(value, texts) for value in shown))
    if not named:
        return sentence
    ending = sentence[-1] if sentence[-1] in ".!?" else ""
    return f"{sentence.removesuffix(ending)} ({'; '.join(named)}){ending}"


def _shown(value: Shown, texts: dict[str, str]) -> str:
    words = FIELDS.get(value.field, Field())
    parts = [value.text]
    if words.label is not None:
        word = texts[f"problem.word.{words.label}"]
        parts.insert(0, f"{word}:" if words.label in WITH_COLON else word)
    if words.unit is not None:
        parts.append(texts[f"problem.word.{words.unit}"])
    return " ".join(parts)
