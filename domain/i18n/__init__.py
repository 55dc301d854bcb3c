"""Player-facing texts in the four languages the published games exist in.

Texts live in JSON files, one per language (``<package>/i18n/<lang>.json``, flat ``key -> text``),
so a translator edits data, not code. Keys name what they describe (``card.messenger.name``,
``prompt.pick_cards``, ``event.tile_placed``); a test checks that every language has every key.
Log-line templates use ``{field}`` placeholders that name fields of the event's ``data``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es")
DEFAULT_LANGUAGE = "en"


@cache
def load_texts(package: str, lang: str) -> dict[str, str]:
    """The texts of ``package`` (a Python package holding an ``i18n`` folder) in ``lang``."""
    if lang not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r}")
    path = resources.files(package).joinpath("i18n", f"{lang}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{package} i18n/{lang}.json must map keys to strings")
    return dict(data)


def platform_texts(lang: str) -> dict[str, str]:
    """Texts shared by every game (platform events such as ``seat_joined``)."""
    return load_texts("domain", lang)


def negotiate(requested: str | None, accept_language: str | None) -> str:
    """The language to answer in: ``?lang=`` first, then ``Accept-Language`` (RFC 9110 weights),
    else English. Region subtags are ignored (``de-AT`` → ``de``)."""
    if requested:
        primary = requested.strip().lower().split("-")[0]
        if primary in LANGUAGES:
            return primary
    if accept_language:
        ranked: list[tuple[float, int, str]] = []
        for position, part in enumerate(accept_language[:1024].split(",")[:32]):
            pieces = part.strip().split(";")
            tag = pieces[0].strip().lower()
            weight = 1.0
            for param in pieces[1:]:
                name, _, value = param.strip().partition("=")
                if name.strip() == "q":
                    try:
                        weight = float(value)
                    except ValueError:
                        weight = 0.0
            primary = tag.split("-")[0]
            if weight > 0 and primary in LANGUAGES:
                ranked.append((-weight, position, primary))
        if ranked:
            return min(ranked)[2]
    return DEFAULT_LANGUAGE
