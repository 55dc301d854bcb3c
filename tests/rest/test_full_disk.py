"""A full SQLite disk is answered, not endured (issue 31 item 1): every request gets an HTTP answer
(a write ``503 database_unavailable`` with ``Retry-After``, a read as usual), ``/readyz`` says not
ready while the database cannot store a change, and once there is room again the same server
stores, with every acknowledged change kept. The disk fills without root: SQLite's
``PRAGMA max_page_count`` on every connection the server takes from its pool."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text

from tests.support.client import app_with_test_game, make_settings
from tests.support.http import auth
from tests.support.waiting import eventually

ROOMY = 1_073_741_823


class Disk:
    """The page cap every pooled connection gets at checkout: ``fill`` caps the file at its size
    now, ``free`` lifts the cap."""

    def __init__(self, client: TestClient) -> None:
        self.engine = client.app.state.container.db_engine  # type: ignore[attr-defined]
        self.cap = ROOMY
        event.listen(self.engine, "checkout", self._checkout)

    def _checkout(self, dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count = {self.cap}")

    def fill(self) -> None:
        with self.engine.connect() as connection:
            self.cap = int(connection.execute(text("PRAGMA page_count")).scalar_one())

    def free(self) -> None:
        self.cap = ROOMY


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # Every exception that escapes the app is raised here: a request the server would leave
    # without an answer (or answer with a 500) fails the test.
    with TestClient(app_with_test_game(make_settings(tmp_path))) as test_client:
        yield test_client


def started_duel(client: TestClient) -> tuple[str, list[str]]:
    game = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 3}}).json()
    tokens = [client.post(f"/v1/games/{game['id']}/seats", json={"name": n}).json()["token"] for n in "ab"]
    assert client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])).status_code == 200
    return game["id"], tokens


def test_a_full_disk_answers_503_readyz_false_and_recovers_without_losing_anything(
    client: TestClient,
) -> None:
    disk = Disk(client)
    duels = [started_duel(client) for _ in range(4)]
    assert client.get("/readyz").json()["checks"]["database"] is True
    disk.fill()

    acknowledged_games: list[str] = []
    refused_keys: list[str] = []
    answers: list[int] = []
    for _ in range(40):
        key = secrets.token_hex(16)
        created = client.post("/v1/games", json={"type": "duel"}, headers={"Idempotency-Key": key})
        answers.append(created.status_code)
        if created.status_code == 201:
            acknowledged_games.append(created.json()["id"])
        else:
            assert created.status_code == 503, created.text
            problem = created.json()
            assert problem["code"] == "database_unavailable"
            assert created.headers["content-type"] == "application/problem+json"
            assert int(created.headers["retry-after"]) >= 1
            refused_keys.append(key)
    acknowledged_moves: dict[str, int] = {}
    for game_id, tokens in duels:
        for token, card in zip(tokens, (1, 2), strict=True):
            sent = client.post(
                f"/v1/games/{game_id}/choices", json={"choice": {"card": card}}, headers=auth(token)
            )
            assert sent.status_code in (200, 503), sent.text
            answers.append(sent.status_code)
            if sent.status_code == 200:
                acknowledged_moves[game_id] = sent.json()["version"]
    assert 503 in answers, answers  # the disk really was full
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json() == {"status": "not_ready", "checks": {"database": False}}
    german = client.post("/v1/games", json={"type": "duel"}, headers={"Accept-Language": "de"})
    assert german.status_code == 503 and german.headers["content-language"] == "de"
    assert "Datenbank" in german.json()["detail"]
    graphql = client.post(
        "/graphql", json={"query": 'mutation { createGame(type: "duel") { ... on GameCreated { id } } }'}
    )
    assert graphql.status_code == 200
    error = graphql.json()["errors"][0]
    assert error["extensions"]["code"] == "database_unavailable"
    assert error["extensions"]["retry_after"] >= 1
    for game_id, _ in duels:  # reads go on
        assert client.get(f"/v1/games/{game_id}").status_code == 200

    disk.free()
    eventually(lambda: client.get("/readyz").status_code == 200, 30, "ready again")
    for key in refused_keys:
        retried = client.post("/v1/games", json={"type": "duel"}, headers={"Idempotency-Key": key})
        assert retried.status_code == 201, retried.text
    for game_id in acknowledged_games:
        assert client.get(f"/v1/games/{game_id}").status_code == 200
    for game_id, version in acknowledged_moves.items():
        assert client.get(f"/v1/games/{game_id}").json()["version"] >= version
    for game_id, tokens in duels:  # play goes on where it stopped
        for token in tokens:
            pending = client.get(f"/v1/games/{game_id}/choices", headers=auth(token)).json()
            if pending["choices"] and not (pending["decision"] or {}).get("your_sealed_choice"):
                sent = client.post(
                    f"/v1/games/{game_id}/choices",
                    json={"choice": pending["choices"][0]},
                    headers=auth(token),
                )
                assert sent.status_code == 200, sent.text
