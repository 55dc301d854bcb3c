"""A whole game of Im Schutze der Burg played with the keyboard alone: Tab moves the focus to a
move (a card in the hand, the seal button, a space in the castle, a step of a move, pass/done),
Enter makes it; no mouse click, no tap, no script click."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import create_game

# What the person wants to do next, as a selector, in order of preference.
WANTED = """
() => {
  const seal = document.querySelector("#seal-pick");
  if (seal && !seal.disabled) return "#seal-pick";
  if (document.querySelector("#hand button.pick:not(.selected)")) return "#hand button.pick:not(.selected)";
  const moves = ["#step button.step-choice", "#board svg .target", "#board button.worker-card",
                 "#actions button.other-move"];
  for (const selector of moves) {
    if (document.querySelector(selector)) return selector;
  }
  return null;
}
"""


def keyboard_move(page: Page) -> bool:
    """Tab to the wanted move and press Enter; False when there is nothing to do now."""
    wanted = page.evaluate(WANTED)
    if wanted is None:
        return False
    for _ in range(400):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", wanted):
            page.keyboard.press("Enter")
            page.wait_for_function("!document.body.dataset.busy")
            return True
    raise AssertionError(f"Tab never reached {wanted}")


def test_a_whole_game_with_the_keyboard_alone(open_page: Callable[..., Page]) -> None:
    page = open_page()
    create_game(page, "im-schutze-der-burg", bots=1)  # as in every test; from the start, keys only
    page.locator("#start").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board .isdb-castle")).to_be_visible()
    deadline = time.monotonic() + 280
    moves = 0
    while not page.locator("#scores").is_visible():
        assert time.monotonic() < deadline, f"no end after {moves} moves"
        if page.locator("#actions").is_visible() and keyboard_move(page):
            moves += 1
        else:
            page.wait_for_timeout(50)
    assert moves > 12
    expect(page.locator("#scores tbody tr")).to_have_count(2)
