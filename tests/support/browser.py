"""What a person does in the web client, as Playwright steps (only clicks and typing, no API calls)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, WebSocketRoute, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.support.servers import ROOT

ARTIFACTS = ROOT / "test-artifacts" / "browser"
GRAPHQL_SOCKET = re.compile(r".*/graphql(\?.*)?$")
"""The page's GraphQL websockets (the game's and the chat's; a query names the game), for
``page.route_web_socket``."""
RETRYABLE = {
    "message": "the database did not answer in time or cannot store changes now; retry after 1 s",
    "extensions": {"code": "database_unavailable", "retry_after": 1},
}
"""The error a server whose database stopped answering ends a stream with (the guide's rule: follow
again after ``retry_after`` seconds from the last ``seq``)."""


def stop_first_item(
    page: Page, stream: str, field: str, wanted: Callable[[dict[str, Any]], bool]
) -> list[int]:
    """Route the page's GraphQL sockets so that the first item of subscription ``stream`` (its
    data's ``field``) that ``wanted`` accepts comes as ``RETRYABLE`` and the stream's end instead,
    as from a server whose database stopped; the list gets that item's ``seq`` once it happened."""
    stopped: list[int] = []

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message) if isinstance(message, str) and not stopped else {}
            item = ((frame.get("payload") or {}).get("data") or {}).get(field) or {}
            if frame.get("id") == stream and item and wanted(item):
                stopped.append(item["seq"])
                error = {"id": stream, "type": "next", "payload": {"data": None, "errors": [RETRYABLE]}}
                socket.send(json.dumps(error))
                socket.send(json.dumps({"id": stream, "type": "complete"}))
                return
            socket.send(message)

        server.on_message(from_server)

    page.route_web_socket(GRAPHQL_SOCKET, route)
    return stopped


def save_screenshot(page: Page, name: str, full_page: bool = True) -> None:
    """The whole page, or (``full_page=False``) the window scrolled to the top of the board."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if not full_page:
        page.evaluate("window.scrollTo(0, document.getElementById('game-title')?.offsetTop ?? 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def create_game(
    page: Page, slug: str, bots: int, name: str = "Ann", options: dict[str, Any] | None = None
) -> str:
    """The new game's step of the lobby: choose the game and its options, seat bots, create;
    returns the game id."""
    page.goto("/play/#/new")
    page.select_option("#game-type", slug)
    for option, value in (options or {}).items():
        field = page.locator(f"#opt-{option}")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.select_option(f"{value!r}".replace("'", '"'))
    page.fill("#create-name", name)
    page.fill("#bots", str(bots))
    page.click("#create-form button[type=submit]")
    expect(page.locator("#seats")).to_contain_text(name)
    return page.url.rsplit("/", 1)[-1]


def join_game(page: Page, game_id: str, name: str) -> None:
    """A second person takes a seat by the game's invite link."""
    page.goto(f"/play/#/join/{game_id}")
    page.fill("#join-name", name)
    page.click("#join-form button[type=submit]")
    expect(page.locator("#seats")).to_contain_text(name)


def start(page: Page) -> None:
    page.click("#start")
    expect(page.locator("#turn")).not_to_contain_text("Waiting for players", timeout=10_000)


def click_first_move(page: Page) -> bool:
    """Click the first listed move, if any, and wait until the page has sent it."""
    moves = page.locator("#actions button.choice")
    if not moves.count():
        return False
    moves.first.click()
    page.wait_for_function("!document.body.dataset.busy")
    return True


def play_moves(page: Page, step: Any, moves: int) -> None:
    """Make ``moves`` moves (waiting for our turn between them), e.g. to photograph a game in play."""
    made = 0
    while made < moves:
        if page.locator("#scores").is_visible():
            return
        if page.locator("#actions").is_visible() and step(page):
            made += 1
        else:
            page.wait_for_timeout(50)


def play_to_end(page: Page, step: Any, limit_seconds: float = 240) -> int:
    """Let ``step(page)`` make one move whenever it is our turn until the final scores show; the
    number of moves made."""
    deadline = time.monotonic() + limit_seconds
    moves = 0
    scores = page.locator("#scores")
    while time.monotonic() < deadline:
        if scores.is_visible():
            return moves
        actions = page.locator("#actions")
        if actions.is_visible() and step(page):
            moves += 1
        else:
            page.wait_for_timeout(50)
    raise AssertionError(f"the game did not end in {limit_seconds} s after {moves} moves")


# The index of the first board target a person can click: its centre inside the board's window (a
# zoomed board clips the rest) and, when on screen, nothing else drawn over it. It is measured after
# two animation frames, since a board opens at its whole extent and zooms in on the next frame.
FIRST_TARGET_IN_VIEW = """
async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const targets = [...document.querySelectorAll("#board svg .target")];
  return targets.findIndex((node) => {
    const frame = node.ownerSVGElement.getBoundingClientRect();
    const r = node.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    if (!(x > frame.left && x < frame.right && y > frame.top && y < frame.bottom)) return false;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;  // the click scrolls to it
    return node.contains(document.elementFromPoint(x, y));
  });
}
"""


