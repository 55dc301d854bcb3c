"""Keythedral in the browser: a whole game against a bot by clicking the board, Keytown, the store
and the tiles; your screen shows your own cubes and nobody else's."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import create_game, play_moves, play_to_end, save_for_readme, start

# What a person can click: a tile they can afford (only buyable tiles are buttons), one of the
# several ways behind a click (a payment, a bid), anything else on the board or in the move panel.
TILE = "#board button.tile-target"
STEP = "#step button.step-choice"
BOARD = "#board svg .target"
OTHERS = (
    BOARD,
    "#board button.keytown-space",
    "#board button.law-target",
    "#board button.cube-target",
    "#actions button.other-move",
)

# Whether the board target number `index` is inside the board's window (a zoomed board hides some).
IN_VIEW = """
(index) => {
  const node = document.querySelectorAll("#board svg .target")[index];
  const frame = node.ownerSVGElement.getBoundingClientRect();
  const r = node.getBoundingClientRect();
  const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
  return x > frame.left && x < frame.right && y > frame.top && y < frame.bottom;
}
"""


class Person:
    """Buys a tile whenever one is affordable, else clicks one of the targets on offer at random
    (seeded). A fixed click order (always the first field, always "pass") hoards cubes of the
    same colours until the store runs dry: neither seat can then afford the last tiles and the
    game runs on to the engine's 200-round safety cap. Simulated against the greedy bot (the
    lobby's default), 60 seeded games of this person ended by the last tile in 10 to 17 rounds,
    40 of the fixed order 30 at the cap."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def __call__(self, page: Page) -> bool:
        for selector in (TILE, STEP):
            target = page.locator(selector)
            if target.count():
                (target.first if selector == TILE else target.nth(self.rng.randrange(target.count()))).click()
                return self.settled(page)
        offered = [(selector, i) for selector in OTHERS for i in range(page.locator(selector).count())]
        if not offered:
            return False
        selector, index = self.rng.choice(offered)
        if selector == BOARD and not page.evaluate(IN_VIEW, index):
            page.locator("#board .zoom-fit").first.click()
        page.locator(selector).nth(index).click()
        return self.settled(page)

    @staticmethod
    def settled(page: Page) -> bool:
        page.wait_for_function("!document.body.dataset.busy")
        return True


@pytest.mark.timeout(600)
def test_a_person_plays_a_whole_game_against_a_bot_on_the_board(open_page: Callable[..., Page]) -> None:
    page = open_page()
    one_move = Person("keythedral-browser")
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
