"""Carcassonne in the browser: a whole game against a bot, placing each tile by clicking a marked
square, turning it through its legal rotations and placing figures by clicking the feature. The
middle of the game is played through the API with the page's own seat token (the page follows it
live), its start and its end by clicking."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import httpx
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
from tests.support.http import auth
from tests.support.servers import ServerProcess

LEFT_TO_CLICK = 8
"""Tiles left in the pile when the clicking takes over again: about four of ours to the end."""


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


def play_over_the_api(page: Page, base: str, left: int) -> int:
    """Our seat's moves through the API, with the token the page keeps, until ``left`` tiles are
    left and the bot is to move; then wait until the page shows that pile. Returns the moves."""
    while page.locator("#confirm-place").count():  # a tile shown on the board: place it here
        one_move(page)
    game_id = page.url.rsplit("/", 1)[-1]
    token = page.evaluate("(gid) => JSON.parse(localStorage.getItem('tabletop.games'))[gid].seat", game_id)
    rng = random.Random("carcassonne-browser")
    made = 0
    deadline = time.monotonic() + 300
    with httpx.Client(base_url=base, timeout=30) as http:
        while True:
            assert time.monotonic() < deadline, f"the API part did not reach {left} tiles left"
            pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(token)).json()
            if pending["choices"]:
                body = {"choice": rng.choice(pending["choices"]), "version": pending["version"]}
                sent = http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(token))
                assert sent.status_code == 200, sent.text
                made += 1
                continue
            game = http.get(f"/v1/games/{game_id}").json()
            assert game["status"] == "in_progress", game["status"]
            if game["state"]["pile_count"] <= left:
                break
            time.sleep(0.05)
    page.wait_for_function(
        "(left) => Number(document.querySelector('#pile').textContent.match(/\\d+/)[0]) <= left", arg=left
    )
    return made


@pytest.mark.timeout(900)
def test_a_person_plays_a_whole_game_against_a_bot_by_clicking_the_landscape(
    open_page: Callable[..., Page], web_server: ServerProcess
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
    assert play_over_the_api(page, web_server.base, LEFT_TO_CLICK) > 20
    moves = play_to_end(page, one_move, limit_seconds=840)
    assert moves >= 3
    expect(page.locator("#scores tbody tr")).to_have_count(2)
    gap = page.evaluate(
        "(() => { const log = document.getElementById('log');"
        " return log.scrollHeight - log.scrollTop - log.clientHeight; })()"
    )
    assert gap < 24, f"the log box stopped following, {gap} px short of its end"
    save_for_readme(page, "readme-carcassonne-end", at="result")
    expect(page.locator("#board .placed")).not_to_have_count(1)
