"""Web Push from the web client (German phone): a seat's page offers to notify even when it is
closed, subscribes with the server's VAPID key and registers the subscription for its player;
once the page is closed, the seat's turn reaches the push service (a local one that checks the
VAPID signature and decrypts the message with the browser's key); "turn off" deletes it.

Headless Chromium has no push service of its own (``pushManager.subscribe`` fails without one),
so the page's ``PushManager.prototype.subscribe`` is replaced, before the page loads, by one that
answers the subscription of a browser on the test's push service (keys made in the test), the way
a browser's would: everything else (permission, service worker, the server key, the registration
request, the server's push to that endpoint) is the real path."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from persistence.outbound.notice_sender import new_vapid_keys
from tests.support.browser import click_first_move, create_game, join_game, new_page
from tests.support.http import auth
from tests.support.push_receiver import PushService, Subscriber
from tests.support.servers import ServerProcess, free_port
from tests.support.waiting import eventually

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de"}


@pytest.fixture(scope="module")
def push_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, PushService]]:
    private, public = new_vapid_keys()
    push = PushService(free_port(), server_key=public).start()
    folder = tmp_path_factory.mktemp("push")
    server = ServerProcess(
        {
            "TABLETOP_DATABASE_URL": f"sqlite:///{folder / 'tabletop.db'}",
            "TABLETOP_AUTO_MIGRATE": "true",
            "TABLETOP_VAPID_PRIVATE_KEY": private,
            "TABLETOP_VAPID_SUBJECT": "mailto:operators@example.org",
            "TABLETOP_PUSH_ALLOW_PRIVATE_TARGETS": "true",
            "TABLETOP_NOTICE_POLL_SECONDS": "0.1",
        },
        folder,
    )
    server.start(wait=False)
    server.wait_healthy(timeout=120)
    yield server, push
    server.stop()
    push.stop()


def browser_subscription(subscriber: Subscriber) -> str:
    """An init script: ``pushManager.subscribe`` answers ``subscriber``'s subscription (and
    remembers the key it was asked with); ``getSubscription`` the same once subscribed."""
    keys = subscriber.as_json("de")["keys"]
    return f"""
    (() => {{
      const json = {json.dumps({"endpoint": subscriber.endpoint, "expirationTime": None, "keys": keys})};
      let current = null;
      PushManager.prototype.subscribe = async function (options) {{
        const bytes = new Uint8Array(options.applicationServerKey);
        window.__pushKey = btoa(String.fromCharCode(...bytes))
          .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
        const unsubscribe = async () => {{ current = null; return true; }};
        current = {{ endpoint: json.endpoint, toJSON: () => json, unsubscribe }};
        return current;
      }};
      PushManager.prototype.getSubscription = async function () {{ return current; }};
    }})();
    """


def player_token(page: Page) -> str:
    token: str = page.evaluate("localStorage.getItem('tabletop.player')")
    return token


def test_a_phone_turns_push_on_and_its_closed_page_is_told_its_turn(
    browser: Browser, push_server: tuple[ServerProcess, PushService], request: pytest.FixtureRequest
) -> None:
    server, push = push_server
    subscriber = push.subscribe()
    ann: Page = new_page(browser, server.base, request, permissions=["notifications"], **PHONE)
    ann.add_init_script(browser_subscription(subscriber))
    game_id = create_game(ann, "duel", bots=0, name="Ann")
    bob = new_page(browser, server.base, request, locale="de")
    join_game(bob, game_id, "Bob")

    offer = ann.locator("#push-on")
    expect(offer).to_have_text("Benachrichtige mich auch bei geschlossener Seite")
    box = offer.bounding_box()
    assert box is not None and box["height"] >= 44  # a finger's target on a phone
    offer.tap()
    expect(ann.locator("#push-notices")).to_contain_text("Benachrichtigungen sind auf diesem Gerät an")
    assert (
        ann.evaluate("window.__pushKey") == httpx.get(f"{server.base}/v1/notices").json()["vapid_public_key"]
    )
    worker = "navigator.serviceWorker.getRegistration().then((r) => r?.active?.scriptURL ?? null)"
    assert ann.evaluate(worker) == f"{server.base}/play/sw.js"  # the service worker runs
    token = player_token(ann)
    registered = httpx.get(f"{server.base}/v1/players/me/push-subscriptions", headers=auth(token)).json()
    assert [(s["endpoint"], s["language"]) for s in registered] == [(subscriber.endpoint, "de")]

    ann.locator("#start").tap()
    expect(ann.locator("#actions button.choice").first).to_be_visible()
    assert click_first_move(ann)  # round 1: Ann picks her card with the page open: no push
    path = subscriber.endpoint.removeprefix(push.origin)
    assert push.messages(path) == []
    ann.close()
    seats = f"{server.base}/v1/games/{game_id}"
    eventually(lambda: not httpx.get(seats).json()["seats"][0]["connected"], what="Ann's page closed")
    expect(bob.locator("#actions button.choice").first).to_be_visible()
    assert click_first_move(bob)  # Bob picks: Ann (seat 0) banks or passes next, her page closed

    told: list[dict[str, Any]] = eventually(lambda: push.messages(path) or None, what="a push to Ann")
    assert [(m["kind"], m["title"], m["game_id"], m["seat"]) for m in told] == [
        ("your_turn", "Du bist am Zug", game_id, 0)
    ]
    assert push.refused == []

    # Back on the page, "turn off" deletes the registration.
    again = new_page(browser, server.base, request, permissions=["notifications"], **PHONE)
    again.add_init_script(browser_subscription(subscriber))
    again.goto("/play/")
    again.evaluate(f"localStorage.setItem('tabletop.player', {json.dumps(token)})")
    again.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        ["tabletop.push", json.dumps({"id": registered[0]["id"], "endpoint": subscriber.endpoint})],
    )
    again.goto(f"/play/#/mine/{game_id}/0")
    again.locator("#push-off").tap()
    expect(again.locator("#push-on")).to_be_visible()
    assert httpx.get(f"{server.base}/v1/players/me/push-subscriptions", headers=auth(token)).json() == []


def test_no_offer_while_the_server_sends_no_push(open_page: Callable[..., Page]) -> None:
    page = open_page(permissions=["notifications"], **PHONE)
    create_game(page, "duel", bots=1, name="Ann")
    expect(page.locator("#seats")).to_contain_text("Ann")
    expect(page.locator("#push-on")).to_have_count(0)