def after_two_frames(page: Page) -> None:
    """Once the page has drawn two more animation frames: a board opens at its whole extent and
    zooms in on the next frame, once it is measured on the page."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def click_board_target(page: Page, looks: int = 6) -> bool:
    """Click a target on the board as a person would: one in view, else after "Fit" shows all.
    The board is drawn again when an event arrives (the bot's move, presence) and may then frame
    other squares: if the chosen target left the view before the click, look again, as a person
    would (a slow machine widens that gap: a CI run clicked an off-view target for 30 s)."""
    targets = page.locator("#board svg .target")
    for look in range(looks):
        if not targets.count():
            return False
        index = page.evaluate(FIRST_TARGET_IN_VIEW)
        if index < 0:
            page.locator("#board .zoom-fit").first.click()
            index = page.evaluate(FIRST_TARGET_IN_VIEW)
            assert index >= 0, "no board target can be clicked even with the whole board shown"
        try:
            targets.nth(index).click(timeout=5_000 if look < looks - 1 else 30_000)
        except PlaywrightTimeoutError:
            continue
        return True
    raise AssertionError("unreachable: the last look clicks with the full timeout")


PHONE_SIZE: ViewportSize = {"width": 390, "height": 844}


def save_for_readme(page: Page, name: str, at: str = "game-title") -> None:
    """The screen as a person sees it, scrolled to the element with id ``at``, on this desktop page
    and resized to a phone: for the README (docs/screenshots/ takes them from
    test-artifacts/browser/<name>-desktop.png and <name>-phone.png)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    desktop = page.viewport_size
    top = f"document.getElementById('{at}').getBoundingClientRect().top + window.scrollY"
    scroll = f"window.scrollTo(0, {top} - (('{at}' === 'game-title') ? 0 : 70))"  # under the sticky status
    for size, suffix in ((desktop, "desktop"), (PHONE_SIZE, "phone")):
        if size:
            page.set_viewport_size(size)
        page.wait_for_timeout(300)  # the layout settles (a board's zoom is measured again)
        page.evaluate(scroll)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{suffix}.png"))
    if desktop:
        page.set_viewport_size(desktop)


# Sizes of the targets that are inside the board's window (the rest is panned out of view).
TARGETS_IN_VIEW = """
(selector) => {
  const board = document.querySelector(selector);
  const frame = board.getBoundingClientRect();
  return [...board.querySelectorAll(".target")].map((node) => node.getBoundingClientRect())
    .filter((r) => r.left >= frame.left && r.right <= frame.right)
    .filter((r) => r.top >= frame.top && r.bottom <= frame.bottom)
    .map((r) => [r.width, r.height]);
}
"""

# Two fingers on the board moving apart: a pinch, as pointer events.
PINCH = """
(selector) => {
  const svg = document.querySelector(selector);
  const box = svg.getBoundingClientRect();
  const cx = box.left + box.width / 2, cy = box.top + box.height / 2;
  const fire = (type, id, x) => svg.dispatchEvent(new PointerEvent(type,
    { pointerId: id, clientX: x, clientY: cy, bubbles: true, pointerType: "touch", isPrimary: id === 1 }));
  svg.setPointerCapture = () => {};
  fire("pointerdown", 1, cx - 20); fire("pointerdown", 2, cx + 20);
  fire("pointermove", 1, cx - 80); fire("pointermove", 2, cx + 80);
  fire("pointerup", 1, cx - 80); fire("pointerup", 2, cx + 80);
}
"""


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de"}

# Every control on the page that is drawn, with its height (a checkbox is tapped through its label).
SMALL_CONTROLS = """
() => [...document.querySelectorAll("button, select, input, textarea, summary, a.button, .top a, .games a")]
  .filter((node) => node.getClientRects().length && getComputedStyle(node).visibility !== "hidden")
  .map((node) => {
    const tick = node.matches("input[type=checkbox], input[type=radio]");
    const box = tick ? node.closest("label") ?? node : node;
    const height = box.getBoundingClientRect().height;
    return [node.id || node.className || node.tagName, node.textContent.trim().slice(0, 30), height];
  })
  .filter(([, , height]) => height < 44)
"""


def assert_controls_44px(page: Page, where: str) -> None:
    """Every drawn control is a finger's target (44 px), and nothing scrolls sideways."""
    small = page.evaluate(SMALL_CONTROLS)
    assert not small, (where, small)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1, where


def new_page(browser: Browser, base: str, request: pytest.FixtureRequest, **context_options: Any) -> Page:
    """A page in a fresh context (own storage: a separate person), failing the test on a JS error."""
    context_options.setdefault("viewport", {"width": 1280, "height": 1000})
    # Playwright's wait_for_function evaluates its string in the page, which the client's
    # Content-Security-Policy (no eval) refuses; tests/browser/test_page_policy.py runs the client
    # under its policy, with waits that evaluate nothing.
    context_options.setdefault("bypass_csp", True)
    context = browser.new_context(base_url=base, **context_options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # What the Content-Security-Policy refused (the page may not notice): an error as well.
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and "Content Security Policy" in message.text
            else None
        ),
    )
    # A busy CI machine is slow: at load 13 a bot's answer took over 30 s (its pool then ran at
    # niceness 19; tests.support.servers.TEST_SERVER). Waits end as soon as the page
    # is ready, so a long limit costs a passing test nothing.
    page.set_default_timeout(90_000)
    request.node.browser_pages = [*getattr(request.node, "browser_pages", []), (page, errors)]
    return page
