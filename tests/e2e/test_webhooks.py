"""Webhooks end to end: two instances on PostgreSQL send to real receivers on 127.0.0.1.

The receivers verify every Standard Webhooks signature and fail on purpose (5xx answers, answers
slower than the sender's timeout, connection refused until one of them starts); one instance is
killed with SIGKILL mid-game. Every expected delivery must still arrive, in order per game,
exactly once after de-duplication by ``webhook-id``, with exactly what its owner may see.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from standardwebhooks.webhooks import Webhook

from persistence.migrate import migrate
from tests.support.databases import postgres_database_url, reachable_redis
from tests.support.http import auth
from tests.support.play import all_events
from tests.support.servers import free_port, running_servers

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(300)]

SENDER = {
    "TABLETOP_WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",
    "TABLETOP_WEBHOOK_TIMEOUT_SECONDS": "1",
    "TABLETOP_WEBHOOK_RETRY_BASE_SECONDS": "0.2",
    "TABLETOP_WEBHOOK_RETRY_MAX_SECONDS": "1",
    "TABLETOP_WEBHOOK_POLL_SECONDS": "0.1",
}


class Receiver:
    """An HTTP endpoint that checks signatures and misbehaves on a fixed schedule."""

    def __init__(self, port: int, flaky: bool) -> None:
        self.port = port
        self.flaky = flaky
        self.secrets: list[str] = []
        self.received: list[tuple[str, dict[str, Any]]] = []
        self.bad_signatures = 0
        self.requests = 0
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                with receiver._lock:
                    receiver.requests += 1
                    number = receiver.requests
                if receiver.flaky and number % 4 == 1:
                    self._answer(503)
                    return
                if receiver.flaky and number % 6 == 3:
                    time.sleep(1.6)  # past the sender's 1 s timeout: it will send again
                try:
                    payload = receiver.verify(body, dict(self.headers))
                except ValueError:
                    with receiver._lock:
                        receiver.bad_signatures += 1
                    self._answer(400)
                    return
                with receiver._lock:
                    receiver.received.append((self.headers["webhook-id"], payload))
                self._answer(204)

            def _answer(self, status: int) -> None:
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def verify(self, body: bytes, headers: dict[str, str]) -> Any:
        """The payload, if one of the endpoints' secrets signed it (else ValueError)."""
        for secret in self.secrets:
            try:
                return Webhook(secret).verify(body, headers)
            except Exception:
                continue
        raise ValueError("no endpoint secret matches the signature")

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def unique(self) -> list[tuple[str, dict[str, Any]]]:
        """First arrival of each webhook-id, in arrival order."""
        seen: set[str] = set()
        found = []
        with self._lock:
            for message_id, payload in self.received:
                if message_id not in seen:
                    seen.add(message_id)
                    found.append((message_id, payload))
        return found


