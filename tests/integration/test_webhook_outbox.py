"""The webhook outbox on real SQLite and PostgreSQL: written with the change, leased once, in order."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

from domain.model.webhooks import Attempt, ClaimedDelivery
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.webhooks import WebhookService
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, ManualClock

LEASE = timedelta(seconds=30)


def allow(url: str) -> None:
    return None


def setup_game(uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry) -> tuple[Services, str]:
    games = Services.build(uow_factory, registry, FakePublisher(), ManualClock(datetime.now(UTC)))
    webhooks = WebhookService(games.core, allow)
    ann = PlayerService(games.core, games.seats).create("Ann")
    endpoint = webhooks.register(ann.token, "https://ann.example/", ["all"], None)
    created = games.lobby.create_game("duel", {"rounds": 1}, "seed")
    PlayerService(games.core, games.seats).join(created.match.id, ann.token, None)
    games.seats.join(created.match.id, "Bob")
    games.seats.start(created.match.id, created.host_token)
    return games, endpoint.id


def test_deliveries_are_leased_one_at_a_time_in_order_and_never_twice(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    _, endpoint_id = setup_game(uow_factory, registry)
    now = datetime.now(UTC) + timedelta(seconds=1)
    claimed: dict[str, object] = {}
    barrier = threading.Barrier(4)

    def claim(owner: str) -> None:
        barrier.wait()
        with uow_factory() as uow:
            found = uow.webhooks.claim(now, LEASE, owner)
            uow.commit()
        if found is not None:
            claimed[owner] = found

    threads = [threading.Thread(target=claim, args=(f"sender-{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(claimed) == 1  # the next one waits for the first: in order per endpoint and game
    ((owner, first),) = claimed.items()
    assert isinstance(first, ClaimedDelivery)
    with uow_factory() as uow:
        listed = uow.webhooks.deliveries_of(endpoint_id, 100)
    oldest = listed[-1]
    assert first.message_id == oldest.message_id and oldest.payload["event"]["seq"] == 1

    attempt = Attempt(now, 503, None, 12.0)
    with uow_factory() as uow:
        assert not uow.webhooks.record_attempt(first.id, "someone-else", attempt, False, now)
        assert uow.webhooks.record_attempt(first.id, owner, attempt, False, now)
        uow.commit()
    with uow_factory() as uow:
        again = uow.webhooks.claim(now, LEASE, "sender-x")
        uow.commit()
    assert again is not None and again.message_id == first.message_id and again.attempts == 1
    with uow_factory() as uow:
        uow.webhooks.record_attempt(again.id, "sender-x", Attempt(now, 204, None, 3.0), True, None)
        uow.commit()
    with uow_factory() as uow:
        second = uow.webhooks.claim(now, LEASE, "sender-x")
        uow.commit()
        delivered = uow.webhooks.deliveries_of(endpoint_id, 100)[-1]
    assert second is not None and second.message_id != first.message_id
    assert delivered.status == "delivered" and [a.status_code for a in delivered.history] == [503, 204]


def test_giving_up_marks_the_endpoint_failing_and_enabling_resends(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    _, endpoint_id = setup_game(uow_factory, registry)
    now = datetime.now(UTC) + timedelta(seconds=1)
    with uow_factory() as uow:
        claimed = uow.webhooks.claim(now, LEASE, "s")
        uow.commit()
    assert claimed is not None
    with uow_factory() as uow:
        failed = Attempt(now, None, "timed out", 1000.0)
        uow.webhooks.record_attempt(claimed.id, "s", failed, False, None)
        uow.commit()
    with uow_factory() as uow:
        endpoint = uow.webhooks.get_endpoint(endpoint_id)
        statuses = {d.status for d in uow.webhooks.deliveries_of(endpoint_id, 100)}
        assert uow.webhooks.claim(now, LEASE, "s") is None
    assert endpoint is not None and endpoint.status == "failing" and statuses == {"failed"}
    with uow_factory() as uow:
        uow.webhooks.set_status(endpoint_id, "active", now)
        uow.commit()
    with uow_factory() as uow:
        assert uow.webhooks.claim(now, LEASE, "s") is not None
