"""The OpenAPI ``webhooks`` object describes what the sender really sends: real deliveries of a
played game (events through each owner's view, "your turn" notices with and without a clock) are
valid against the declared body schemas in strict mode, and a real request's headers match the
declared ones."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from standardwebhooks.webhooks import Webhook

from api.export import openapi_document
from api.webhook_sender import TargetGuard, WebhookSender
from domain.players import PlayerService
from domain.registry import EngineRegistry
from domain.services import GameService
from domain.webhook_model import ClaimedDelivery
from domain.webhooks import RetryPolicy, WebhookService, new_secret
from tests.duel_game import DuelEngine
from tests.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock
from tests.integration.test_webhook_pinning import Receiver, receiver  # noqa: F401 (fixture)
from tests.rest.test_strict_responses import closed

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi_document()


def body_validator(document: dict[str, Any], hook: str) -> Draft202012Validator:
    schema = document["webhooks"][hook]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": closed(document["components"])})


def played_deliveries(clock: dict[str, Any] | None) -> list[tuple[str, dict[str, Any]]]:
    """Every delivery of a whole game, with a player's and a host's endpoint: (kind, payload)."""
    store = FakeRepository()
    games = GameService(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), ManualClock()
    )
    webhooks = WebhookService(games, lambda url: None)
    players = PlayerService(games)
    ann = players.create("Ann")
    created = games.create_game("duel", {"rounds": 1}, "seed", clock=clock)
    game_id = created.match.id
    seat = players.join(game_id, ann.token, None)
    bob = games.join(game_id, "Bob")
    webhooks.register(ann.token, "https://ann.example/all", ["all", "your_turn"], None)
    webhooks.register(created.host_token, "https://host.example/", ["all"], game_id)
    games.start(game_id, created.host_token)
    games.submit(game_id, bob.token, {"card": 2})
    games.submit(game_id, seat.token, {"card": 3})
    games.submit(game_id, seat.token, {"action": "pass"})
    return [(d.kind, d.payload) for d in store.webhooks.outbox]


def test_every_delivery_of_a_game_matches_its_declared_schema(document: dict[str, Any]) -> None:
    event = body_validator(document, "gameEvent")
    turn = body_validator(document, "yourTurn")
    clocked = played_deliveries({"mode": "per_decision", "seconds": 60})
    deliveries = played_deliveries(None) + clocked
    assert any(p.get("deadline") for _, p in clocked)
    kinds = {payload["type"] for _, payload in deliveries}
    assert kinds == {"event", "your_turn"}
    for kind, payload in deliveries:
        validator = turn if payload["type"] == "your_turn" else event
        errors = [e.message for e in validator.iter_errors(payload)]
        assert not errors, (kind, payload, errors)
    assert any(p["seat"] is None for _, p in deliveries)  # the host's endpoint


def test_a_payload_with_an_unknown_field_or_a_missing_one_is_refused(document: dict[str, Any]) -> None:
    turn = body_validator(document, "yourTurn")
    _, payload = next(d for d in played_deliveries(None) if d[1]["type"] == "your_turn")
    assert turn.is_valid(payload)
    assert not turn.is_valid({**payload, "extra": 1})
    assert not turn.is_valid({k: v for k, v in payload.items() if k != "decision_version"})


def test_a_real_request_carries_the_declared_headers_and_a_valid_signature(
    document: dict[str, Any], receiver: Receiver  # noqa: F811 (the imported fixture)
) -> None:
    _, payload = next(d for d in played_deliveries(None) if d[1]["type"] == "your_turn")
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True)
    secret = new_secret()
    url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    claimed = ClaimedDelivery(1, "msg_" + "ab" * 16, "ep", url, secret, body, 0, datetime.now(UTC))
    guard = TargetGuard(allow_private=True)
    storage = FakeUnitOfWork(FakeRepository())
    sender = WebhookSender(lambda: storage, guard.checked_address,
                           RetryPolicy(1.0, 10.0, timedelta(hours=1)), 5.0, 1024, 1.0)

    async def once() -> None:
        async with sender.client() as client:
            await sender.attempt(client, claimed)

    asyncio.run(once())
    headers, received = receiver.requests[0]
    declared = document["webhooks"]["yourTurn"]["post"]["parameters"]
    for parameter in declared:
        name = parameter["name"]
        assert parameter["required"] and name in headers, name
        assert Draft202012Validator(parameter["schema"]).is_valid(headers[name]), (name, headers[name])
    assert Webhook(secret).verify(received, headers) == payload
    assert body_validator(document, "yourTurn").is_valid(json.loads(received))
