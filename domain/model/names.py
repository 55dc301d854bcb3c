"""Seat names as other players will read them: normalised, and never invisible or misleading.

Names are shown to strangers (lobby, views, events, logs), so characters that change how the text
around them renders are refused rather than silently dropped: control characters (newlines forge
log and chat lines, escapes drive terminals), bidi overrides and isolates (reverse what follows),
zero-width and other format characters and blank "filler" letters (make two names look alike or a
name look empty), private-use and unassigned code points. What remains is NFKC-normalised (one
form for look-alike compositions and full-width letters) with runs of spaces collapsed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from domain.errors import DomainError, InvalidName

MAX_NAME_LENGTH = 64
MAX_COMBINING_RUN = 3
NAME_RULE = (
    f"1 to {MAX_NAME_LENGTH} characters after Unicode NFKC normalisation, with at least one visible "
    "character; control, format (bidi, zero-width), surrogate, private-use, unassigned, line and "
    "paragraph separator and blank-looking (Hangul filler, braille blank, grapheme joiner) characters "
    "are refused, "
    f"and at most {MAX_COMBINING_RUN} combining marks in a row. Runs of spaces become one."
)
"""What ``clean_seat_name`` accepts, for the schemas."""
"""Marks stacked on one letter beyond this only serve to overflow the lines around them."""

_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e", "\u034f", "\u17b4", "\u17b5"}
"""Hangul fillers, the blank braille pattern, the Mongolian vowel separator, the combining grapheme
joiner and the Khmer inherent vowels: they draw nothing, alone or inside a word."""


def clean_seat_name(name: str) -> str:
    """The name to store, or ``InvalidName`` saying which character was refused."""
    normalised = unicodedata.normalize("NFKC", name)
    refuse_invisible(normalised, "seat names", InvalidName)
    cleaned = " ".join(normalised.split())
    if not cleaned:
        raise InvalidName("a seat name needs at least one visible character")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise InvalidName(
            "seat names have at most {max_characters} characters", max_characters=MAX_NAME_LENGTH
        )
    return cleaned


def refuse_invisible(
    text: str,
    what: str,
    error: type[DomainError],
    allowed: Callable[[str, int], bool] = lambda text, index: False,
) -> None:
    """Raise ``error`` naming the first refused character of ``text`` (one ``allowed`` at its index
    passes), or the first run of more than ``MAX_COMBINING_RUN`` stacked marks."""
    run = 0
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if allowed(text, index):
            run = 0
            continue
        if category in _REFUSED_CATEGORIES or char in _BLANK_LETTERS:
            raise error(
                "{what} may not contain {character} ({unicode_name}): control, bidi, zero-width and "
                "blank characters are refused",
                what=what,
                character=f"U+{ord(char):04X}",
                unicode_name=unicodedata.name(char, "unnamed"),
            )
        run = run + 1 if category in ("Mn", "Me") else 0
        if run > MAX_COMBINING_RUN:
            raise error(
                "{what} may stack at most {at_most} marks on a letter", what=what, at_most=MAX_COMBINING_RUN
            )
