"""Every piece explains itself: a tap or click on a card, building, tile, law, Keytown space, cube or
figure that is not a move shows its name, cost, effect and points from the game type's static data
in the page's language; "Details" mode makes every piece answer (moves included, without making
them) and puts each one on the Tab path, so keyboard users read the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.support.browser import create_game, start

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

STATIC = """
async ([slug, list, id]) => {
  const response = await fetch(`/v1/game-types/${slug}`, { headers: { "Accept-Language": "de" } });
  const data = (await response.json()).data;
  const found = Array.isArray(data[list]) ? data[list].find((entry) => entry.id === id) : data[list];
  return found;
}
"""


def static_entry(page: Page, slug: str, info: str) -> dict[str, Any]:
    list_name, _, piece_id = info.partition(":")
    entry: dict[str, Any] = page.evaluate(STATIC, [slug, list_name, piece_id])
    return entry


def expect_details(page: Page, slug: str, info: str, *texts: str) -> dict[str, Any]:
    """The panel shows the piece `info` ("list:id"): its German name and the given fields' texts."""
    entry = static_entry(page, slug, info)
    body = page.locator("#piece-info-body")
    expect(body).to_have_attribute("data-shown", info)
    expect(body.locator("h3")).to_have_text(entry.get("title") or entry["name"])
    for field in texts:
        expect(body).to_contain_text(entry[field])
    return entry


def test_a_tap_on_any_piece_shows_what_it_is_in_the_language_of_the_page(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(locale="de", **PHONE)

    create_game(page, "im-schutze-der-burg", bots=1)
    start(page)
    # A phone opens the castle zoomed in on its first tiles: the whole castle to reach the fourth.
    castle = page.locator("#board .isdb-drawing").filter(has=page.locator("svg.isdb-castle"))
    castle.locator(".zoom-fit").tap()
    building = page.locator("g.building[data-info]").nth(3)
    info = building.get_attribute("data-info") or ""
    building.tap()
    entry = expect_details(page, "im-schutze-der-burg", info)
    expect(page.locator("#piece-info-body")).to_contain_text("Siegpunkte")
    if entry.get("scoring_text"):
        expect(page.locator("#piece-info-body")).to_contain_text(entry["scoring_text"])
    page.locator("g.post[data-info]").first.tap()
    expect_details(page, "im-schutze-der-burg", page.locator("g.post").first.get_attribute("data-info") or "")

    create_game(page, "keythedral", bots=1)
    start(page)
    page.locator("[data-info^='keytown:']").first.tap()
    expect_details(page, "keythedral", "keytown:blacksmith", "text")
    cube = page.locator("[data-info^='cubes:']").first
    info = cube.get_attribute("data-info") or ""
    cube.tap()
    expect_details(page, "keythedral", info)
    expect(page.locator("#piece-info-body")).to_contain_text("Punkte")
    field = page.locator("g.field[data-info]").first
    info = field.get_attribute("data-info") or ""
    field.tap()
    expect_details(page, "keythedral", info)
    assert not page.evaluate("[...window.__i18nMissing]")


def test_details_mode_answers_for_moves_and_is_reached_with_the_keyboard(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(locale="de")
    create_game(page, "im-schutze-der-burg", bots=1)
    start(page)
    card = page.locator("#hand button.pick").first
    expect(card).to_have_attribute("aria-pressed", "false")
    page.locator("#inspect").click()
    expect(page.locator("#inspect")).to_have_attribute("aria-pressed", "true")
    card.click()  # in details mode a move shows its piece and is not made
    expect_details(page, "im-schutze-der-burg", card.get_attribute("data-info") or "", "effect")
    expect(card).to_have_attribute("aria-pressed", "false")

    create_game(page, "carcassonne", bots=1)
    start(page)
    page.locator("#inspect").press("Enter")  # the mode stays the person's choice: off on a new page
    expect(page.locator("#inspect")).to_have_attribute("aria-pressed", "true")
    start_tile = page.locator("g.placed[data-info]").first
    expect(start_tile).to_have_attribute("tabindex", "0")
    start_tile.focus()
    page.keyboard.press("Enter")
    expect_details(page, "carcassonne", start_tile.get_attribute("data-info") or "", "text")
    page.locator("#inspect").press("Enter")
    expect(start_tile).not_to_have_attribute("tabindex", "0")
