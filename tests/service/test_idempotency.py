"""Idempotency keys (issue 10 item 12): a key reused with a different body is refused with a code
(as the IETF Idempotency-Key draft says) instead of silently answering the first request; create
and join honour the key too, so a retried join never takes a second seat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

import pytest

from domain.errors import IdempotencyKeyReused, InvalidIdempotencyKey, StaleDecision
from domain.model.idempotency import Remembered
from domain.ports.unit_of_work import UnitOfWork
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, FixedClock

T = TypeVar("T")
KEY = "6d1f0c1e-3b7a-4c8e-9f21-0a5b6c7d8e9f"


@pytest.fixture
def store() -> FakeRepository:
    return FakeRepository()


@pytest.fixture
def service(store: FakeRepository) -> Services:
    return Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), FixedClock()
    )


def started(service: Services) -> tuple[str, list[str]]:
    created = service.lobby.create_game("duel", {"rounds": 1}, None)
    tokens = [service.seats.join(created.match.id, n).token or "" for n in ("a", "b")]
    service.seats.start(created.match.id, created.host_token)
    return created.match.id, tokens


def test_a_submit_key_reused_with_another_choice_is_refused_and_changes_nothing(
    service: Services,
) -> None:
    game_id, tokens = started(service)
    first = service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key=KEY)
    with pytest.raises(IdempotencyKeyReused):
        service.play.submit(game_id, tokens[0], {"card": 3}, idempotency_key=KEY)
    with pytest.raises(IdempotencyKeyReused):
        service.play.submit(game_id, tokens[0], {"card": 1}, version=first.version, idempotency_key=KEY)
    assert service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key=KEY) == first
    assert service.core.load(game_id).sealed == {0: {"card": 1}}
    # the same key from another seat is that seat's own key
    assert service.play.submit(game_id, tokens[1], {"card": 2}, idempotency_key=KEY).status == "applied"


def test_a_retried_join_returns_the_same_seat_and_token_and_takes_no_second_seat(
    service: Services,
) -> None:
    game_id = service.lobby.create_game("duel", None, None).match.id
    first = service.seats.join(game_id, "ann", idempotency_key=KEY)
    again = service.seats.join(game_id, "ann", idempotency_key=KEY)
    assert (again.seat, again.token, again.version) == (first.seat, first.token, first.version)
    assert [s.name for s in service.core.load(game_id).seats] == ["ann"]
    assert service.core.viewer(service.core.load(game_id), first.token).seat == 0
    with pytest.raises(IdempotencyKeyReused):
        service.seats.join(game_id, "bob", idempotency_key=KEY)
    assert len(service.core.load(game_id).seats) == 1
    # the seat moved up after an earlier seat left: the retry names where it is now
    other = service.lobby.create_game("duel", None, None)
    service.seats.join(other.match.id, "zed")
    mine = service.seats.join(other.match.id, "ann", idempotency_key=KEY)
    service.seats.remove_seat(other.match.id, 0, other.host_token)
    retried = service.seats.join(other.match.id, "ann", idempotency_key=KEY)
    assert (mine.seat, retried.seat, retried.token) == (1, 0, mine.token)


def test_a_retried_create_returns_the_same_game_and_host_token(
    service: Services, store: FakeRepository
) -> None:
    first = service.lobby.create_game("duel", {"rounds": 1}, None, private=True, idempotency_key=KEY)
    again = service.lobby.create_game("duel", {"rounds": 1}, None, private=True, idempotency_key=KEY)
    assert again.match.id == first.match.id
    assert (again.host_token, again.invite_code) == (first.host_token, first.invite_code)
    assert len(store.rows) == 1
    with pytest.raises(IdempotencyKeyReused):
        service.lobby.create_game("duel", {"rounds": 2}, None, private=True, idempotency_key=KEY)
    assert len(store.rows) == 1


def test_create_and_join_keys_must_be_long_enough_to_be_secret(service: Services) -> None:
    """A retried create or join answers with a token: a guessable key would hand it out."""
    with pytest.raises(InvalidIdempotencyKey):
        service.lobby.create_game("duel", None, None, idempotency_key="1")
    game_id = service.lobby.create_game("duel", None, None).match.id
    with pytest.raises(InvalidIdempotencyKey):
        service.seats.join(game_id, "ann", idempotency_key="short")
    with pytest.raises(InvalidIdempotencyKey):
        service.seats.join(game_id, "ann", idempotency_key="k" * 129)


@pytest.mark.parametrize(
    "key",
    ["a" * 16, "1234567890123456", "abcdefghijklmnopqrstuvwxyz", "abababababababab", "with space 12345"],
)
def test_create_and_join_keys_that_do_not_look_random_are_refused(service: Services, key: str) -> None:
    with pytest.raises(InvalidIdempotencyKey, match="look random"):
        service.lobby.create_game("duel", None, None, idempotency_key=key)
    game_id = service.lobby.create_game("duel", None, None).match.id
    with pytest.raises(InvalidIdempotencyKey):
        service.seats.join(game_id, "ann", idempotency_key=key)


def test_a_create_or_join_key_replayed_by_another_caller_never_answers_the_first_callers_token(
    service: Services,
) -> None:
    """A key is not a credential: the same key and body from someone else is a new request."""
    victim = service.lobby.create_game("duel", None, None, idempotency_key=KEY, caller="address:10.0.0.1")
    replayed = service.lobby.create_game("duel", None, None, idempotency_key=KEY, caller="address:10.0.0.2")
    assert replayed.match.id != victim.match.id
    assert replayed.host_token != victim.host_token
    again = service.lobby.create_game("duel", None, None, idempotency_key=KEY, caller="address:10.0.0.1")
    assert (again.match.id, again.host_token) == (victim.match.id, victim.host_token)
    game_id = victim.match.id
    seat = service.seats.join(game_id, "ann", idempotency_key=KEY, caller="token:victim")
    stolen = service.seats.join(game_id, "ann", idempotency_key=KEY, caller="token:thief")
    assert (stolen.seat, stolen.token) != (seat.seat, seat.token)
    assert service.seats.join(game_id, "ann", idempotency_key=KEY, caller="token:victim") == seat


class _AlwaysStale:
    """Transactions whose every work loses: the seat's decision moved on meanwhile."""

    def run(self, key: str, work: Callable[[UnitOfWork], T]) -> T:
        raise StaleDecision("moved on")


