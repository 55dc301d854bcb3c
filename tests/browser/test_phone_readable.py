"""Every board can be read on a phone (390×844, touch, German): Im Schutze der Burg's castle and
countryside open zoomed in with no text in view under 12 px and every target in view at 44 px or
more; every board (the castle too) pinches, pans and zooms in on a double tap; Keythedral's tiles
show what is printed on them, never their ids; and axe's label-content-name-mismatch rule (off
in axe's default run, which the lobby checks use) finds nothing on Im Schutze der Burg's page."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.axe import rule_violations
from tests.support.browser import PINCH, TARGETS_IN_VIEW, after_two_frames, create_game

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de"}

# Each text inside the drawing's window: its words and its size on screen in CSS px.
TEXTS_IN_VIEW = """
(selector) => {
  const svg = document.querySelector(selector);
  const frame = svg.getBoundingClientRect();
  return [...svg.querySelectorAll("text")].filter((node) => {
    const r = node.getBoundingClientRect();
    return r.width > 0 && r.left >= frame.left && r.right <= frame.right
      && r.top >= frame.top && r.bottom <= frame.bottom;
  }).map((node) => [node.textContent, parseFloat(getComputedStyle(node).fontSize) * node.getScreenCTM().a]);
}
"""

# Two quick taps of one finger on a spot of the board that is no target, as pointer events.
DOUBLE_TAP = """
(selector) => {
  const svg = document.querySelector(selector);
  const box = svg.getBoundingClientRect();
  let spot = null;
  for (let y = box.top + 4; y < box.bottom && !spot; y += 6) {
    for (let x = box.left + 4; x < box.right && !spot; x += 6) {
      const hit = document.elementFromPoint(x, y);
      if (hit && svg.contains(hit) && !hit.closest(".target")) spot = [x, y];
    }
  }
  if (!spot) return false;
  svg.setPointerCapture = () => {};
  const [x, y] = spot;
  const fire = (type) => document.elementFromPoint(x, y).dispatchEvent(new PointerEvent(type,
    { pointerId: 7, clientX: x, clientY: y, bubbles: true, pointerType: "touch", isPrimary: true }));
  fire("pointerdown"); fire("pointerup"); fire("pointerdown"); fire("pointerup");
  return true;
}
"""


def view_width(page: Page, selector: str) -> float:
    return float(page.locator(selector).evaluate("(svg) => svg.viewBox.baseVal.width"))


def start_on_phone(open_page: Callable[..., Page], slug: str, options: dict[str, bool] | None = None) -> Page:
    page = open_page(**PHONE)
    create_game(page, slug, bots=1, options=options)
    page.locator("#start").tap()
    expect(page.locator("#board svg").first).to_be_visible()
    page.wait_for_function("!document.body.dataset.busy")
    after_two_frames(page)  # the first view is measured once the board is on the page
    return page


def assert_double_tap_zooms(page: Page, selector: str) -> None:
    before = view_width(page, selector)
    assert page.evaluate(DOUBLE_TAP, selector), f"no spot on {selector} that is not a target"
    assert view_width(page, selector) < before * 0.6, "a double tap did not zoom in"


def test_the_castle_and_countryside_open_readable_and_zoom(open_page: Callable[..., Page]) -> None:
    page = start_on_phone(open_page, "im-schutze-der-burg")
    seal = page.locator("#seal-pick")  # the round's secret pick first, then helpers go to the castle
    for card in page.locator("#hand button.pick").all():
        if seal.is_enabled():
            break
        card.tap()
    seal.tap()
    # Our turn again once the bot (the strongest by default, which searches) has answered.
    expect(page.locator("#board svg .target").first).to_be_attached(timeout=90_000)
    page.wait_for_function("!document.body.dataset.busy")
    after_two_frames(page)
    for selector in ("#board svg.isdb-castle", "#board svg.isdb-country"):
        texts = page.evaluate(TEXTS_IN_VIEW, selector)
        assert len(texts) >= 3, (selector, texts)
        small = [(text, round(px, 1)) for text, px in texts if px < 12]
        assert not small, (selector, small)
        targets = page.evaluate(TARGETS_IN_VIEW, selector)
        assert all(w >= 44 and h >= 44 for w, h in targets), (selector, targets)
    targets = [
        *page.evaluate(TARGETS_IN_VIEW, "#board svg.isdb-castle"),
        *page.evaluate(TARGETS_IN_VIEW, "#board svg.isdb-country"),
    ]
    assert targets, "the drawings open away from their targets"
    # The whole castle was not readable at the phone's width: the first view is zoomed in.
    whole = float(page.locator("#board svg.isdb-castle").evaluate("(svg) => svg.dataset.whole.split(' ')[2]"))
    assert view_width(page, "#board svg.isdb-castle") < whole * 0.6
    page.locator("#board .isdb-drawing").first.locator(".zoom-fit").tap()
    assert view_width(page, "#board svg.isdb-country") == 770
    assert_double_tap_zooms(page, "#board svg.isdb-country")
    fitted = view_width(page, "#board svg.isdb-castle")
    page.evaluate(PINCH, "#board svg.isdb-castle")
    assert view_width(page, "#board svg.isdb-castle") < fitted * 0.5  # fingers 4× apart: zoomed in
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    assert not rule_violations(page, "label-content-name-mismatch")


def test_keythedral_and_carcassonne_zoom_on_a_double_tap(open_page: Callable[..., Page]) -> None:
    for slug, selector in (("keythedral", "#board svg.kt-board"), ("carcassonne", "#board svg.carc-board")):
        page = start_on_phone(open_page, slug)
        page.locator("#board .zoom-fit").first.tap()
        assert_double_tap_zooms(page, selector)


def test_keythedral_shows_no_tile_ids(open_page: Callable[..., Page]) -> None:
    page = start_on_phone(open_page, "keythedral", {"face_up_tiles": True})
    expect(page.locator("#board .tile-row").first).to_be_visible()
    text = page.locator("#app").inner_text()
    assert not re.search(r"T\d\d-\d", text), re.findall(r".{0,30}T\d\d-\d.{0,30}", text)
    face_up = page.locator("#board .tile-row .tile, #board .tile-row .tile-target").filter(has_text="×")
    expect(face_up.first).to_be_visible()  # a face-up tile shows its cost
    assert not rule_violations(page, "label-content-name-mismatch")
