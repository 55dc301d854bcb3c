"""The web client under its own Content-Security-Policy (issue 31 item 11): every other browser
test bypasses the policy so that Playwright may evaluate its waits in the page; here nothing is
bypassed, the waits only read the page, and whatever the policy refuses fails the test (the
console's "Content Security Policy" errors are collected by ``new_page``)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.browser import start


def test_the_client_creates_joins_and_plays_live_under_its_policy(open_page: Callable[..., Page]) -> None:
    ann = open_page(bypass_csp=False)
    answer = ann.goto("/play/#/new")
    assert answer is not None and answer.headers["content-security-policy"].endswith("frame-ancestors 'none'")
    ann.select_option("#game-type", "im-schutze-der-burg")
    ann.check("#private")
    ann.fill("#create-name", "Ann")
    ann.fill("#bots", "1")
    ann.click("#create-form button[type=submit]")
    expect(ann.locator("#seats")).to_contain_text(" bot")
    link = ann.locator("#invite-link").input_value()
    bob = open_page(bypass_csp=False)
    bob.goto(link)
    bob.fill("#join-name", "Bob")
    bob.click("#join-form button[type=submit]")
    expect(bob.locator("#seats")).to_contain_text("Bob (you)")
    expect(ann.locator("#seats")).to_contain_text("Bob")  # live, over the GraphQL websocket
    start(ann)
    expect(bob.locator("#seal-pick")).to_be_visible()
