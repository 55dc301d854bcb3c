"""The game page changes only what an event changed: what the person is in the middle of (cards
half picked, a tile placed but not confirmed, an open list of moves, a piece's details, the focus, a
zoomed board) is the same node on the page before and after another person's move arrives."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import click_board_target, create_game, join_game, start

REMEMBER = """
(names) => {
  window.__kept = Object.fromEntries(names.map((selector) => [selector, document.querySelector(selector)]));
  window.__drawn = Number(document.getElementById("app").dataset.drawn);
}
"""
SAME_NODES = """
() => Object.entries(window.__kept)
  .filter(([selector, node]) => !node || !node.isConnected || document.querySelector(selector) !== node)
  .map(([selector]) => selector)
"""
DRAWN_AGAIN = "() => Number(document.getElementById('app').dataset.drawn) > window.__drawn"


def two_people(open_page: Callable[..., Page], slug: str) -> tuple[Page, Page]:
    ann = open_page()
    game_id = create_game(ann, slug, bots=0, name="Ann")
    bob = open_page()
    join_game(bob, game_id, "Bob")
    expect(ann.locator("#seats")).to_contain_text("Bob")
    start(ann)
    return ann, bob


def test_a_half_made_pick_an_open_panel_and_the_details_survive_the_other_seat_sealing(
    open_page: Callable[..., Page],
) -> None:
    ann, bob = two_people(open_page, "im-schutze-der-burg")
    expect(ann.locator("#seal-pick")).to_be_visible()
    ann.locator("#actions details.all-moves summary").click()
    building = ann.locator("g.building[data-info]").nth(2)
    building.click()
    shown = building.get_attribute("data-info") or ""
    expect(ann.locator("#piece-info-body")).to_have_attribute("data-shown", shown)
    card = ann.locator("#hand button.pick").first
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(card).to_be_focused()
    kept = [
        "#hand button.pick[aria-pressed=true]",
        "#actions details.all-moves",
        "#piece-info-body h3",
        "#board svg",
    ]
    ann.evaluate(REMEMBER, kept)

    for other in bob.locator("#hand button.pick").all():
        if bob.locator("#seal-pick").is_enabled():
            break
        other.click()
    bob.locator("#seal-pick").click()

    expect(ann.locator(".isdb-players tr[data-seat='1'] td.picks .sealed")).to_be_visible()
    ann.wait_for_function(DRAWN_AGAIN)
    assert ann.evaluate(SAME_NODES) == []
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(card).to_be_focused()
    expect(ann.locator("#actions details.all-moves")).to_have_attribute("open", "")
    expect(ann.locator("#piece-info-body")).to_have_attribute("data-shown", shown)


def test_a_tile_placed_but_not_confirmed_and_the_zoom_survive_the_other_seat_resigning(
    open_page: Callable[..., Page],
) -> None:
    ann, bob = two_people(open_page, "carcassonne")
    expect(bob.locator("#turn")).not_to_contain_text("Waiting for players")
    mover, other = (ann, bob) if ann.locator("#actions").is_visible() else (bob, ann)
    mover.locator("#board .zoom-in").first.click()
    assert click_board_target(mover)
    expect(mover.locator("#placement")).to_be_visible()
    mover.locator("#confirm-place").focus()
    view = mover.locator("#board svg.carc-board").get_attribute("viewBox")
    mover.evaluate(REMEMBER, ["#placement", "#confirm-place", "#board svg.carc-board", "#board g.preview"])

    other.click("#resign")
    other.click("#resign-confirm")

    other_seat = mover.locator("#seats li .stand-in")
    expect(other_seat).to_be_visible()
    mover.wait_for_function(DRAWN_AGAIN)
    assert mover.evaluate(SAME_NODES) == []
    expect(mover.locator("#confirm-place")).to_be_focused()
    expect(mover.locator("#board svg.carc-board")).to_have_attribute("viewBox", view or "")