@pytest.fixture(scope="module")
def cluster_env() -> Iterator[dict[str, str]]:
    redis_url = reachable_redis()
    with postgres_database_url() as database_url:
        migrate(database_url)
        yield {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_REDIS_URL": redis_url, **SENDER}


def play_as(http: httpx.Client, game_id: str, token: str, timeout: float = 60) -> None:
    """Play the seat's first legal choice whenever it has one, until the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if http.get(f"/v1/games/{game_id}").json()["status"] != "in_progress":
            return
        pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(token)).json()
        if pending["choices"] and pending["decision"]["your_sealed_choice"] is None:
            body = {"choice": pending["choices"][-1], "version": pending["version"]}
            answer = http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(token))
            assert answer.status_code in (200, 409), answer.text
        else:
            time.sleep(0.05)
    raise AssertionError(f"game {game_id} did not end")


def wait_delivered(
    http: httpx.Client, webhook_id: str, token: str, timeout: float = 120
) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        listed = http.get(f"/v1/webhooks/{webhook_id}/deliveries", headers=auth(token))
        assert listed.status_code == 200, listed.text
        deliveries: list[dict[str, Any]] = listed.json()
        if deliveries and all(d["status"] == "delivered" for d in deliveries):
            return deliveries
        assert not [d for d in deliveries if d["status"] == "failed"], deliveries
        time.sleep(0.3)
    raise AssertionError(f"deliveries of {webhook_id} did not all arrive")


def test_every_delivery_arrives_once_in_order_despite_failures_and_a_killed_instance(
    cluster_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    flaky = Receiver(free_port(), flaky=True).start()
    late = Receiver(free_port(), flaky=False)  # refuses connections until it starts
    log_dir = tmp_path_factory.mktemp("webhooks")
    with running_servers([cluster_env, cluster_env], log_dir) as (a, b):
        http_a = httpx.Client(base_url=a.base, timeout=30)
        http_b = httpx.Client(base_url=b.base, timeout=30)
        try:
            ann = http_a.post("/v1/players", json={"name": "Ann"}).json()
            player_hook = http_b.post(
                "/v1/webhooks", json={"url": late.url, "filters": ["all"]}, headers=auth(ann["token"])
            )
            assert player_hook.status_code == 201, player_hook.text
            late.secrets.append(player_hook.json()["secret"])

            games = []
            for n in range(2):
                http = (http_a, http_b)[n]
                game = http.post("/v1/games", json={"type": "duel", "options": {"rounds": 3}}).json()
                seat = http.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(ann["token"]))
                http.post(
                    f"/v1/games/{game['id']}/seats",
                    json={"bot": "random"},
                    headers=auth(game["host_token"]),
                )
                host_hook = http.post(
                    "/v1/webhooks",
                    json={"url": flaky.url, "filters": ["all"], "game_id": game["id"]},
                    headers=auth(game["host_token"]),
                ).json()
                flaky.secrets.append(host_hook["secret"])
                games.append((game, seat.json()["token"], host_hook))
            for game, _, _ in games:
                started = http_a.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
                assert started.status_code == 200

            play_as(http_a, games[0][0]["id"], games[0][1])
            b.kill()  # SIGKILL mid-way: its leases run out and the other instance takes over
            late.start()
            play_as(http_a, games[1][0]["id"], games[1][1])
            b.start()

            for game, _, hook in games:
                wait_delivered(http_a, hook["id"], game["host_token"])
            ann_deliveries = wait_delivered(http_b, player_hook.json()["id"], ann["token"])

            assert flaky.bad_signatures == 0 and late.bad_signatures == 0
            for game, seat_token, _ in games:
                spectator = all_events(http_a, game["id"])
                as_ann = all_events(http_a, game["id"], seat_token)
                got = [p for _, p in flaky.unique() if p["game_id"] == game["id"]]
                # The host's endpoint was registered after both seats joined (seq 1 and 2).
                assert [p["event"] for p in got] == [e for e in spectator if e["seq"] > 2]
                mine = [p for _, p in late.unique() if p["game_id"] == game["id"]]
                assert [p["event"] for p in mine] == as_ann  # in order, once, Ann's own view
            sent_ids = {d["webhook_id"] for d in ann_deliveries}
            assert sent_ids == {message_id for message_id, _ in late.unique()}
            errors = {
                attempt["error"] or str(attempt["status_code"])
                for d in ann_deliveries
                for attempt in d["history"]
            }
            assert any(e and "Connect" in e for e in errors), errors  # connection refused
            host_attempts = [
                attempt
                for game, _, hook in games
                for d in http_a.get(
                    f"/v1/webhooks/{hook['id']}/deliveries", headers=auth(game["host_token"])
                ).json()
                for attempt in d["history"]
            ]
            assert any(a["status_code"] == 503 for a in host_attempts)
            assert any((a["error"] or "").startswith("timed out") for a in host_attempts)
            assert len(flaky.received) > len(flaky.unique())  # duplicates did happen, de-duplicated
        finally:
            http_a.close()
            http_b.close()
            flaky.stop()
            late.stop()


def test_private_targets_are_refused_by_default(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        ann = http.post("/v1/players", json={"name": "Ann"}).json()
        for url in ("http://127.0.0.1:9/hook", "http://169.254.169.254/latest", "http://10.0.0.1/"):
            refused = http.post(
                "/v1/webhooks", json={"url": url, "filters": ["all"]}, headers=auth(ann["token"])
            )
            assert refused.status_code == 422, refused.text
            assert refused.json()["code"] == "webhook_target_refused"
