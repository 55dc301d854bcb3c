"""The webhook outbox with fakes: who gets what, through the per-viewer view, never a leak."""

from __future__ import annotations

import pytest

from domain.errors import Forbidden, InvalidRequest, Unauthorized, WebhookTargetRefused
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.webhooks import WebhookService
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, ManualClock
from tests.support.json_values import untyped


@pytest.fixture
def store() -> FakeRepository:
    return FakeRepository()


@pytest.fixture
def games(store: FakeRepository) -> Services:
    return Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), ManualClock()
    )


def refuse_private(url: str) -> None:
    if "internal" in url:
        raise WebhookTargetRefused("non-public")


@pytest.fixture
def webhooks(games: Services) -> WebhookService:
    return WebhookService(games.core, refuse_private)


def test_each_endpoint_gets_what_its_owner_may_see_and_nothing_more(
    games: Services, webhooks: WebhookService, store: FakeRepository
) -> None:
    players = PlayerService(games.core, games.seats)
    ann = players.create("Ann")
    created = games.lobby.create_game("duel", {"rounds": 1}, "seed")
    game_id = created.match.id
    seat = players.join(game_id, ann.token, None)
    bob = games.seats.join(game_id, "Bob")
    everything = webhooks.register(ann.token, "https://ann.example/all", ["all"], None)
    turns = webhooks.register(ann.token, "https://ann.example/turns", ["your_turn", "game_over"], None)
    host = webhooks.register(created.host_token, "https://host.example/", ["all"], game_id)
    games.seats.start(game_id, created.host_token)
    games.play.submit(game_id, bob.token, {"card": 2})
    games.play.submit(game_id, seat.token, {"card": 3})
    games.play.submit(game_id, seat.token, {"action": "pass"})

    outbox = store.webhooks.outbox
    mine = [untyped(d.payload) for d in outbox if d.endpoint_id == everything.id]
    spectator = [untyped(d.payload) for d in outbox if d.endpoint_id == host.id]
    kinds = [p["event"]["type"] for p in mine]
    assert kinds[:2] == ["game_started", "bonus_dealt"] and kinds[-1] == "game_over"
    assert kinds == [p["event"]["type"] for p in spectator]
    dealt_to_ann = next(p for p in mine if p["event"]["type"] == "bonus_dealt")
    dealt_to_host = next(p for p in spectator if p["event"]["type"] == "bonus_dealt")
    assert "bonus" in dealt_to_ann["event"]["data"] and "bonus" not in dealt_to_host["event"]["data"]
    bob_sealed = [
        p for p in mine if p["event"]["type"] == "choice_sealed" and p["event"]["data"]["seat"] == 1
    ]
    assert bob_sealed and "choice" not in bob_sealed[0]["event"]["data"]  # Bob's card stays secret
    assert {p["seat"] for p in mine} == {0} and {p["seat"] for p in spectator} == {None}

    notices = [d for d in outbox if d.endpoint_id == turns.id]
    assert [d.kind for d in notices] == ["your_turn", "your_turn", "game_over"]
    assert notices[0].payload["seat"] == 0 and notices[0].payload["since"] is not None
    # The game's opening decision was put at the version the notice carries: answer it with that.
    assert notices[0].payload["decision_version"] == notices[0].payload["version"]
    assert all(d.game_id == game_id for d in outbox)
    assert len({d.message_id for d in outbox}) == len(outbox)


def test_registration_is_checked_and_owned(games: Services, webhooks: WebhookService) -> None:
    players = PlayerService(games.core, games.seats)
    ann, eve = players.create("Ann"), players.create("Eve")
    created = games.lobby.create_game("duel", None, None)
    with pytest.raises(InvalidRequest, match="unknown: sometimes"):
        webhooks.register(ann.token, "https://a.example/", ["sometimes"], None)
    with pytest.raises(WebhookTargetRefused):
        webhooks.register(ann.token, "https://internal.example/", ["all"], None)
    with pytest.raises(Unauthorized):
        webhooks.register(None, "https://a.example/", ["all"], None)
    with pytest.raises(Unauthorized):
        webhooks.register(created.host_token, "https://a.example/", ["all"], None)
    with pytest.raises(Unauthorized):  # a player token is no host token
        webhooks.register(ann.token, "https://a.example/", ["all"], created.match.id)
    endpoint = webhooks.register(ann.token, "https://a.example/", ["reveal", "reveal"], None)
    assert endpoint.filters == ("reveal",) and endpoint.secret.startswith("whsec_")
    assert [e.id for e in webhooks.endpoints(ann.token, None)] == [endpoint.id]
    assert webhooks.endpoints(eve.token, None) == []
    with pytest.raises(Forbidden):
        webhooks.delete(eve.token, endpoint.id)
    webhooks.delete(ann.token, endpoint.id)
    assert webhooks.endpoints(ann.token, None) == []
