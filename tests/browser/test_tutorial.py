"""The guided first game of each title on a phone in German: "Learn to play" in the lobby opens a
game against the bot that the server neither lists nor rates, a bubble in German points at the
highlighted element to tap, and tapping what it points at each time leads through the script to
its summary."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from api.pages.web_client import web_root

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de"}
TITLES = ("im-schutze-der-burg", "keythedral", "carcassonne")
# What the page shows when the guide does not end: the hint, the marked targets, whose turn, the
# game's error line and the move panel's step (a half-made move), so a failure says where it stuck.
NOW = """
() => [document.getElementById("tutorial")?.dataset.hint,
       [...document.querySelectorAll(".tutorial-target")].map((node) => node.outerHTML.slice(0, 200)),
       document.getElementById("turn")?.textContent,
       document.getElementById("game-error")?.textContent,
       document.getElementById("step")?.textContent ?? null]
"""


def script(slug: str) -> Any:
    """The title's script, web/tutorials/<slug>.json."""
    root = web_root()
    assert root is not None
    return json.loads((Path(root) / "tutorials" / f"{slug}.json").read_text(encoding="utf-8"))


def german_hints(slug: str) -> set[str]:
    """Every German text the script's bubbles may show."""
    data = script(slug)
    texts = {data["free"]["de"], data["waiting"]["de"]}
    for step in data["steps"]:
        texts.add(step["text"]["de"])
        texts.update(then["text"]["de"] for then in step.get("then", []))
    return texts


def open_guided_game(page: Page, slug: str) -> str:
    page.goto("/play/")
    expect(page.locator("#learn")).to_contain_text("Spielen lernen")
    page.locator(f"#learn button[data-slug='{slug}']").click()
    expect(page.locator("#board")).to_be_visible()
    return page.url.rsplit("/", 1)[-1]


def follow_the_hints(page: Page, slug: str, limit_seconds: float = 90) -> list[str]:
    """Tap what the bubble points at until the summary shows; the hints followed, in order."""
    hints = german_hints(slug)
    bubble = page.locator("#tutorial")
    summary = page.locator("#tutorial-summary")
    followed: list[str] = []
    tapped: list[str] = []  # what each tap hit, for the failure message
    deadline = time.monotonic() + limit_seconds
    while time.monotonic() < deadline:
        if summary.count():
            return followed
        page.wait_for_function("!document.body.dataset.busy")
        if not bubble.is_visible() or bubble.get_attribute("data-hint") == "waiting":
            page.wait_for_timeout(50)
            continue
        assert bubble.locator(".tutorial-text").inner_text() in hints
        target = page.locator(".tutorial-target")
        if target.count() != 1:
            page.wait_for_timeout(50)  # drawn again meanwhile: the guide marks the new one
            continue
        followed.append(str(bubble.get_attribute("data-hint")))
        try:
            tapped.append(target.evaluate("(node) => node.outerHTML.slice(0, 120)", timeout=5_000))
            target.click(timeout=5_000)
        except PlaywrightTimeoutError:  # the bot's move redrew the board under the tap: look again
            followed.pop()
            del tapped[len(followed) :]  # and what it hit, if that was read
    now = page.evaluate(NOW)
    raise AssertionError(
        f"the guide did not end in {limit_seconds} s; followed: {followed}; "
        f"the last taps: {tapped[-6:]}; now: {now}"
    )


@pytest.mark.parametrize("slug", TITLES)
def test_a_newcomer_finishes_the_guided_game_by_tapping_what_the_german_hints_point_at(
    open_page: Callable[..., Page], slug: str
) -> None:
    page = open_page(**PHONE)
    game_id = open_guided_game(page, slug)
    view = page.request.get(f"/v1/games/{game_id}").json()
    assert view["rated"] is False
    assert {"host_seed", "no_clock"} <= {reason["code"] for reason in view["unrated_reasons"]}
    listed = page.request.get("/v1/games?limit=100").json()["items"]
    assert game_id not in {game["id"] for game in listed}
    followed = follow_the_hints(page, slug)
    # In the script's order, from its first step to its last; a step whose kind of decision the
    # game did not bring up before the next one's is passed over (the guide adapts).
    steps = [step["id"] for step in script(slug)["steps"]]
    shown = [steps.index(hint.split("/")[0]) for hint in followed if hint.split("/")[0] in steps]
    assert shown == sorted(shown) and shown[0] == 0 and shown[-1] == len(steps) - 1, followed
    assert len(set(shown)) >= len(steps) - 2, followed
    summary = page.locator("#tutorial-summary")
    expect(summary).to_contain_text("Das hast du gelernt")
    expect(summary.locator("li")).to_have_count(len(script(slug)["summary"]["de"]))
    expect(page.locator("#tutorial")).to_be_hidden()
    expect(page.locator(".tutorial-target")).to_have_count(0)
    assert page.evaluate("[...window.__i18nMissing]") == []


