"""Fair play among strangers (issue 10 items 1-3): bot seats have no token, bots draw from a
server secret, every seed is mixed with or replaced by server entropy unless the host openly
chose it, and the commitment is salted so a short seed cannot be found from it."""

from __future__ import annotations

import hashlib
import random

import pytest

from domain.bots import choose, context_for
from domain.errors import Forbidden, Unauthorized
from domain.model.lobby import LobbyFilter
from domain.model.match import MatchStatus, Seat
from domain.model.seeding import SEED_MODE_HOST, SEED_MODE_SERVER, rng_for_bot, verify_commitment
from domain.model.tokens import hash_token
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from tests.support.duel_game import DuelEngine
from tests.support.fakes import FakePublisher, FakeRepository, FakeUnitOfWork, FixedClock


@pytest.fixture
def store() -> FakeRepository:
    return FakeRepository()


@pytest.fixture
def service(store: FakeRepository) -> Services:
    return Services.build(
        lambda: FakeUnitOfWork(store), EngineRegistry([DuelEngine()]), FakePublisher(), FixedClock()
    )


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# -- item 1: bot seats ---------------------------------------------------------------------------


def test_only_the_host_token_seats_a_bot(service: Services) -> None:
    created = service.lobby.create_game("duel", None, None)
    game_id = created.match.id
    human = service.seats.join(game_id, "ann")
    with pytest.raises(Unauthorized):
        service.seats.join(game_id, "bot", bot="random")
    with pytest.raises(Forbidden):
        service.seats.join(game_id, "bot", bot="random", token=human.token)
    with pytest.raises(Unauthorized):
        service.seats.join(game_id, "bot", bot="random", token="invented")
    seated = service.seats.join(game_id, "bot", bot="random", token=created.host_token)
    assert seated.token is None
    assert service.core.load(game_id).seats[seated.seat].bot == "random"


def test_nobody_can_act_or_read_as_a_bot_seat(service: Services, store: FakeRepository) -> None:
    """Even a bot seat stored with a token hash (as older versions handed tokens out) is no seat."""
    created = service.lobby.create_game("duel", None, None)
    game_id = created.match.id
    service.seats.join(game_id, "ann")
    service.seats.join(game_id, "bot", bot="random", token=created.host_token)
    stored, _ = store.rows[game_id]
    stored.seats[1] = Seat(1, "bot", hash_token("old-bot-token"), "random")
    with pytest.raises(Unauthorized):
        service.core.viewer(service.core.load(game_id), "old-bot-token")
    with pytest.raises(Unauthorized):
        service.play.pending(game_id, "old-bot-token")


# -- item 2: bot randomness ----------------------------------------------------------------------


def test_a_bots_sealed_pick_cannot_be_predicted_from_public_values_but_replays_from_the_seed(
    service: Services,
) -> None:
    """The attack: seed the bot's generator from (commitment, version, seat) and read its pick."""
    predicted = reproduced = games = 0
    for _ in range(24):
        created = service.lobby.create_game("duel", {"rounds": 1}, None)
        game_id = created.match.id
        service.seats.join(game_id, "ann")
        service.seats.join(game_id, "bot", bot="random", token=created.host_token)
        service.seats.start(game_id, created.host_token)
        before = service.core.load(game_id)
        decision = before.decision()
        assert decision is not None
        public_rng = random.Random(f"{before.seed_commitment}:{before.version}:1")
        guess = choose("random", context_for(before.engine, before.state, decision, 1, None), public_rng)
        assert service.play.play_bot_turn(game_id)
        pick = service.core.load(game_id).sealed[1]
        predicted += guess == pick
        # after the game, the revealed seed and salt give the same pick back
        service.seats.abort(game_id, created.host_token)
        over = service.core.load(game_id)
        assert over.seed_salt is not None
        rng = rng_for_bot(over.seed, over.seed_salt, before.version, 1)
        replayed = choose("random", context_for(before.engine, before.state, decision, 1, None), rng)
        reproduced += replayed == pick
        games += 1
    assert reproduced == games
    assert predicted < games * 2 // 3  # one in three by chance; every one before the fix


# -- item 3: seeds and commitments ---------------------------------------------------------------


def test_without_a_seed_the_server_draws_it_and_the_commitment_is_salted(service: Services) -> None:
    created = service.lobby.create_game("duel", None, None)
    match = service.core.load(created.match.id)
    assert match.seed_mode == SEED_MODE_SERVER
    assert match.seed_salt is not None and len(match.seed_salt) >= 32
    assert len(match.seed) >= 32
    assert match.seed_commitment == sha256(f"{match.seed_salt}:{match.seed}")
    assert match.seed_commitment != sha256(match.seed)
    assert verify_commitment(match.seed, match.seed_salt, match.seed_commitment)


def test_a_short_host_seed_cannot_be_found_from_its_commitment(service: Services) -> None:
    """The attack: a spectator hashes every short seed until one matches the commitment."""
    created = service.lobby.create_game("duel", None, "7")
    match = service.core.load(created.match.id)
    assert match.seed_mode == SEED_MODE_HOST
    assert match.seed == "7"
    candidates = [str(n) for n in range(10_000)]
    assert not [c for c in candidates if sha256(c) == match.seed_commitment]
    assert not [c for c in candidates if sha256(f":{c}") == match.seed_commitment]
    twin = service.core.load(service.lobby.create_game("duel", None, "7").match.id)
    assert twin.seed_commitment != match.seed_commitment  # a fresh salt per game


def test_salt_is_revealed_with_the_seed_only_when_the_game_is_over(service: Services) -> None:
    created = service.lobby.create_game("duel", None, None)
    game_id = created.match.id
    service.seats.join(game_id, "a")
    service.seats.join(game_id, "b")
    match = service.core.load(game_id)
    assert match.seed_revealed() is None and match.salt_revealed() is None
    service.seats.abort(game_id, created.host_token)
    over = service.core.load(game_id)
    assert over.status is MatchStatus.ABORTED
    assert over.seed_revealed() == over.seed
    assert over.salt_revealed() == over.seed_salt
    _, events = service.reads.events(game_id, None, 0, 100)
    aborted = next(e for e in events if e["type"] == "game_aborted")
    assert aborted["data"]["seed"] == over.seed
    assert aborted["data"]["seed_salt"] == over.seed_salt


def test_the_seed_mode_is_in_the_lobby_listing(service: Services) -> None:
    server = service.lobby.create_game("duel", None, None, creator_id="p-ann").match.id
    host = service.lobby.create_game("duel", None, "tournament-1", creator_id="p-bob").match.id
    modes = {s.id: s.seed_mode for s in service.lobby.list_games(LobbyFilter("lobby"), 10).items}
    assert modes == {server: SEED_MODE_SERVER, host: SEED_MODE_HOST}
