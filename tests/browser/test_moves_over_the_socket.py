"""The game page sends its moves over the websocket it follows the game on (``submitChoice`` beside
the ``gameEvents`` subscription), and over REST while that socket is not live."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
from playwright.sync_api import Page, Request, WebSocketRoute, expect

from tests.support.browser import create_game, play_to_end, start
from tests.support.servers import ServerProcess


def click_first_move(page: Page) -> bool:
    moves = page.locator("#actions button.choice")
    if not moves.count():
        return False
    moves.first.click()
    page.wait_for_function("!document.body.dataset.busy")
    return True


def socket_submits(base: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=10).text
    found = re.search(r"^tabletop_socket_submits_total (\S+)$", text, re.MULTILINE)
    assert found is not None
    return float(found.group(1))


def rest_submits(page: Page) -> list[str]:
    posted: list[str] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/choices"):
            posted.append(request.url)

    page.on("request", seen)
    return posted


def test_a_game_is_played_over_the_live_socket(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    page = open_page()
    posted = rest_submits(page)
    create_game(page, "duel", bots=1)
    start(page)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    before = socket_submits(web_server.base)
    moves = play_to_end(page, click_first_move)
    assert moves > 0
    assert posted == []
    assert socket_submits(web_server.base) - before >= moves
    expect(page.locator("#log li[data-type='game_over']")).to_have_count(1)


def test_without_a_live_socket_moves_go_over_rest(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    page = open_page()

    def refuse(socket: WebSocketRoute) -> None:
        socket.close(code=1011, reason="no websocket here")

    page.route_web_socket(re.compile(r".*/graphql$"), refuse)
    posted = rest_submits(page)
    create_game(page, "duel", bots=1)
    start(page)
    before = socket_submits(web_server.base)
    moves = play_to_end(page, click_first_move)
    assert moves > 0 and len(posted) == moves
    assert socket_submits(web_server.base) == before
