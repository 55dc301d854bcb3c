"""Health, readiness, metrics, JSON logs without secrets, and the request limits."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.support.client import app_with_test_game, make_settings


def test_readyz_reports_the_database(client: TestClient) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "checks": {"database": True}}


def test_metrics_count_requests_by_route_and_games_by_status(client: TestClient) -> None:
    created = client.post("/v1/games", json={"type": "duel"}).json()
    client.get(f"/v1/games/{created['id']}")
    text = client.get("/metrics").text
    assert 'tabletop_http_requests_total{method="POST",route="/v1/games",status="201"} 1.0' in text
    assert 'route="/v1/games/{game_id}"' in text
    assert 'tabletop_games{status="lobby"} 1.0' in text
    assert "tabletop_http_request_duration_seconds_bucket" in text
    assert "tabletop_active_subscriptions 0.0" in text


def test_metrics_count_submits_and_reveals(client: TestClient) -> None:
    game = client.post("/v1/games", json={"type": "duel"}).json()
    tokens = [client.post(f"/v1/games/{game['id']}/seats", json={"name": n}).json()["token"] for n in "ab"]
    client.post(f"/v1/games/{game['id']}/start", headers={"Authorization": f"Bearer {game['host_token']}"})
    for token, card in zip(tokens, (1, 2), strict=True):
        client.post(
            f"/v1/games/{game['id']}/choices",
            json={"choice": {"card": card}},
            headers={"Authorization": f"Bearer {token}"},
        )
    text = client.get("/metrics").text
    assert 'tabletop_submits_total{status="sealed"} 1.0' in text
    assert 'tabletop_submits_total{status="applied"} 1.0' in text
    assert "tabletop_reveals_total 1.0" in text
    # each submit went through the group commit, alone in its transaction here
    assert "tabletop_commit_batch_works_count 2.0" in text
    assert "tabletop_commit_batch_works_sum 2.0" in text


def test_logs_are_json_with_request_id_and_never_contain_tokens(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    logging.getLogger("tabletop").setLevel(logging.INFO)
    created = client.post("/v1/games", json={"type": "duel"}).json()
    token = created["host_token"]
    client.post(
        f"/v1/games/{created['id']}/start",
        headers={"Authorization": f"Bearer {token}", "X-Request-ID": "req-42"},
    )
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    start = next(line for line in lines if line.get("request_id") == "req-42")
    assert start["route"] == "/v1/games/{game_id}/start" and start["status"] == 409
    assert all(token not in json.dumps(line) for line in lines)


def test_body_limit_applies_to_streamed_bodies_without_length(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, max_body_bytes=1000)
    with TestClient(app_with_test_game(settings)) as client:

        def chunks() -> Iterator[bytes]:
            for _ in range(10):
                yield b"x" * 200

        response = client.post("/v1/games", content=chunks(), headers={"content-type": "application/json"})
        assert response.status_code == 413 and response.json()["code"] == "payload_too_large"
        assert client.get("/healthz").status_code == 200
