"""Use cases against fakes: lifecycle, sealed choices and reveal, guards, tokens, idempotency."""

from __future__ import annotations

import pytest

from domain.errors import (
    Forbidden,
    GameFull,
    GameNotFound,
    GameNotInProgress,
    GameOver,
    IllegalChoice,
    InvalidOptions,
    NotEnoughPlayers,
    NotYourDecision,
    Unauthorized,
    UnknownGameType,
    VersionConflict,
)
from domain.model.seeding import commitment
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from tests.support.duel_game import DuelEngine
from tests.support.duel_play import person_token
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, FixedClock
from tests.support.json_values import untyped


@pytest.fixture
def store() -> FakeRepository:
    return FakeRepository()


@pytest.fixture
def publisher() -> FakePublisher:
    return FakePublisher()


@pytest.fixture
def service(store: FakeRepository, publisher: FakePublisher) -> Services:
    return Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), publisher, FixedClock()
    )


def started_game(service: Services, players: int = 2) -> tuple[str, str, list[str]]:
    created = service.lobby.create_game("duel", {"rounds": 1}, "seed-1")
    tokens = [person_token(service.seats.join(created.match.id, f"p{i}")) for i in range(players)]
    service.seats.start(created.match.id, created.host_token)
    return created.match.id, created.host_token, tokens


def test_created_game_publishes_the_seed_commitment_but_not_the_seed(service: Services) -> None:
    created = service.lobby.create_game("duel", None, "my-seed")
    match = service.core.load(created.match.id)
    assert match.seed_commitment == commitment("my-seed", match.seed_salt)
    assert match.seed_revealed() is None
    assert match.options == {"rounds": 2, "bank_allowed": True}


def test_unknown_type_and_bad_options_are_refused(service: Services) -> None:
    with pytest.raises(UnknownGameType):
        service.lobby.create_game("chess", None, None)
    with pytest.raises(InvalidOptions):
        service.lobby.create_game("duel", {"rounds": 7}, None)
    with pytest.raises(InvalidOptions):
        service.lobby.create_game("duel", {"colour": "red"}, None)


def test_game_full_and_too_few_players(service: Services) -> None:
    created = service.lobby.create_game("duel", None, None)
    service.seats.join(created.match.id, "a")
    with pytest.raises(NotEnoughPlayers):
        service.seats.start(created.match.id, created.host_token)
    service.seats.join(created.match.id, "b")
    service.seats.join(created.match.id, "c")
    with pytest.raises(GameFull):
        service.seats.join(created.match.id, "d")


def test_only_the_host_may_start(service: Services) -> None:
    created = service.lobby.create_game("duel", None, None)
    tokens = [service.seats.join(created.match.id, n).token for n in "ab"]
    with pytest.raises(Unauthorized):
        service.seats.start(created.match.id, None)
    with pytest.raises(Forbidden):
        service.seats.start(created.match.id, tokens[0])
    with pytest.raises(Unauthorized):
        service.seats.start(created.match.id, "not-a-token")


def test_sealed_choices_stay_secret_until_the_last_seat_seals(
    service: Services, publisher: FakePublisher
) -> None:
    game_id, _, tokens = started_game(service)
    first = service.play.submit(game_id, tokens[0], {"card": 3})
    assert first.status == "sealed"
    # the sealing seat sees its own choice; the other seat and spectators only see who sealed
    _, theirs = service.reads.events(game_id, tokens[1], 0, 100)
    _, spectator = service.reads.events(game_id, None, 0, 100)
    for events in (theirs, spectator):
        assert all("choice" not in e["data"] for e in events)
        assert all('"card": 3' not in str(e) and "'card': 3" not in str(e) for e in events)
    pending = service.play.pending(game_id, tokens[1])
    assert pending.decision is not None and pending.decision["sealed"] == [0]
    second = service.play.submit(game_id, tokens[1], {"card": 2})
    assert second.status == "applied"
    reveal = next(e for e in second.events if e["type"] == "reveal")
    assert reveal["data"]["choices"] == {"0": {"card": 3}, "1": {"card": 2}}
    published = [e for _, batch in publisher.published for e in batch]
    assert [e.seq for e in published] == list(range(1, len(published) + 1))


def test_a_seat_may_replace_its_sealed_choice(service: Services) -> None:
    game_id, _, tokens = started_game(service)
    service.play.submit(game_id, tokens[0], {"card": 1})
    service.play.submit(game_id, tokens[0], {"card": 3})
    result = service.play.submit(game_id, tokens[1], {"card": 2})
    reveal = next(e for e in result.events if e["type"] == "reveal")
    assert untyped(reveal["data"])["choices"]["0"] == {"card": 3}


def test_guards_refuse_and_change_nothing(service: Services, store: FakeRepository) -> None:
    game_id, _, tokens = started_game(service)
    before = service.core.load(game_id).version
    with pytest.raises(IllegalChoice, match="not one of the 3 legal choices"):
        service.play.submit(game_id, tokens[0], {"card": 9})
    with pytest.raises(IllegalChoice, match="fields"):
        service.play.submit(game_id, tokens[0], {"cards": 1})
    with pytest.raises(VersionConflict):
        service.play.submit(game_id, tokens[0], {"card": 1}, version=before - 1)
    with pytest.raises(Unauthorized):
        service.play.submit(game_id, None, {"card": 1})
    with pytest.raises(GameNotFound):
        service.play.submit("nope", tokens[0], {"card": 1})
    assert service.core.load(game_id).version == before
    service.play.submit(game_id, tokens[0], {"card": 1})
    service.play.submit(game_id, tokens[1], {"card": 2})
    with pytest.raises(NotYourDecision):
        service.play.submit(game_id, tokens[1], {"action": "bank"})


def test_submit_before_start_and_after_end(service: Services) -> None:
    created = service.lobby.create_game("duel", {"rounds": 1}, None)
    token = service.seats.join(created.match.id, "a").token
    service.seats.join(created.match.id, "b")
    with pytest.raises(GameNotInProgress):
        service.play.submit(created.match.id, token, {"card": 1})
    service.seats.abort(created.match.id, created.host_token)
    with pytest.raises(GameOver):
        service.play.submit(created.match.id, token, {"card": 1})


def test_idempotency_key_returns_the_first_result(service: Services) -> None:
    game_id, _, tokens = started_game(service)
    first = service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key="k1")
    again = service.play.submit(game_id, tokens[0], {"card": 1}, idempotency_key="k1")
    assert again == first
    assert service.core.load(game_id).version == first.version


def test_finished_game_reveals_scores_winner_and_verifiable_seed(service: Services) -> None:
    game_id, _, tokens = started_game(service)
    service.play.submit(game_id, tokens[0], {"card": 3})
    service.play.submit(game_id, tokens[1], {"card": 1})
    result = service.play.submit(game_id, tokens[0], {"action": "bank"})
    over = next(e for e in result.events if e["type"] == "game_over")
    match = service.core.load(game_id)
    assert match.status.value == "finished"
    assert match.seed_revealed() == "seed-1"
    data = untyped(over["data"])
    assert commitment(data["seed"], data["seed_salt"]) == match.seed_commitment
    bonus = match.state.bonus
    assert over["data"]["scores"] == [4 + bonus[0], bonus[1]]
