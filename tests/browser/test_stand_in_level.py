"""Issue 29 item 5 in the web client: the host chooses the stand-in level (who plays a lapsed,
resigned or forfeited seat) with the turn clock; the choice is sent as the API's
``clock.stand_in``, greedy unless chosen, and named in the page's language."""

from __future__ import annotations

import json
from collections.abc import Callable

from playwright.sync_api import Page, expect

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de"}


def test_the_host_chooses_the_stand_in_level_and_it_is_sent_with_the_clock(
    open_page: Callable[..., Page],
) -> None:
    page = open_page(**PHONE)
    page.goto("/play/#/new")
    expect(page.locator("#create-form")).to_be_visible()
    page.select_option("#game-type", "duel")
    page.select_option("#clock-mode", "per_decision")
    level = page.locator("#clock-stand-in")
    expect(level).to_be_visible()
    expect(level).to_have_value("greedy")  # the API's default
    assert level.locator("option").all_inner_texts() == [
        "Zufall (irgendein erlaubter Zug)",
        "Gierig (Standard)",
        "Stark (sucht, spielt gut)",
    ]
    expect(page.locator('label[for="clock-stand-in"]')).to_have_text("Ersatz-Bot")
    page.select_option("#clock-stand-in", "strong")
    page.fill("#create-name", "Ann")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/v1/games")) as sent:
        page.click("#create-form button[type=submit]")
    body = json.loads(sent.value.post_data or "{}")
    assert body["clock"]["stand_in"] == "strong", body
    assert body["clock"]["mode"] == "per_decision", body
    expect(page.locator("#seats")).to_contain_text("Ann")
    game_id = page.url.rsplit("/", 1)[-1]
    view = page.request.get(f"/v1/games/{game_id}").json()
    assert view["clock"]["stand_in"] == "strong", view["clock"]
