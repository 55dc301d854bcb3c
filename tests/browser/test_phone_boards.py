"""Boards on a phone (390×844, touch): every target is at least 44 px where it is tapped (the
board opens zoomed in on the moves when the whole would be too small), Keythedral's map pinches
and pans like Carcassonne's, and Im Schutze der Burg's round track shows every round of the game."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import PINCH, TARGETS_IN_VIEW, after_two_frames, click_board_target, create_game

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


BOT_TURN_MS = 30_000
"""A bot may move first: its first search starts the thinking pool, slow on a busy machine."""


def view_width(page: Page, selector: str) -> float:
    return float(page.locator(selector).get_attribute("viewBox").split()[2])  # type: ignore[union-attr]


def test_keythedral_targets_are_44px_and_the_map_pinches(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    create_game(page, "keythedral", bots=1)
    page.locator("#start").tap()
    expect(page.locator("#board svg.kt-board .target").first).to_be_attached(timeout=BOT_TURN_MS)
    after_two_frames(page)  # the first view is measured after the board is on the page
    sizes = page.evaluate(TARGETS_IN_VIEW, "#board svg.kt-board")
    assert sizes, "no target in view"
    assert all(w >= 44 and h >= 44 for w, h in sizes), sizes
    before = view_width(page, "#board svg.kt-board")
    page.evaluate(PINCH, "#board svg.kt-board")
    assert view_width(page, "#board svg.kt-board") < before * 0.5  # fingers 4× apart: zoomed in
    page.locator("#board .zoom-fit").tap()
    assert view_width(page, "#board svg.kt-board") > before * 0.99
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1


def test_carcassonne_squares_and_figure_spots_are_44px_where_they_are_tapped(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(**PHONE)
    create_game(page, "carcassonne", bots=1)
    page.locator("#start").tap()
    expect(page.locator("#board svg .target").first).to_be_attached(timeout=BOT_TURN_MS)
    after_two_frames(page)
    squares = page.evaluate(TARGETS_IN_VIEW, "#board svg.carc-board")
    assert squares and all(w >= 44 and h >= 44 for w, h in squares), squares
    for _ in range(12):  # a turn with figure spots comes within a few tiles
        click_board_target(page)
        page.locator("#confirm-place").tap()
        page.wait_for_function("!document.body.dataset.busy")
        if page.locator("#board svg .spot").count():
            break
        page.locator("#actions button.other-move").first.tap()
        page.wait_for_function("!document.body.dataset.busy")
        expect(page.locator("#board svg .target").first).to_be_attached(timeout=BOT_TURN_MS)
    after_two_frames(page)
    spots = page.evaluate(TARGETS_IN_VIEW, "#board svg.carc-board")
    assert spots and all(w >= 44 and h >= 44 for w, h in spots), spots


def test_the_round_track_shows_all_15_rounds_of_a_three_player_game(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    create_game(page, "im-schutze-der-burg", bots=2)
    page.locator("#start").tap()
    rounds = page.locator("#board svg.isdb-country g.round")
    expect(rounds).to_have_count(15)
    last = page.evaluate(
        "(() => { const svg = document.querySelector('#board svg.isdb-country');"
        " const c = svg.querySelector('g.round[data-round=\"15\"] circle');"
        " const right = Number(c.getAttribute('cx')) + Number(c.getAttribute('r'));"
        " return [right, Number(svg.dataset.whole.split(' ')[2])]; })()"
    )
    assert last[0] <= last[1], f"round 15 is drawn outside the track: {last}"
