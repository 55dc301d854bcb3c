"""E-mail notices from the web client (German phone): a seat's page offers to e-mail its player's
turns, saves the address (refusing a malformed one with the server's words), and once the page
is closed the seat's turn reaches the mailbox (a local SMTP sink); "stop e-mails" removes it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import click_first_move, create_game, join_game, new_page
from tests.support.http import auth
from tests.support.servers import ServerProcess, free_port
from tests.support.smtp_sink import SmtpSink
from tests.support.waiting import eventually

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de"}


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, SmtpSink]]:
    smtp = SmtpSink(free_port()).start()
    folder = tmp_path_factory.mktemp("mail")
    port = free_port()
    server = ServerProcess(
        {
            "TABLETOP_DATABASE_URL": f"sqlite:///{folder / 'tabletop.db'}",
            "TABLETOP_AUTO_MIGRATE": "true",
            "TABLETOP_SMTP_HOST": "127.0.0.1",
            "TABLETOP_SMTP_PORT": str(smtp.port),
            "TABLETOP_SMTP_TLS": "none",
            "TABLETOP_SMTP_FROM": "Tabletop <notices@example.org>",
            "TABLETOP_PUBLIC_URL": f"http://127.0.0.1:{port}",  # the opt-out links' origin
            "TABLETOP_NOTICE_POLL_SECONDS": "0.1",
            "TABLETOP_STREAM_HEARTBEAT_SECONDS": "0.5",  # a closed page is seen gone at once
        },
        folder,
        port=port,
    )
    server.start(wait=False)
    server.wait_healthy(timeout=120)
    yield server, smtp
    server.stop()
    smtp.stop()


def test_a_phone_leaves_an_address_and_its_closed_page_is_mailed_its_turn(
    browser: Browser, mail_server: tuple[ServerProcess, SmtpSink], request: pytest.FixtureRequest
) -> None:
    server, smtp = mail_server
    ann: Page = new_page(browser, server.base, request, **PHONE)
    game_id = create_game(ann, "duel", bots=0, name="Ann")
    bob = new_page(browser, server.base, request, locale="de")
    join_game(bob, game_id, "Bob")

    field = ann.locator("#email-address")
    expect(ann.locator("label[for=email-address]")).to_contain_text("Schreib mir eine E-Mail")
    for control in (field, ann.locator("#email-save")):
        box = control.bounding_box()
        assert box is not None and box["height"] >= 44  # a finger's target on a phone
    field.fill("ann@example")  # no dot in the domain: the server refuses it, in German
    ann.locator("#email-save").tap()
    expect(ann.locator("#email-notices [role=alert]")).not_to_be_empty()
    field.fill("ann@example.org")
    ann.locator("#email-save").tap()
    expect(ann.locator("#email-on")).to_have_text("Zug-Hinweise gehen per E-Mail an ann@example.org.")
    token: str = ann.evaluate("localStorage.getItem('tabletop.player')")
    stored = httpx.get(f"{server.base}/v1/players/me/email", headers=auth(token)).json()
    assert (stored["email"], stored["language"], stored["enabled"]) == ("ann@example.org", "de", True)

    ann.locator("#start").tap()
    expect(ann.locator("#actions button.choice").first).to_be_visible()
    assert click_first_move(ann)  # with her page open, nothing is mailed
    ann.close()
    seats = f"{server.base}/v1/games/{game_id}"
    eventually(lambda: not httpx.get(seats).json()["seats"][0]["connected"], what="Ann's page closed")
    expect(bob.locator("#actions button.choice").first).to_be_visible()
    assert click_first_move(bob)  # Ann's turn now, her page closed
    mail = eventually(lambda: smtp.received() or None, what="an e-mail to Ann")
    assert [(m["To"], m["Subject"].split(":")[0]) for m in mail] == [("ann@example.org", "Du bist am Zug")]

    # Back on a page, "stop e-mails" removes the address.
    again = new_page(browser, server.base, request, **PHONE)
    again.goto("/play/")
    again.evaluate("token => localStorage.setItem('tabletop.player', token)", token)
    again.goto(f"/play/#/mine/{game_id}/0")
    again.locator("#email-off").tap()
    expect(again.locator("#email-address")).to_be_visible()
    assert httpx.get(f"{server.base}/v1/players/me/email", headers=auth(token)).json()["email"] is None


def test_no_address_field_while_the_server_sends_no_mail(open_page: Callable[..., Page]) -> None:
    page = open_page(**PHONE)
    create_game(page, "duel", bots=1, name="Ann")
    expect(page.locator("#seats")).to_contain_text("Ann")
    expect(page.locator("#email-notices")).to_have_count(0)
