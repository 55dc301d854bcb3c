"""On a phone (390×844, touch) nothing moves the page but the player: the board stays where the
player left it through their own moves and the bot's answers, new log lines scroll only the log's
box, and a tab tells the player when it is their turn (title, favicon, an allowed notification
while hidden). The player's own seat is online at once and nobody shows offline after the end."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

from tests.support.browser import create_game

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Every Notification the page creates, recorded instead of shown (headless has no notification UI).
RECORD_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push(title); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
"""


BOARD_TOP = "document.getElementById('board').getBoundingClientRect().top"


def in_view(page: Page, target: Locator) -> bool:
    box = target.bounding_box()
    size = page.viewport_size
    if not box or not size:
        return False
    return 0 <= box["y"] <= size["height"] - box["height"] and 0 <= box["x"] <= size["width"] - box["width"]


def our_turn_again(page: Page) -> None:
    """Until the page is ours to play and settled: at once after a step of our move, after the
    bot's answer has been drawn when the step ended our turn."""
    page.wait_for_function("document.body.dataset.turn === 'mine' && !document.body.dataset.busy")


def tap_a_move(page: Page) -> bool:
    """Tap the first offered move that is on the screen already (a tap never scrolls to it)."""
    moves = ("#confirm-place", "#step button.step-choice", "#board svg .target", "#actions button.other-move")
    for selector in moves:
        for target in page.locator(selector).all():
            if in_view(page, target):
                target.tap()
                page.wait_for_function("!document.body.dataset.busy")
                return True
    return False


def test_on_a_phone_the_page_stays_put_through_own_and_opponent_moves(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    page.add_init_script(RECORD_NOTIFICATIONS)
    create_game(page, "carcassonne", bots=1)
    own_seat = page.locator("#seats li[data-seat='0'] .presence")
    expect(own_seat).to_have_attribute("data-connected", "true", timeout=5_000)  # the view refresh is 15 s
    page.locator("#start").tap()
    expect(page.locator("#board svg .target").first).to_be_visible()
    page.evaluate(f"window.scrollTo(0, {BOARD_TOP} + window.scrollY - 60)")  # the player scrolls
    assert page.evaluate("window.scrollY") > 0
    board_top = page.evaluate(BOARD_TOP)
    log_lines = page.locator("#log li").count()
    moves = 0
    while moves < 8:
        expect(page.locator("#actions")).to_be_visible()
        assert page.evaluate("document.title").startswith("Your turn")
        assert page.evaluate("document.body.dataset.turn") == "mine"
        assert tap_a_move(page), "no move on the screen"
        moves += 1
        our_turn_again(page)
        moved = page.evaluate(BOARD_TOP) - board_top
        assert abs(moved) <= 2, f"the board moved by {moved} px on the screen after move {moves}"
    assert page.locator("#log li").count() > log_lines
    assert page.evaluate("document.getElementById('log').scrollTop") > 0, "the log box did not follow"
    # A hidden tab gets one notification when the bot has answered and the turn is ours again.
    page.evaluate("Object.defineProperty(document, 'hidden', { get: () => true, configurable: true })")
    expect(page.locator("#actions")).to_be_visible()
    before = page.evaluate("window.__notes.length")
    for _ in range(6):  # a square, then its confirmation: a move, then the next turn of ours
        assert tap_a_move(page)
        if page.evaluate(f"window.__notes.length > {before}"):
            break
        our_turn_again(page)
    page.wait_for_function(f"window.__notes.length > {before}")
    assert page.evaluate("window.__notes.at(-1)") == "Your turn"


def test_after_the_end_nobody_shows_offline(open_page: Callable[..., Page]) -> None:
    page = open_page()
    create_game(page, "duel", bots=1)
    page.locator("#start").click()
    scores = page.locator("#scores")
    while not scores.is_visible():
        moves = page.locator("#actions button.choice")
        if moves.count():
            moves.first.click()
            page.wait_for_function("!document.body.dataset.busy")
        else:
            page.wait_for_timeout(50)
    page.wait_for_timeout(500)
    expect(page.locator("#seats .presence")).to_have_count(0)
    assert not page.evaluate("document.title").startswith("Your turn")
