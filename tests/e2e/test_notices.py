"""Notices that reach a closed page, end to end: a real server with VAPID keys and an SMTP server,
a push service on 127.0.0.1 (``tests.support.push_receiver``: checks the VAPID signature and
decrypts the payload with the browser's private key) and an SMTP sink.

A seat whose page is open (a live stream of its own) gets no notice; once it is closed, its
player's browser gets "your turn" (in German, the language it subscribed in) and its address an
e-mail with an opt-out link; following the link stops the e-mails while push goes on; a push
service that answers 410 loses its subscription."""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from persistence.outbound.notice_sender import new_vapid_keys
from tests.support.http import auth
from tests.support.play import game_as, play_first_choice
from tests.support.push_receiver import PushService
from tests.support.servers import free_port, running_server
from tests.support.smtp_sink import SmtpSink
from tests.support.waiting import eventually

pytestmark = pytest.mark.timeout(180)


@dataclass
class Setup:
    base: str
    db: Path
    push: PushService
    smtp: SmtpSink
    public_key: str


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    private, public = new_vapid_keys()
    push = PushService(free_port(), server_key=public).start()
    smtp = SmtpSink(free_port()).start()
    db = tmp_path_factory.mktemp("notices") / "tabletop.db"
    port = free_port()
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{db}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
        "TABLETOP_VAPID_PRIVATE_KEY": private,
        "TABLETOP_VAPID_SUBJECT": "mailto:operators@example.org",
        "TABLETOP_PUSH_ALLOW_PRIVATE_TARGETS": "true",
        "TABLETOP_SMTP_HOST": "127.0.0.1",
        "TABLETOP_SMTP_PORT": str(smtp.port),
        "TABLETOP_SMTP_TLS": "none",
        "TABLETOP_SMTP_FROM": "Tabletop <notices@example.org>",
        "TABLETOP_PUBLIC_URL": f"http://127.0.0.1:{port}",
        "TABLETOP_NOTICE_POLL_SECONDS": "0.1",
        "TABLETOP_STREAM_HEARTBEAT_SECONDS": "0.5",  # the test's page closes at its next line
        "TABLETOP_NOTICE_RETRY_BASE_SECONDS": "0.2",
    }
    try:
        with running_server(env, port=port) as base:
            yield Setup(base, db, push, smtp, public)
    finally:
        push.stop()
        smtp.stop()


def player(http: httpx.Client, name: str) -> str:
    created = http.post("/v1/players", json={"name": name})
    assert created.status_code == 201, created.text
    token: str = created.json()["token"]
    return token