def test_the_guide_takes_another_legal_move_in_its_stride_and_can_be_hidden(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(**PHONE)
    open_guided_game(page, "carcassonne")
    bubble = page.locator("#tutorial")
    steps = {step["id"]: step["text"]["de"] for step in script("carcassonne")["steps"]}
    expect(bubble).to_have_attribute("data-hint", "tile-1")
    expect(bubble).to_contain_text(steps["tile-1"])
    page.locator(".tutorial-target").click()
    expect(bubble).to_have_attribute("data-hint", "tile-1/#confirm-place")
    page.locator(".tutorial-target").click()
    # The guide points at a spot for a figure; the newcomer places none, and the guide goes on.
    expect(bubble).to_have_attribute("data-hint", "figure-1")
    expect(page.locator("#board svg .tutorial-target")).to_have_count(1)
    page.locator("#actions button.other-move").click()
    expect(bubble).to_have_attribute("data-hint", "tile-2", timeout=90_000)  # after the bot's turn
    expect(bubble).to_contain_text(steps["tile-2"])
    # Hidden: the summary instead, and it stays so when the page is opened again.
    bubble.get_by_role("button", name="Hinweise ausblenden").click()
    expect(page.locator("#tutorial-summary")).to_contain_text("Das hast du gelernt")
    expect(bubble).to_be_hidden()
    expect(page.locator(".tutorial-target")).to_have_count(0)
    page.reload()
    expect(page.locator("#tutorial-summary")).to_be_visible()
    expect(page.locator("#tutorial")).to_be_hidden()
    page.get_by_role("button", name="Weiterspielen").click()
    expect(page.locator("#tutorial-summary")).to_have_count(0)


def test_a_target_zoomed_out_of_the_boards_window_is_pointed_at_again_once_fit_is_tapped(
    open_page: Callable[..., Page],
) -> None:
    """A marked place outside a zoomed board's window is reached through the board's Fit button;
    once Fit is tapped (which draws nothing else on the page) the guide points at the place again
    at once, not at Fit until something else draws the page."""
    page = open_page(**PHONE)
    open_guided_game(page, "carcassonne")
    expect(page.locator("#tutorial")).to_have_attribute("data-hint", "tile-1")
    expect(page.locator("#board svg .tutorial-target")).to_have_count(1)
    zoom_in = page.locator("#board .zoom-in")
    for _ in range(12):  # the window shrinks to the middle of the start tile: no place left in it
        zoom_in.click()
    fit = page.locator("#board .zoom-fit")
    expect(fit).to_have_class(re.compile(r"\btutorial-target\b"))
    expect(page.locator("#board svg .tutorial-target")).to_have_count(0)
    fit.click()
    # At once, not at the page's next drawing (its presence read, every 15 s).
    expect(page.locator("#board svg .tutorial-target")).to_have_count(1, timeout=4_000)
    expect(fit).not_to_have_class(re.compile(r"\btutorial-target\b"))
    expect(page.locator("#tutorial")).to_have_attribute("data-hint", "tile-1")


# Pushes the board down the page (a spacer above the page's content) and makes the docked move
# panel tall enough that every place marked for the first tile sits on the screen under it; returns
# whether that holds: each place's centre on the screen, and the panel the first thing drawn there
# (but the guide's bubble).
COVER_THE_PLACES = """
() => {
  scrollTo(0, 0);
  const centres = () => [...document.querySelectorAll("#board svg .target")].map((node) => {
    const r = node.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  });
  const ys = centres().map(([, y]) => y);
  const spacer = document.createElement("div");
  spacer.id = "test-spacer";
  spacer.style.height = `${innerHeight - 12 - Math.max(...ys)}px`;
  document.body.prepend(spacer);
  const style = document.createElement("style");
  style.textContent = `.dock { min-height: ${Math.max(...ys) - Math.min(...ys) + 40}px; background: #fff; }`;
  document.head.append(style);
  const drawn = (x, y) => document.elementsFromPoint(x, y).find((hit) => !hit.closest("#tutorial"));
  return centres().every(([x, y]) => y > 0 && y < innerHeight && Boolean(drawn(x, y)?.closest(".dock")));
}
"""
# Whether the marked place is the first thing drawn at its centre (but the bubble), on the screen.
MARKED_PLACE_IN_SIGHT = """
() => {
  const node = document.querySelector("#board svg .tutorial-target");
  if (!node) return false;
  const r = node.getBoundingClientRect();
  const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
  const top = document.elementsFromPoint(x, y).find((hit) => !hit.closest("#tutorial"));
  return y > 0 && y < innerHeight && Boolean(top && (node.contains(top) || top.contains(node)));
}
"""


def test_a_place_under_the_docked_move_panel_is_scrolled_out_from_under_it_not_sent_to_fit(
    open_page: Callable[..., Page],
) -> None:
    """Every place to tap lies on the screen but under the move panel docked at the bottom of a
    phone's screen: the guide scrolls the page to one of them. Pointing at the board's Fit button
    instead (as for a place outside a zoomed board's window) was a loop: fitting the board changes
    nothing here, and the guide pointed at Fit again (a guided Keythedral game stuck on its second
    round's workers, 2026-11-30)."""
    page = open_page(**PHONE)
    open_guided_game(page, "carcassonne")
    expect(page.locator("#tutorial")).to_have_attribute("data-hint", "tile-1")
    expect(page.locator("#board svg .tutorial-target")).to_have_count(1)
    assert page.locator("#board svg .target").count() >= 2
    assert page.evaluate(COVER_THE_PLACES), "the places are not all under the docked panel"
    # The board drawn again (as after a move): the marked place is gone, the guide looks again.
    page.evaluate("document.querySelector('#board svg .tutorial-target').remove()")
    expect(page.locator("#board svg .tutorial-target")).to_have_count(1, timeout=4_000)
    page.wait_for_function(MARKED_PLACE_IN_SIGHT, timeout=4_000)
    expect(page.locator("#board .zoom-fit")).not_to_have_class(re.compile(r"\btutorial-target\b"))
    expect(page.locator("#tutorial")).to_have_attribute("data-hint", "tile-1")
