"""Take-backs in the web client on a phone (390×844, touch): "Undo" after a move that revealed
nothing puts the board back, and when the opponent decided since, the request dialog on the
opponent's phone refuses or accepts it and both boards return to the earlier position."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.support.browser import create_game, join_game, save_screenshot, start
from tests.support.play import game_as, play_first_choice
from tests.support.servers import ServerProcess

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PLACED = "#board svg g.placed"


def test_undo_on_a_phone_takes_a_tile_back_off_the_board(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    create_game(page, "carcassonne", bots=1)
    start(page)
    target = page.locator("#board svg .target").first
    expect(target).to_be_visible()
    expect(page.locator(PLACED)).to_have_count(1)  # the start tile
    expect(page.locator("#takeback")).to_have_count(0)  # nothing to take back yet
    target.tap()
    page.locator("#confirm-place").tap()
    page.wait_for_function("!document.body.dataset.busy")
    expect(page.locator(PLACED)).to_have_count(2)
    undo = page.locator("#takeback")
    expect(undo).to_be_visible()  # the figure step follows: no tile drawn yet
    box = undo.bounding_box()
    assert box is not None and box["height"] >= 44  # tappable
    assert box["y"] + box["height"] <= 844  # on the screen without scrolling

    undo.tap()

    expect(page.locator(PLACED)).to_have_count(1)
    expect(page.locator("#confirm-place, #board svg .target").first).to_be_visible()  # placing again
    expect(page.locator("#takeback")).to_have_count(0)
    expect(page.locator("#log li[data-type='taken_back']")).to_contain_text("took back")


def test_a_game_created_without_undo_offers_none(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    page.goto("/play/#/new")
    page.select_option("#game-type", "carcassonne")
    page.select_option("#takebacks", "off")
    page.fill("#create-name", "Ann")
    page.fill("#bots", "1")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#seats")).to_contain_text("Ann")
    start(page)
    page.locator("#board svg .target").first.tap()
    page.locator("#confirm-place").tap()
    page.wait_for_function("!document.body.dataset.busy")
    expect(page.locator(PLACED)).to_have_count(2)
    assert page.evaluate("window.__tabletop.page.game.takebacks") == {
        "allowed": False,
        "can_take_back": False,
        "request": None,
    }
    expect(page.locator("#takeback")).to_have_count(0)


def _seat_token(page: Page) -> str:
    token = page.evaluate("window.__tabletop.page.token")
    assert isinstance(token, str)
    return token


def _shows(page: Page, version: int) -> Any:
    """The state the page draws, once it has read ``version``."""
    read = f"window.__tabletop.page.game.version === {version} && !document.body.dataset.busy"
    page.wait_for_function(read)
    return page.evaluate("window.__tabletop.page.game.state")


def test_the_opponent_refuses_then_accepts_an_undo_on_a_phone_and_both_boards_go_back(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    ann, bea = open_page(**PHONE), open_page(**PHONE)
    game_id = create_game(ann, "im-schutze-der-burg", bots=0, name="Ann")
    join_game(bea, game_id, "Bea")
    start(ann)
    pages = [ann, bea]
    tokens = [_seat_token(ann), _seat_token(bea)]
    before: dict[int, dict[int, Any]] = {}
    asking = None
    with httpx.Client(base_url=web_server.base, timeout=30) as http:
        for _ in range(200):  # the moves of both people, made for them, until one may ask
            shown = {seat: game_as(http, game_id, tokens[seat]) for seat in (0, 1)}
            if not shown[0]["decision"]["simultaneous"]:
                before[shown[0]["decision"]["seats"][0]] = {seat: shown[seat]["state"] for seat in (0, 1)}
            mover = play_first_choice(http, game_id, tokens)
            if game_as(http, game_id, tokens[1 - mover])["takebacks"]["can_take_back"]:
                asking = 1 - mover
                break
        assert asking is not None
        answering = 1 - asking
        asker, answerer = pages[asking], pages[answering]

        asker.locator("#takeback").tap()
        expect(asker.locator("#takeback-waiting")).to_contain_text(["Ann", "Bea"][answering])
        question = answerer.locator("#takeback-question")
        expect(question).to_contain_text(f"{['Ann', 'Bea'][asking]} asks to take back their last move")
        expect(answerer.locator("[role='alertdialog']")).to_be_visible()
        save_screenshot(answerer, "takeback-request-phone", full_page=False)
        answerer.locator("#takeback-refuse").tap()
        expect(question).to_have_count(0)
        expect(asker.locator("#takeback-waiting")).to_have_count(0)
        expect(asker.locator("#log li[data-type='takeback_refused']")).to_be_visible()

        asker.locator("#takeback").tap()
        answerer.locator("#takeback-accept").tap()

        expect(answerer.locator("#log li[data-type='taken_back']")).to_be_visible()
        version = game_as(http, game_id, tokens[0])["version"]
    for seat, page in enumerate(pages):
        assert _shows(page, version) == before[asking][seat], "the board is back where it was"
    expect(asker.locator("#takeback-waiting")).to_have_count(0)
    expect(answerer.locator("#takeback-question")).to_have_count(0)
