"""PostgreSQL cut off is answered, not endured (issue 31 item 1): a proxy between the server and
PostgreSQL stops forwarding; a submit, a read, GraphQL and ``/readyz`` each get their answer within
a client timeout of 10 s (``503 database_unavailable`` with ``Retry-After``; GraphQL's code), on a
connection the server keeps; once healed, the same server process answers again, a refused submit
retried with its ``Idempotency-Key`` lands, and every acknowledged move is stored as answered. A
server started while its database refuses connections waits and serves once it is there."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url

from persistence.migrate import migrate
from tests.support.databases import postgres_database_url
from tests.support.http import auth
from tests.support.live import GAME_EVENTS, graphql_socket, stream_errors
from tests.support.play import all_events, start_game
from tests.support.servers import ServerProcess, free_port
from tests.support.tcp_proxy import PausableProxy
from tests.support.waiting import eventually

pytestmark = [pytest.mark.timeout(300), pytest.mark.postgres]

ANSWER_WITHIN = 10.0
"""The client's timeout: a request that has no answer by then fails the test."""


@pytest.fixture
def database() -> Iterator[str]:
    with postgres_database_url() as url:
        migrate(url)
        yield url


def through(url: str, port: int) -> str:
    return make_url(url).set(host="127.0.0.1", port=port).render_as_string(hide_password=False)


def submit_pending(http: httpx.Client, game_id: str, token: str, key: str) -> httpx.Response | None:
    pending = http.get(f"/v1/games/{game_id}/choices", headers=auth(token)).json()
    if not pending["choices"] or (pending["decision"] or {}).get("your_sealed_choice"):
        return None
    return http.post(
        f"/v1/games/{game_id}/choices",
        json={"choice": pending["choices"][0], "decision_version": pending["decision_version"]},
        headers={**auth(token), "Idempotency-Key": key},
    )


def error_codes(message: dict[str, Any]) -> list[str]:
    """The codes of a subscription's ``error`` message, or of the errors of its ``next``."""
    return [error.get("extensions", {}).get("code") for error in stream_errors(message)]


async def subscribe_through(
    base: str, game_id: str, cut: Callable[[], None], heal: Callable[[], None]
) -> None:
    """On one websocket: a subscription made during the cut fails with the retryable code, and
    once healed a new subscription on the same socket gets the game's events."""
    async with graphql_socket(base, game=game_id) as socket:
        cut()
        await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
        failed = await socket.receive(timeout=ANSWER_WITHIN)
        assert failed["type"] in ("error", "next"), failed
        assert error_codes(failed) == ["database_unavailable"], failed
        heal()

        async def resubscribed() -> dict[str, Any]:
            await socket.subscribe(GAME_EVENTS, {"gameId": game_id, "after": 0})
            while True:
                message = await socket.receive(timeout=30)
                if message["type"] == "next" or message["type"] == "error":
                    return message

        message = await resubscribed()
        while error_codes(message):  # the pool may still be finding its connections again
            message = await resubscribed()
        assert message["type"] == "next" and message["payload"]["data"]["gameEvents"]["seq"] == 1, message


def acknowledged_events(answers: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {event["seq"]: event for answer in answers for event in answer["events"]}


def test_a_partition_is_answered_503_and_the_server_comes_back_without_a_restart(
    database: str, tmp_path: Path
) -> None:
    target = make_url(database)
    proxy = PausableProxy(target.host or "127.0.0.1", target.port or 5432)
    server = ServerProcess(
        # a statement may wait 3 s, a connection 3 s: a request learns within about 7 s
        {
            "TABLETOP_DATABASE_URL": through(database, proxy.port),
            "TABLETOP_DB_STATEMENT_TIMEOUT_SECONDS": "3",
            "TABLETOP_DB_CONNECT_TIMEOUT_SECONDS": "3",
        },
        tmp_path,
    )
    try:
        server.start()
        pid = server.process.pid if server.process else None
        acknowledged: list[dict[str, Any]] = []
        with httpx.Client(base_url=server.base, timeout=ANSWER_WITHIN) as http:
            game, tokens = start_game(http, "duel", 2, {"rounds": 3})
            game_id = game["id"]
            sent = submit_pending(http, game_id, tokens[0], secrets.token_hex(16))
            assert sent is not None and sent.status_code == 200, sent
            acknowledged.append(sent.json())

            proxy.pause()
            key = secrets.token_hex(16)
            refused = http.post(
                f"/v1/games/{game_id}/choices",
                json={"choice": {"card": 2}},
                headers={**auth(tokens[1]), "Idempotency-Key": key},
            )
            assert refused.status_code == 503, refused.text
            assert refused.json()["code"] == "database_unavailable"
            assert int(refused.headers["retry-after"]) >= 1
            read = http.get(f"/v1/games/{game_id}", headers={"Accept-Language": "fr"})
            assert read.status_code == 503 and read.headers["content-language"] == "fr"
            graphql = http.post("/graphql", json={"query": f'{{ game(id: "{game_id}") {{ __typename }} }}'})
            assert graphql.json()["errors"][0]["extensions"]["code"] == "database_unavailable"
            ready = http.get("/readyz")
            assert ready.status_code == 503 and ready.json()["checks"]["database"] is False

            proxy.resume()
            eventually(lambda: http.get("/readyz").status_code == 200, 60, "ready between the cuts")
            asyncio.run(subscribe_through(server.base, game_id, proxy.pause, proxy.resume))
            eventually(lambda: http.get("/readyz").status_code == 200, 60, "ready again")
            retried = http.post(
                f"/v1/games/{game_id}/choices",
                json={"choice": {"card": 2}},
                headers={**auth(tokens[1]), "Idempotency-Key": key},
            )
            assert retried.status_code == 200, retried.text
            acknowledged.append(retried.json())
            for _ in range(20):  # play on to the end on the same server
                moved = False
                for token in tokens:
                    answer = submit_pending(http, game_id, token, secrets.token_hex(16))
                    if answer is not None:
                        assert answer.status_code == 200, answer.text
                        acknowledged.append(answer.json())
                        moved = True
                if not moved:
                    break
            assert http.get(f"/v1/games/{game_id}").json()["status"] == "finished"
            stored = {event["seq"]: event for event in all_events(http, game_id, tokens[0])}
        assert server.process is not None and server.process.pid == pid and server.process.poll() is None
        for seq, event in acknowledged_events(acknowledged).items():
            assert stored[seq]["type"] == event["type"]
    finally:
        server.stop()
        proxy.close()


def test_a_server_started_while_the_database_refuses_connections_waits_for_it(
    database: str, tmp_path: Path
) -> None:
    target = make_url(database)
    port = free_port()  # nothing listens there yet: every connection is refused
    server = ServerProcess({"TABLETOP_DATABASE_URL": through(database, port)}, tmp_path)
    proxy: PausableProxy | None = None
    try:
        server.start(wait=False)
        eventually(lambda: "database not reachable yet" in server.stderr(), 60, "a retry logged")
        assert server.process is not None and server.process.poll() is None
        proxy = PausableProxy(target.host or "127.0.0.1", target.port or 5432, port)
        server.wait_healthy()
        with httpx.Client(base_url=server.base, timeout=ANSWER_WITHIN) as http:
            assert http.get("/readyz").status_code == 200
            assert http.post("/v1/games", json={"type": "duel"}).status_code == 201
    finally:
        server.stop()
        if proxy is not None:
            proxy.close()
