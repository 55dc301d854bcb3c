"""axe-core finds no serious or critical accessibility violation on the lobby, on each game's
screen (in play, with its rules panel open), on the replay viewer and on the tournament pages, on a
desktop and on a phone; and on a guided first game in German on a phone, with its hint bubble and
with its summary."""

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
    # The replay viewer, on the seat's own game so far (the last one above, still in progress).
    page.locator("#replay-so-far").press("Enter")
    expect(page.locator("#replay-controls")).to_be_visible()
    expect(page.locator("#app[data-drawn]")).to_have_count(1)
    found["replay"] = serious_violations(page)
    assert not any(found.values()), {screen: v for screen, v in found.items() if v}


@pytest.mark.parametrize("size", SIZES)
def test_no_serious_violation_on_the_tournament_pages(open_page: Callable[..., Page], size: str) -> None:
    """The tournaments' lobby, the new tournament's form, and a tournament's page while players
    register (the host's controls) and once it runs (pairings, standings, "your game is ready")."""
    page = open_page(**SIZES[size], locale="de")
    page.goto("/play/#/tournaments")
    expect(page.locator("#tournament-list[data-loaded]")).to_be_attached()
    found = {"tournaments": serious_violations(page)}
    page.locator("#new-tournament-link").click()
    expect(page.locator("#tournament-form")).to_be_visible()
    found["new tournament"] = serious_violations(page)
    page.select_option("#game-type", "duel")
    page.locator("#opt-rounds").select_option("1")
    page.fill("#create-name", "Ann")
    page.locator("#tournament-form button[type=submit]").click()
    expect(page.locator("#registered")).to_contain_text("Ann")
    found["tournament, registering"] = serious_violations(page)
    tournament_id = page.url.rsplit("/", 1)[-1]
    bea = page.request.post("/v1/players", data={"name": "Bea"}).json()["token"]
    joined = page.request.post(
        f"/v1/tournaments/{tournament_id}/registrations", data={}, headers={"Authorization": f"Bearer {bea}"}
    )
    assert joined.ok, joined.text()
    expect(page.locator("#start-tournament")).to_be_enabled()
    page.locator("#start-tournament").click()
    expect(page.locator("#your-game")).to_be_visible()
    expect(page.locator("#rounds li[data-game]")).to_have_count(1)
    found["tournament, running"] = serious_violations(page)
    assert not any(found.values()), {screen: v for screen, v in found.items() if v}


def test_no_serious_violation_on_a_guided_game_with_its_hint_and_its_summary(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(**SIZES["phone"], locale="de")
    page.goto("/play/")
    page.locator("#learn button[data-slug='carcassonne']").click()
    expect(page.locator("#tutorial")).to_have_attribute("data-hint", "tile-1")
    expect(page.locator(".tutorial-target")).to_have_count(1)
    found = {"hint": serious_violations(page)}
    page.locator("#tutorial .tutorial-skip").click()
    expect(page.locator("#tutorial-summary")).to_be_visible()
    found["summary"] = serious_violations(page)
    assert not any(found.values()), {screen: v for screen, v in found.items() if v}
