"""Moving on while a page still loads: the lobby waits for its list of open games, the person taps
"Tournaments" meanwhile, then the list arrives. Only the tournaments page shows (before, the late
lobby appended its heading and cards under it: two ``h1`` at once, seen on a loaded CI machine)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from playwright.sync_api import Page, Route, expect

from tests.support.browser import PHONE


def test_a_page_that_finishes_loading_after_the_person_left_it_does_not_show(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(**PHONE)
    held: list[Route] = []

    def listing(url: str) -> bool:
        return urlsplit(url).path == "/v1/games"

    page.route(listing, lambda route: held.append(route), times=1)
    page.goto("/play/")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the lobby never asked for its open games"
    expect(page.locator("h1")).to_have_count(0)  # the lobby is still waiting
    page.locator("#nav-tournaments").tap()
    expect(page.locator("h1")).to_have_text("Turniere")
    for route in held:
        route.continue_()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    expect(page.locator("h1")).to_have_count(1)
    expect(page.locator("h1")).to_have_text("Turniere")
    expect(page.locator("#app")).to_have_count(1)