def notice_rows(db: Path, kind: str | None = None) -> list[tuple[Any, ...]]:
    """(channel, kind, seat, status) of every notice written, oldest first."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT channel, kind, seat, status FROM notice_deliveries ORDER BY id"
        ).fetchall()
    return [r for r in rows if kind is None or r[1] == kind]


def sent_pushes(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        count: int = connection.execute(
            "SELECT count(*) FROM notice_deliveries WHERE channel = 'push' AND status = 'sent'"
        ).fetchone()[0]
    return count


class OpenPage:
    """A seat's page: its live stream (SSE) open until ``close``; registered once its first
    event arrived."""

    def __init__(self, base: str, game_id: str, token: str) -> None:
        self.opened = threading.Event()
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._follow, args=(base, game_id, token), daemon=True)
        self.thread.start()
        assert self.opened.wait(30), "the stream did not open"

    def _follow(self, base: str, game_id: str, token: str) -> None:
        with (
            httpx.Client(base_url=base, timeout=60) as http,
            http.stream("GET", f"/v1/games/{game_id}/stream", headers=auth(token)) as stream,
        ):
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    self.opened.set()
                if self.closing.is_set():
                    return

    def close(self) -> None:
        self.closing.set()


def test_your_turn_reaches_a_closed_page_by_push_and_mail_and_the_opt_out_link_stops_mails(
    setup: Setup,
) -> None:
    with httpx.Client(base_url=setup.base, timeout=30) as http:
        channels = http.get("/v1/notices").json()
        assert channels["push"] is True and channels["email"] is True
        assert channels["vapid_public_key"] == setup.public_key

        ann, bea = player(http, "Ann"), player(http, "Bea")
        browser, dropped = setup.push.subscribe(), setup.push.subscribe(gone=True)
        path = browser.endpoint.removeprefix(setup.push.origin)
        for subscriber in (browser, dropped):
            registered = http.post(
                "/v1/players/me/push-subscriptions", json=subscriber.as_json("de"), headers=auth(bea)
            )
            assert registered.status_code == 201, registered.text
        address = http.put(
            "/v1/players/me/email",
            json={"email": "bea@example.org"},
            headers=auth(bea) | {"accept-language": "de"},
        )
        assert address.json() == {"email": "bea@example.org", "language": "de", "enabled": True}
        assert http.get("/v1/players/me/email", headers=auth(ann)).json()["email"] is None  # never to others

        created = http.post("/v1/games", json={"type": "duel", "options": {"rounds": 2}}).json()
        game_id = created["id"]
        tokens = []
        for who in (ann, bea):
            joined = http.post(f"/v1/games/{game_id}/seats", json={}, headers=auth(who))
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])

        page = OpenPage(setup.base, game_id, tokens[1])  # Bea's page is open
        eventually(lambda: game_as(http, game_id, None)["seats"][1]["connected"], what="Bea shown connected")
        assert http.post(f"/v1/games/{game_id}/start", headers=auth(created["host_token"])).status_code == 200
        # Round 1: both pick at once (Bea's turn begins with her page open), then Ann banks or passes.
        played = {play_first_choice(http, game_id, tokens), play_first_choice(http, game_id, tokens)}
        assert played == {0, 1}
        assert game_as(http, game_id, None)["decision"]["seats"] == [0]
        assert notice_rows(setup.db) == []  # an open page is told by the page itself

        page.close()
        eventually(
            lambda: not game_as(http, game_id, None)["seats"][1]["connected"], what="Bea's page closed"
        )
        play_first_choice(http, game_id, tokens)  # Ann's bank or pass: round 2, Bea's turn again

        turn = eventually(lambda: setup.push.messages(path) or None, what="a push")
        assert [m["kind"] for m in turn] == ["your_turn"]
        assert turn[0]["title"] == "Du bist am Zug"
        assert turn[0]["body"] == "Du bist in Duel (test game) am Zug."
        assert turn[0]["game_id"] == game_id and turn[0]["seat"] == 1
        assert turn[0]["url"].endswith(f"/play/#/mine/{game_id}/1")
        assert setup.push.refused == []

        mail = eventually(lambda: setup.smtp.received() or None, what="an e-mail")
        assert len(mail) == 1
        assert mail[0]["To"] == "bea@example.org"
        assert mail[0]["Subject"] == "Du bist am Zug: Duel (test game)"
        assert mail[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        text = mail[0].get_content()
        assert f"/play/#/mine/{game_id}/1" in text
        found = re.search(r"Keine E-Mails mehr: (\S+)", text)
        assert found is not None, text
        link = found.group(1)
        assert mail[0]["List-Unsubscribe"] == f"<{link}>"

        # The dropped browser's subscription is removed once its push service says 410.
        eventually(
            lambda: len(http.get("/v1/players/me/push-subscriptions", headers=auth(bea)).json()) == 1,
            what="the 410 subscription removed",
        )
        assert setup.push.gone_requests == 1

        # Following the link: a page that asks (a GET changes nothing), then its button.
        asked = httpx.get(link)
        assert asked.status_code == 200 and 'method="post"' in asked.text and 'lang="de"' in asked.text
        assert http.get("/v1/players/me/email", headers=auth(bea)).json()["enabled"] is True
        done = httpx.post(link, data={"List-Unsubscribe": "One-Click"})
        assert done.status_code == 200 and "keine E-Mail-Benachrichtigungen mehr" in done.text
        assert http.get("/v1/players/me/email", headers=auth(bea)).json()["enabled"] is False
        assert httpx.post(link[:-3] + "abc").status_code == 404  # a forged signature

        # Round 2 to the end: "game over" reaches Bea's browser, and no e-mail any more.
        while game_as(http, game_id, None)["status"] == "in_progress":
            play_first_choice(http, game_id, tokens)
        eventually(
            lambda: "game_over" in [m["kind"] for m in setup.push.messages(path)],
            what="game over pushed",
        )
        eventually(
            lambda: notice_rows(setup.db, "game_over") == [("push", "game_over", 1, "sent")],
            what="game over recorded as sent",
        )
        assert len(setup.smtp.received()) == 1
        # Exactly once: the browser received one message per push notice sent, each once.
        received = setup.push.messages(path)
        assert len(received) == sent_pushes(setup.db)
        assert [m["kind"] for m in received].count("game_over") == 1
        assert ("push", "your_turn", 1, "failed") in notice_rows(setup.db, "your_turn")  # the 410 one


def test_a_subscription_and_an_address_are_checked(setup: Setup) -> None:
    with httpx.Client(base_url=setup.base) as http:
        bea = player(http, "Bea")
        bad = http.post(
            "/v1/players/me/push-subscriptions",
            json={"endpoint": "https://push.example.org/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}},
            headers=auth(bea),
        )
        assert bad.status_code == 422 and bad.json()["code"] == "invalid_push_subscription"
        wrong = http.put("/v1/players/me/email", json={"email": "not an address"}, headers=auth(bea))
        assert wrong.status_code == 422 and wrong.json()["code"] == "invalid_email"
        assert http.get("/v1/players/me/push-subscriptions").status_code == 401


def test_both_channels_are_off_until_configured(server: str) -> None:
    with httpx.Client(base_url=server) as http:
        assert http.get("/v1/notices").json() == {
            "push": False,
            "email": False,
            "vapid_public_key": None,
            "kinds": ["your_turn", "game_over", "rematch_offered", "tournament_round"],
        }
        bea = player(http, "Bea")
        subscribed = http.post(
            "/v1/players/me/push-subscriptions",
            json=PushService(1).subscribe().as_json("en"),
            headers=auth(bea),
        )
        assert subscribed.status_code == 409 and subscribed.json()["code"] == "notices_off"
        address = http.put("/v1/players/me/email", json={"email": "bea@example.org"}, headers=auth(bea))
        assert address.status_code == 409 and address.json()["code"] == "notices_off"
