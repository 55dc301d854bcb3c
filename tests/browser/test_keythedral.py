"""Keythedral in the browser: a whole game against a bot by clicking the board, Keytown, the store
and the tiles; your screen shows your own cubes and nobody else's."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.flows import (
    click_board_target,
    create_game,
    play_moves,
    play_to_end,
    save_for_readme,
    start,
)

TARGETS = (
    "#board button.tile-target",  # buying tiles first ends the game sooner
    "#step button.step-choice",
    "#board svg .target",
    "#board button.keytown-space",
    "#board button.law-target",
    "#board button.cube-target",
    "#actions button.other-move",
)


def one_move(page: Page) -> bool:
    for selector in TARGETS:
        target = page.locator(selector)
        if target.count():
            if selector == "#board svg .target":
                click_board_target(page)
            else:
                target.first.click()
            page.wait_for_function("!document.body.dataset.busy")
            return True
    return False


@pytest.mark.timeout(600)
def test_a_person_plays_a_whole_game_against_a_bot_on_the_board(open_page: Callable[..., Page]) -> None:
    page = open_page()
    create_game(page, "keythedral", bots=1)
    start(page)
    expect(page.locator("#board .kt-board")).to_be_visible()
    expect(page.locator("#screen")).to_have_count(1)
    # The drawn field goes on the board; law windows (pass or play a law) may be asked first.
    targets = page.locator(".kt-board .target")
    for _ in range(600):
        if targets.count() or page.locator("#scores").is_visible():
            break
        if not (page.locator("#actions").is_visible() and one_move(page)):
            page.wait_for_timeout(50)
    assert targets.count() > 0
    play_moves(page, one_move, 25)
    save_for_readme(page, "readme-keythedral")
    moves = play_to_end(page, one_move, limit_seconds=540)
    assert moves > 20
    expect(page.locator("#scores tbody tr")).to_have_count(2)
    save_for_readme(page, "readme-keythedral-end", at="result")
