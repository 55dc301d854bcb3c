"""The guided first games' scripts (web/tutorials/<slug>.json, read by web/js/panels/tutorial.js):
one per hosted title, options the game accepts, a bot level it seats, steps for kinds of decision
the game has, and every text of the bubbles and the summary in each of the client's languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api.pages.web_client import web_root
from domain.bots.policies import BOT_LEVELS
from domain.i18n import LANGUAGES, load_texts
from domain.registry import HOSTED_GAMES, default_registry

REGISTRY = default_registry()
SLUGS = [game.slug for game in HOSTED_GAMES]


def folder() -> Path:
    root = web_root()
    assert root is not None
    return Path(root) / "tutorials"


def script(slug: str) -> Any:
    return json.loads((folder() / f"{slug}.json").read_text(encoding="utf-8"))


def in_every_language(texts: Any, where: str) -> None:
    assert isinstance(texts, dict) and sorted(texts) == sorted(LANGUAGES), where
    assert all(isinstance(text, str) and text.strip() for text in texts.values()), where


def test_every_hosted_title_has_a_script_and_nothing_else_does() -> None:
    assert sorted(path.stem for path in folder().glob("*.json")) == sorted(SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_script_creates_a_game_the_service_accepts(slug: str) -> None:
    data = script(slug)
    engine = REGISTRY.get(slug)
    engine.meta.resolve_options(data["options"])  # raises on an unknown option or value
    assert data["bot"] in BOT_LEVELS
    assert isinstance(data["seed"], str) and data["seed"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_step_is_for_a_decision_of_the_game_and_every_text_is_in_every_language(slug: str) -> None:
    data = script(slug)
    package = type(REGISTRY.get(slug)).__module__.rsplit(".", 1)[0]
    kinds = {key.removeprefix("prompt.") for key in load_texts(package, "en") if key.startswith("prompt.")}
    ids = [step["id"] for step in data["steps"]]
    assert len(ids) == len(set(ids)), ids
    for step in data["steps"]:
        assert step["kind"] in kinds, (step["id"], step["kind"], sorted(kinds))
        assert step["targets"] and all(isinstance(selector, str) for selector in step["targets"])
        in_every_language(step["text"], step["id"])
        for then in step.get("then", []):
            assert then["when"] and then["targets"]
            in_every_language(then["text"], f"{step['id']} / {then['when']}")
    in_every_language(data["free"], "free")
    in_every_language(data["waiting"], "waiting")
    assert data["free_targets"]
    lines = data["summary"]
    assert sorted(lines) == sorted(LANGUAGES)
    assert len({len(lines[lang]) for lang in LANGUAGES}) == 1 and lines["en"], lines


def test_the_guides_words_on_the_page_are_in_every_language() -> None:
    root = web_root()
    assert root is not None
    keys = {
        lang: {
            key
            for key in json.loads((Path(root) / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
            if key.startswith("tutorial.")
        }
        for lang in LANGUAGES
    }
    assert keys["en"] and all(keys[lang] == keys["en"] for lang in LANGUAGES), keys