class _Suspending:
    """Runs a submit's steps as an event loop's adapter would: each one suspends first."""

    def __init__(self, service: Services) -> None:
        self.service = service

    async def transaction(self, key: str, work: Callable[[UnitOfWork], T]) -> T:
        await asyncio.sleep(0)
        return self.service.core.transactions.run(key, work)

    async def blocking(self, call: Callable[[], T]) -> T:
        await asyncio.sleep(0)
        return call()


def test_a_submit_that_gives_up_answers_its_committed_first_try_on_both_paths(
    service: Services,
) -> None:
    """A retry whose first try committed gets that answer even when its own try conflicts; without
    the key, or with the key on another choice, the conflict (or the reuse) is the answer."""
    game_id, tokens = started(service)
    first = service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key=KEY)
    service.core.transactions = _AlwaysStale()
    service.play.on_loop = _Suspending(service)
    again = asyncio.run(service.play.submit_async(game_id, tokens[0], {"card": 1}, idempotency_key=KEY))
    assert service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key=KEY) == first == again
    with pytest.raises(StaleDecision):
        service.play.submit(game_id, tokens[0], {"card": 1})
    with pytest.raises(StaleDecision):
        asyncio.run(service.play.submit_async(game_id, tokens[0], {"card": 1}))
    with pytest.raises(IdempotencyKeyReused):
        asyncio.run(service.play.submit_async(game_id, tokens[0], {"card": 2}, idempotency_key=KEY))
    with pytest.raises(StaleDecision):
        service.play.submit(game_id, tokens[1], {"card": 2}, idempotency_key=KEY)


def test_an_answer_stored_before_answers_named_their_game_type_is_replayed_with_it(
    service: Services, store: FakeRepository
) -> None:
    game_id, tokens = started(service)
    first = service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key=KEY)
    stored = store.results[(game_id, f"0:{KEY}")]
    older = {name: value for name, value in stored.response.items() if name != "game_type"}
    store.results[(game_id, f"0:{KEY}")] = Remembered(older, stored.fingerprint)
    assert service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key=KEY) == first
    service.core.transactions = _AlwaysStale()  # replayed after giving up, too
    assert service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key=KEY) == first
    assert first.game_type == "duel"
