"""The opponent's move is seen on the board: when one person places a tile, the other's page
outlines it (changed since their own last move) and flashes it, and marks its log lines; the
mover's own tile is never outlined on their own page, and their next move clears the marks."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import click_board_target, create_game, join_game, start

# The flash lasts 1.5 s and a redraw after that drops its class: a check that looks later, on a busy
# machine, finds nothing. So every tile that ever carries the class is recorded when it gets it.
RECORD_FLASHES = """
window.__flashed = new Set();
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of [record.target, ...record.addedNodes]) {
      if (!(node instanceof Element)) continue;
      for (const tile of [node, ...node.querySelectorAll(".placed.flash")]) {
        if (!tile.matches("#board .tiles > .placed.flash")) continue;
        window.__flashed.add(`${tile.dataset.x},${tile.dataset.y}`);
      }
    }
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
"""


def settle(page: Page) -> None:
    page.wait_for_function("!document.body.dataset.busy")


def whole_turn(page: Page) -> None:
    """A tile on the first marked square, confirmed, then the figure step passed."""
    click_board_target(page)
    page.locator("#confirm-place").click()
    settle(page)
    expect(page.locator("#actions button.other-move").first).to_be_visible()
    page.locator("#actions button.other-move").first.click()  # no figure
    settle(page)


def test_each_person_sees_the_others_tile_outlined_and_flashed_but_not_their_own(
    open_page: Callable[..., Page],
) -> None:
    ann = open_page()
    ann.add_init_script(RECORD_FLASHES)
    game_id = create_game(ann, "carcassonne", bots=0, name="Ann")
    bob = open_page()
    bob.add_init_script(RECORD_FLASHES)
    join_game(bob, game_id, "Bob")
    expect(ann.locator("#seats")).to_contain_text("Bob")
    start(ann)
    expect(ann.locator("#board .tiles > .placed")).to_have_count(1)  # the start tile
    mover, other = (ann, bob) if ann.locator("#board svg .target").count() else (bob, ann)
    expect(mover.locator("#board svg .target").first).to_be_visible()
    for turn in range(3):
        whole_turn(mover)
        expect(other.locator("#board .tiles > .placed")).to_have_count(turn + 2)
        changed = other.locator("#board .tiles > .placed.changed")
        expect(changed).to_have_count(1)
        square = f"{changed.get_attribute('data-x')},{changed.get_attribute('data-y')}"
        other.wait_for_function("square => window.__flashed.has(square)", arg=square)
        expect(other.locator("#log li.recent[data-type='tile_placed']")).to_have_count(1)
        expect(mover.locator("#board .tiles > .placed.changed")).to_have_count(0)
        expect(mover.locator("#log li.recent")).to_have_count(0)
        mover, other = other, mover
        expect(mover.locator("#board svg .target").first).to_be_visible()
