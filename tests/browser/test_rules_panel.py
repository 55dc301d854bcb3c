"""Each game page explains its game: the rules in brief in the page's language (from
web/rules/<slug>.json, one summary per language) and every component the static data describes
(cards, buildings, laws, Keytown spaces, figures) with what it does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import create_game
from tests.support.servers import ROOT

RULES = ROOT / "web" / "rules"
LISTS = {"im-schutze-der-burg": "character_cards", "keythedral": "law_cards", "carcassonne": "figures"}


def test_every_game_has_a_summary_in_each_language() -> None:
    for slug in LISTS:
        summary = json.loads(Path(RULES / f"{slug}.json").read_text())
        assert set(summary) == {"en", "de", "fr", "es"}, slug
        assert len({len(lines) for lines in summary.values()}) == 1, f"{slug}: languages differ in length"


@pytest.mark.parametrize("lang", ["de", "es"])
def test_the_game_page_shows_the_rules_and_the_components_in_its_language(
    open_page: Callable[..., Page], lang: str
) -> None:
    page = open_page(locale=lang)
    for slug, listed in LISTS.items():
        create_game(page, slug, bots=1)
        rules = page.locator("#rules")
        rules.locator("summary").first.click()
        summary = json.loads(Path(RULES / f"{slug}.json").read_text())[lang]
        expect(rules.locator(".rules-summary li")).to_have_count(len(summary))
        expect(rules.locator(".rules-summary li").first).to_have_text(summary[0])
        components = rules.locator(f".components[data-list='{listed}']")
        components.locator("summary").click()
        assert components.locator("dt").count() >= 3
        assert all(text.strip() for text in components.locator("dd").all_inner_texts())
        assert not page.evaluate("[...window.__i18nMissing]")
