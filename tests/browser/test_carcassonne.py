"""Carcassonne in the browser: a whole game against a bot, placing each tile by clicking a marked
square, turning it through its legal rotations and placing figures by clicking the feature."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import (
    click_board_target,
    create_game,
    play_moves,
    play_to_end,
    save_for_readme,
    start,
)


def settle(page: Page) -> None:
    page.wait_for_function("!document.body.dataset.busy")


def one_move(page: Page) -> bool:
    rotate = page.locator("#rotate")
    if rotate.count() and rotate.is_enabled():
        rotate.click()  # look at another legal rotation before placing
    for selector in (
        "#confirm-place",
        "#step button.step-choice",
        "#board svg .target",
        "#actions button.other-move",
    ):
        target = page.locator(selector)
        if target.count():
            if selector == "#board svg .target":
                click_board_target(page)
            else:
                target.first.click()
            settle(page)
            return True
    return False


@pytest.mark.timeout(900)
def test_a_person_plays_a_whole_game_against_a_bot_by_clicking_the_landscape(
    open_page: Callable[..., Page],
) -> None:
    page = open_page()
    create_game(page, "carcassonne", bots=1)
    start(page)
    expect(page.locator("#board .carc-board")).to_be_visible()
    expect(page.locator("#pile")).to_contain_text("82")  # 84 land tiles: the start tile, then ours drawn
    click_board_target(page)
    expect(page.locator("#board .preview")).to_have_count(1)
    expect(page.locator("#confirm-place")).to_be_focused()
    play_moves(page, one_move, 30)
    save_for_readme(page, "readme-carcassonne")
    moves = play_to_end(page, one_move, limit_seconds=840)
    assert moves > 30
    expect(page.locator("#scores tbody tr")).to_have_count(2)
    gap = page.evaluate(
        "(() => { const log = document.getElementById('log');"
        " return log.scrollHeight - log.scrollTop - log.clientHeight; })()"
    )
    assert gap < 24, f"the log box stopped following, {gap} px short of its end"
    save_for_readme(page, "readme-carcassonne-end", at="result")
    expect(page.locator("#board .placed")).not_to_have_count(1)
