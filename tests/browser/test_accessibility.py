"""axe-core finds no serious or critical accessibility violation on the lobby and on each game's
screen (in play, with its rules panel open), on a desktop and on a phone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.axe import serious_violations
from tests.support.browser import create_game, start

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_violation_on_the_lobby_and_each_game(open_page: Callable[..., Page], size: str) -> None:
    page = open_page(**SIZES[size])
    page.goto("/play/")
    expect(page.locator("#play-now")).to_be_visible()
    found = {"lobby": serious_violations(page)}
    page.goto("/play/#/new")
    expect(page.locator("#create-form")).to_be_visible()
    found["new game"] = serious_violations(page)
    for slug in ("im-schutze-der-burg", "keythedral", "carcassonne"):
        create_game(page, slug, bots=1)
        start(page)
        expect(page.locator("#board svg").first).to_be_visible()
        page.wait_for_function("!document.body.dataset.busy")
        page.locator("#rules > summary").click()
        found[slug] = serious_violations(page)
    assert not any(found.values()), {screen: v for screen, v in found.items() if v}
