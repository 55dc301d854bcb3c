"""Static game data ("everything printed on the components") in a chosen language.

Each hosted game has a pure builder in ``domain/games/<game>/catalog.py`` that reads the engine's
own data tables, so the numbers a client shows are the numbers the rules use; the game's
``HostedGame`` manifest carries it and the registry answers it by slug. This module holds the base
types only and imports no game. Texts come from two
places only: the engine's data files where they already carry a text (a law card's English and
French text, a winter card's English text), and the game's ``i18n/<lang>.json`` for everything else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TypedDict

from domain.bots import BOT_LEVELS
from domain.engine import JSON, GameMeta
from domain.i18n import LANGUAGES, load_texts, platform_texts

Texts = Mapping[str, str]


@dataclass(frozen=True, slots=True)
class GameCatalog:
    """How to describe one game: its i18n package, texts from its data files, and its builder."""

    package: str
    build: Callable[[Texts], dict[str, JSON]]
    """The game-specific static data, with texts looked up in the given table."""
    data_texts: Callable[[str], dict[str, str]] = lambda lang: {}
    """Texts the engine's data files carry themselves, by key, for one language; they win over
    the i18n file (the data file is the source where it has the text)."""

    def texts(self, lang: str) -> dict[str, str]:
        """Every text of the game in ``lang``: prompts (``prompt.<decision kind>``), log templates
        (``event.<event type>``), option labels (``option_label.<name>``) and descriptions
        (``option.<name>``) and component texts."""
        return _texts(self, lang)


@cache
def _texts(catalog: GameCatalog, lang: str) -> dict[str, str]:
    return {**load_texts(catalog.package, lang), **catalog.data_texts(lang)}


class Translator:
    """Looks texts up in one language; a missing key is a bug the i18n tests catch, so it raises."""

    def __init__(self, texts: Texts) -> None:
        self._texts = texts

    def __call__(self, key: str) -> str:
        return self._texts[key]


class Description(TypedDict):
    """A game described in one language (``GET /v1/game-types/{slug}``'s texts and data)."""

    language: str
    name: str
    description: str
    options: dict[str, str]
    option_labels: dict[str, str]
    option_values: dict[str, list[str]]
    prompts: dict[str, str]
    log_templates: dict[str, str]
    data: dict[str, JSON]


def describe(catalog: GameCatalog, meta: GameMeta, lang: str) -> Description:
    """Names, option labels and descriptions, prompts, log templates and static data of a game
    in ``lang``."""
    return _describe(catalog, meta, lang)


@cache
def _describe(catalog: GameCatalog, meta: GameMeta, lang: str) -> Description:
    texts = catalog.texts(lang)
    common = platform_texts(lang)
    return {
        "language": lang,
        "name": texts["game.name"],
        "description": texts["game.description"],
        "options": {spec.name: texts[f"option.{spec.name}"] for spec in meta.options},
        "option_labels": {spec.name: texts[f"option_label.{spec.name}"] for spec in meta.options},
        # What each allowed value of an option is called, in the order of `allowed`.
        "option_values": {
            spec.name: [texts[f"option_value.{spec.name}.{value}"] for value in spec.allowed]
            for spec in meta.options
            if spec.allowed
        },
        "prompts": _prefixed(texts, "prompt."),
        "log_templates": {**_prefixed(common, "event."), **_prefixed(texts, "event.")},
        "data": catalog.build(texts),
    }


def _prefixed(texts: Texts, prefix: str) -> dict[str, str]:
    return {key.removeprefix(prefix): text for key, text in sorted(texts.items()) if key.startswith(prefix)}


def bot_levels(lang: str) -> list[dict[str, str]]:
    """The bots a host can seat in any game, weakest first, named and explained in ``lang``."""
    texts = platform_texts(lang)
    return [
        {"level": level, "name": texts[f"bot.{level}.name"], "description": texts[f"bot.{level}.description"]}
        for level in BOT_LEVELS
    ]


def prompt_text(catalog: GameCatalog | None, kind: str, lang: str, fallback: str) -> str:
    """The prompt of a decision kind in ``lang`` (the engine's own English prompt when unknown)."""
    if catalog is None:
        return fallback
    return catalog.texts(lang).get(f"prompt.{kind}", fallback)


__all__ = [
    "LANGUAGES",
    "Description",
    "GameCatalog",
    "Translator",
    "bot_levels",
    "describe",
    "prompt_text",
]
