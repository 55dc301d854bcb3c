"""The rate limiter (issue 10 item 8): invented tokens cannot buy fresh budgets, only configured
proxies are believed about the client address, and every limited response says where it stands.

The limiter's clock is a fake here: a sliding window counter lets a request through when a window
edge passes (the previous window's weight drops), so on a slow machine a real clock made these
counts depend on where in its window a test happened to run. Time moves only when a test says so.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import limits.aio.storage.memory
import limits.aio.strategies
import pytest
from fastapi.testclient import TestClient

import api.edge.rate_limits
from tests.support.client import app_with_test_game, make_settings
from tests.support.databases import reachable_redis

BURST = 5


class FakeClock:
    """Stands in for the ``time`` module where the limiter and its store read the time."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0  # a multiple of every window here: the start of one

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    for module in (limits.aio.strategies, limits.aio.storage.memory, api.edge.rate_limits):
        monkeypatch.setattr(module, "time", fake)  # fails loudly if a module stops reading ``time``
    return fake


def limited_client(tmp_path: Path, address: str = "203.0.113.7", **overrides: object) -> TestClient:
    values: dict[str, object] = {"rate_limit_per_second": 1.0, "rate_limit_burst": BURST, **overrides}
    settings = make_settings(tmp_path, **values)
    return TestClient(app_with_test_game(settings), client=(address, 5000))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with limited_client(tmp_path) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_invented_bearer_tokens_draw_on_the_client_address_budget(client: TestClient) -> None:
    statuses = [client.get("/v1/games", headers=bearer(f"invented-{n}")).status_code for n in range(12)]
    assert statuses[:BURST] == [200] * BURST
    assert statuses[BURST:] == [429] * (12 - BURST)
    assert client.get("/v1/games").status_code == 429
    assert client.get("/healthz").status_code == 200


def test_a_token_that_authenticated_gets_its_own_budget(tmp_path: Path) -> None:
    with limited_client(tmp_path, rate_limit_burst=BURST * 2, rate_limit_per_second=2.0) as client:
        game = client.post("/v1/games", json={"type": "duel"}).json()
        host = bearer(game["host_token"])
        assert client.get(f"/v1/games/{game['id']}", headers=host).status_code == 200  # recognised
        spent = [client.get("/v1/games").status_code for _ in range(BURST * 2)]
        assert spent[-1] == 429, "the address budget should be spent by now"
        own = [client.get(f"/v1/games/{game['id']}", headers=host).status_code for _ in range(BURST)]
        assert own == [200] * BURST


def test_limited_responses_carry_the_ratelimit_headers_and_a_refusal_says_when_to_retry(
    client: TestClient,
) -> None:
    first = client.get("/v1/games")
    assert first.headers["ratelimit-limit"] == str(BURST)
    assert first.headers["ratelimit-remaining"] == str(BURST - 1)
    assert int(first.headers["ratelimit-reset"]) >= 0
    assert first.headers["ratelimit-policy"] == f"{BURST};w={BURST}"
    for _ in range(BURST):
        refused = client.get("/v1/games")
    assert refused.status_code == 429
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "rate_limited"
    assert refused.headers["ratelimit-remaining"] == "0"
    assert 1 <= int(refused.headers["retry-after"]) <= BURST
    assert "ratelimit-limit" not in client.get("/healthz").headers


def test_the_budget_comes_back_as_the_window_slides(client: TestClient, clock: FakeClock) -> None:
    assert [client.get("/v1/games").status_code for _ in range(BURST + 1)] == [200] * BURST + [429]
    clock.advance(BURST - 0.01)  # still inside the window
    assert client.get("/v1/games").status_code == 429
    clock.advance(0.01 + BURST * 0.2)  # a fifth into the next window: a fifth of the budget is back
    assert client.get("/v1/games").status_code == 200
    assert client.get("/v1/games").status_code == 429
    clock.advance(BURST * 2)  # two windows later the whole budget is back
    assert [client.get("/v1/games").status_code for _ in range(BURST + 1)] == [200] * BURST + [429]


def test_x_forwarded_for_is_ignored_unless_the_peer_is_a_configured_proxy(tmp_path: Path) -> None:
    with limited_client(tmp_path) as client:
        statuses = [
            client.get("/v1/games", headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
            for n in range(BURST + 1)
        ]
        assert statuses[-1] == 429, "a client-written X-Forwarded-For bought a fresh budget"


def test_behind_a_configured_proxy_each_client_has_its_own_budget_and_cannot_spoof_another(
    tmp_path: Path,
) -> None:
    with limited_client(tmp_path, address="10.0.0.2", trusted_proxies="10.0.0.0/24") as client:

        def via_proxy(client_wrote: str | None, real_client: str) -> int:
            # The proxy appends the address it saw to whatever the client sent.
            chain = f"{client_wrote}, {real_client}" if client_wrote else real_client
            status: int = client.get("/v1/games", headers={"X-Forwarded-For": chain}).status_code
            return status

        assert [via_proxy(None, "198.51.100.1") for _ in range(BURST + 1)][-1] == 429
        assert via_proxy(None, "198.51.100.2") == 200
        # 198.51.100.1 pretending to be someone else is still 198.51.100.1.
        assert via_proxy("192.0.2.99", "198.51.100.1") == 429


@pytest.mark.redis
def test_with_redis_two_instances_draw_on_one_budget(tmp_path: Path) -> None:
    """Two apps (two instances: separate processes' worth of state) on one Redis: a client
    spreading its requests over both gets no more than from one."""
    shared: dict[str, Any] = {
        "redis_url": reachable_redis(),
        # Redis expires the window's key on its own clock (after two windows): a minute each, so
        # a slow run cannot outlast it.
        "rate_limit_per_second": BURST / 60,
        # A fresh key space, so parallel runs on the same Redis do not share budgets.
        "rate_limit_prefix": f"test-{secrets.token_hex(6)}",
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with limited_client(tmp_path / "a", **shared) as a, limited_client(tmp_path / "b", **shared) as b:
        statuses = [(a if n % 2 == 0 else b).get("/v1/games").status_code for n in range(BURST * 2)]
        assert statuses[:BURST] == [200] * BURST
        assert statuses[BURST:] == [429] * BURST
        assert b.get("/v1/games").headers["ratelimit-remaining"] == "0"
