"""The game page sends its moves over the websocket it follows the game on (``submitChoice`` beside
the ``gameEvents`` subscription), over REST while that socket is not live, and again over REST
with the same idempotency key when the socket drops before a move's answer: made once."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import httpx
from playwright.sync_api import Page, Request, WebSocketRoute, expect

from tests.support.browser import GRAPHQL_SOCKET, click_first_move, create_game, play_to_end, start
from tests.support.servers import ServerProcess


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

    page.route_web_socket(GRAPHQL_SOCKET, refuse)
    posted = rest_submits(page)
    create_game(page, "duel", bots=1)
    start(page)
    before = socket_submits(web_server.base)
    moves = play_to_end(page, click_first_move)
    assert moves > 0 and len(posted) == moves
    assert socket_submits(web_server.base) == before


def test_a_move_whose_socket_drops_before_the_answer_is_made_once(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    page = open_page()
    keys: list[str | None] = []

    def posted(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/choices"):
            keys.append(request.headers.get("idempotency-key"))

    cut: list[str] = []

    def cut_after_the_first_move(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def from_page(message: str | bytes) -> None:
            server.send(message)
            if not cut and isinstance(message, str) and "submitChoice" in message:
                cut.append(message)  # the move reached the server; its answer never reaches the page
                socket.close(code=1001, reason="network lost")

        socket.on_message(from_page)

    page.route_web_socket(GRAPHQL_SOCKET, cut_after_the_first_move)
    page.on("request", posted)
    game_id = create_game(page, "duel", bots=1)
    start(page)
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    assert click_first_move(page)
    expect(page.locator("#game-error")).to_be_empty()
    play_to_end(page, click_first_move)
    # The cut move went again over REST with the key it had on the socket (later moves may go
    # over REST too while the socket reconnects, each with a key of its own).
    assert len(cut) == 1 and keys and keys[0] == json.loads(cut[0])["payload"]["variables"]["key"]
    assert len(set(keys)) == len(keys)
    events = httpx.get(f"{web_server.base}/v1/games/{game_id}/events", timeout=10).json()["events"]
    first_round = events[: next(n for n, e in enumerate(events) if e["type"] == "reveal")]
    sealed = [e for e in first_round if e["type"] == "choice_sealed" and e["data"].get("seat") == 0]
    assert len(sealed) == 1 and not sealed[0]["data"].get("replaced")  # neither lost nor doubled
