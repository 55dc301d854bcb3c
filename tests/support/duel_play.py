"""Driving the test-only Duel game through the real service, for repository tests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from domain.model.match import Match
from domain.model.seeding import commitment
from domain.ports.unit_of_work import UnitOfWorkFactory
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.seats import Joined
from tests.support.fakes import FakePublisher, FixedClock


@dataclass
class StartedDuel:
    game_id: str
    host_token: str
    tokens: list[str]


def game_service(uow: UnitOfWorkFactory, registry: EngineRegistry) -> Services:
    return Services.build(uow, registry, FakePublisher(), FixedClock())


def person_token(joined: Joined) -> str:
    """The token of a seat a person joined (only a bot's seat has none)."""
    assert joined.token is not None
    return joined.token


def start_duel(service: Services, players: int = 2, rounds: int = 2) -> StartedDuel:
    created = service.lobby.create_game("duel", {"rounds": rounds}, seed="integration-seed")
    game_id = created.match.id
    tokens = [person_token(service.seats.join(game_id, f"player {n}")) for n in range(players)]
    service.seats.start(game_id, created.host_token)
    return StartedDuel(game_id, created.host_token, tokens)


def play_round(service: Services, duel: StartedDuel, cards: list[int], bank: bool) -> None:
    """Every seat plays a card (sealed, then revealed), then the round's first seat decides."""
    for token, card in zip(duel.tokens, cards, strict=True):
        service.play.submit(duel.game_id, token, {"card": card})
    match = service.core.load(duel.game_id)
    decision = match.decision()
    assert decision is not None
    (banker,) = decision.seats
    action = "bank" if bank else "pass"
    service.play.submit(duel.game_id, duel.tokens[banker], {"action": action})


def lobby_match(
    registry: EngineRegistry,
    created_at: datetime | None = None,
    game_id: str | None = None,
    creator_id: str | None = "p-host",
) -> Match:
    """A fresh lobby match, built directly (no service) for repository-level tests; listed
    (a player created it) unless ``creator_id`` is None."""
    return Match(
        id=game_id or uuid.uuid4().hex,
        engine=registry.get("duel"),
        options={"rounds": 2, "bank_allowed": True},
        seed="seed",
        seed_commitment=commitment("seed"),
        host_token_hash="host-hash",
        created_at=created_at or datetime(2026, 11, 22, 12, 0, tzinfo=UTC),
        creator_id=creator_id,
    )


def minutes_later(minutes: int) -> datetime:
    return datetime(2026, 11, 22, 12, 0, tzinfo=UTC) + timedelta(minutes=minutes)
