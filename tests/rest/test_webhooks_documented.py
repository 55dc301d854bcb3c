"""The OpenAPI ``webhooks`` object describes what the sender really sends: real deliveries of a
played game (events through each owner's view, "your turn" notices with and without a clock) are
valid against the declared body schemas in strict mode, and a real request's headers match the
declared ones."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from standardwebhooks.webhooks import Webhook

from domain.engine import JSON
from domain.model.webhooks import ClaimedDelivery
from domain.registry import default_registry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.webhooks import RetryPolicy, WebhookService, new_secret
from persistence.outbound.webhook_sender import TargetGuard, WebhookSender
from tests.support.contract import closed
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock
from tests.support.json_values import untyped
from tests.support.webhooks import Receiver, running_receiver

pytestmark = pytest.mark.timeout(60)


def body_validator(document: dict[str, Any], hook: str) -> Draft202012Validator:
    schema = document["webhooks"][hook]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator({**schema, "components": closed(document["components"])})


@cache
def played_deliveries(clocked: bool) -> list[tuple[str, dict[str, Any]]]:
    """Every delivery of a whole Carcassonne game, with a player's endpoint (every event and its
    turns) and a host's (every event, as a spectator sees it): (kind, payload)."""
    store = FakeRepository()
    games = Services.build(lambda: FakeUnitOfWork(store), default_registry(), FakePublisher(), ManualClock())
    webhooks = WebhookService(games.core, lambda url: None)
    players = PlayerService(games.core, games.seats)
    ann = players.create("Ann")
    clock: dict[str, JSON] | None = {"mode": "per_decision", "seconds": 60} if clocked else None
    created = games.lobby.create_game("carcassonne", {}, "seed", clock=clock)
    game_id = created.match.id
    tokens = [players.join(game_id, ann.token, None).token, games.seats.join(game_id, "Bob").token]
    webhooks.register(ann.token, "https://ann.example/all", ["all", "your_turn"], None)
    webhooks.register(created.host_token, "https://host.example/", ["all"], game_id)
    games.seats.start(game_id, created.host_token)
    chooser = random.Random(7)
    while not games.core.load(game_id).is_over:
        for token in tokens:
            pending = games.play.pending(game_id, token)
            if pending.choices:
                games.play.submit(game_id, token, chooser.choice(pending.choices))
                break
    return [(d.kind, untyped(d.payload)) for d in store.webhooks.outbox]


def test_every_delivery_of_a_game_matches_its_declared_schema(document: dict[str, Any]) -> None:
    event = body_validator(document, "gameEvent")
    turn = body_validator(document, "yourTurn")
    clocked = played_deliveries(True)
    deliveries = played_deliveries(False) + clocked
    assert any(p.get("deadline") for _, p in clocked)
    kinds = {payload["type"] for _, payload in deliveries}
    assert kinds == {"event", "your_turn"}
    for kind, payload in deliveries:
        validator = turn if payload["type"] == "your_turn" else event
        errors = [e.message for e in validator.iter_errors(payload)]
        assert not errors, (kind, payload, errors)
    assert any(p["seat"] is None for _, p in deliveries)  # the host's endpoint
    kinds_sent = {p["event"]["type"] for _, p in deliveries if p["type"] == "event"}
    assert {"game_started", "tile_placed", "game_over"} <= kinds_sent
    wrong = {**next(p for _, p in deliveries if p["type"] == "event")}
    wrong["event"] = {**wrong["event"], "type": "no_such_event"}
    assert not event.is_valid(wrong)  # the event is typed by the game's schemas


def test_a_payload_with_an_unknown_field_or_a_missing_one_is_refused(document: dict[str, Any]) -> None:
    turn = body_validator(document, "yourTurn")
    _, payload = next(d for d in played_deliveries(False) if d[1]["type"] == "your_turn")
    assert turn.is_valid(payload)
    assert not turn.is_valid({**payload, "extra": 1})
    assert not turn.is_valid({k: v for k, v in payload.items() if k != "decision_version"})


def test_a_real_request_carries_the_declared_headers_and_a_valid_signature(
    document: dict[str, Any],
) -> None:
    with running_receiver() as receiver:
        sent_and_checked(document, receiver)


def sent_and_checked(document: dict[str, Any], receiver: Receiver) -> None:
    _, payload = next(d for d in played_deliveries(False) if d[1]["type"] == "your_turn")
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True)
    secret = new_secret()
    url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    claimed = ClaimedDelivery(1, "msg_" + "ab" * 16, "ep", url, secret, body, 0, datetime.now(UTC))
    guard = TargetGuard(allow_private=True)
    storage = FakeUnitOfWork(FakeRepository())
    sender = WebhookSender(
        lambda: storage, guard.checked_address, RetryPolicy(1.0, 10.0, timedelta(hours=1)), 5.0, 1024, 1.0
    )

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
