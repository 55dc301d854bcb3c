"""The SQL repository and unit of work, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import Engine, event, func, select

from domain.errors import GameNotFound, VersionConflict
from domain.model.idempotency import Remembered
from domain.model.lobby import LobbyCursor, LobbyFilter
from domain.model.match import Match, MatchStatus
from domain.ports.games import GameRepository
from domain.ports.unit_of_work import UnitOfWorkFactory
from domain.registry import EngineRegistry
from persistence.repository import SqlGameRepository
from persistence.tables import game_events, games
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.duel_play import game_service, lobby_match, minutes_later, play_round, start_duel
from tests.support.json_values import untyped


def assert_same_match(loaded: Match, expected: Match) -> None:
    assert loaded.id == expected.id
    assert loaded.game_type == expected.game_type
    assert loaded.options == expected.options
    assert (loaded.seed, loaded.seed_commitment) == (expected.seed, expected.seed_commitment)
    assert loaded.host_token_hash == expected.host_token_hash
    assert loaded.created_at == expected.created_at
    assert loaded.status is expected.status
    assert loaded.seats == expected.seats
    assert loaded.version == expected.version
    assert loaded.sealed == expected.sealed
    assert loaded.last_seq == expected.last_seq
    assert loaded.result == expected.result
    dump = expected.engine.dump
    assert (dump(loaded.state) if loaded.state else None) == (
        dump(expected.state) if expected.state else None
    )


def test_a_lobby_match_round_trips_with_its_events(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    match = lobby_match(registry)
    match.join("ada", "hash-0")
    match.join("bob", "hash-1", bot="easy")
    with uow_factory() as uow:
        uow.games.add(match)
        uow.commit()

    with uow_factory() as uow:
        loaded = uow.games.get(match.id)
        events = uow.games.events(match.id, after=0, limit=100)

    assert_same_match(loaded, match)
    assert loaded.state is None and loaded.result is None
    assert loaded.loaded_version == match.version == 2
    assert loaded.new_events == []
    assert events == match.new_events


def test_a_game_mid_seal_keeps_state_seats_sealed_choices_and_private_events(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    service = game_service(uow_factory, registry)
    duel = start_duel(service, players=3)
    service.play.submit(duel.game_id, duel.tokens[2], {"card": 3})

    with uow_factory() as uow:
        loaded = uow.games.get(duel.game_id)
        events = uow.games.events(duel.game_id, after=0, limit=100)

    assert loaded.status is MatchStatus.IN_PROGRESS
    assert loaded.sealed == {2: {"card": 3}}
    assert [seat.name for seat in loaded.seats] == ["player 0", "player 1", "player 2"]
    assert untyped(loaded.engine.dump(loaded.state))["hands"][2] == [1, 2, 3]
    assert [e.seq for e in events] == list(range(1, loaded.last_seq + 1))
    dealt = next(e for e in events if e.event.type == "bonus_dealt")
    assert sorted(dealt.event.private) == [0, 1, 2]
    assert dealt.for_viewer(1)["data"]["bonus"] in (10, 11, 12)
    assert "bonus" not in dealt.for_viewer(None)["data"]
    sealed = events[-1]
    assert sealed.event.type == "choice_sealed"
    assert sealed.event.private == {2: {"choice": {"card": 3}, "replaced": False}}


def test_a_finished_game_keeps_its_result_and_full_history(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    service = game_service(uow_factory, registry)
    duel = start_duel(service, rounds=2)
    play_round(service, duel, [3, 1], bank=True)
    play_round(service, duel, [1, 2], bank=False)

    finished = service.core.load(duel.game_id)
    history = service.reads.history(duel.game_id, after=0, limit=1_000)

    assert finished.status is MatchStatus.FINISHED
    assert finished.result is not None
    result = untyped(finished.result)
    assert result["winners"] and len(result["scores"]) == 2
    assert history[-1].event.type == "game_over"
    assert history[-1].seq == finished.last_seq == len(history)
    assert finished.engine.dump(finished.state)["phase"] == "over"


def test_the_adapters_fit_the_domain_ports(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    """Checked by mypy (structural typing); at run time it only proves they construct."""
    factory: UnitOfWorkFactory = uow_factory
    with factory() as uow:
        repository: GameRepository = uow.games
        assert isinstance(repository, SqlGameRepository)


def test_getting_an_unknown_game_says_which(uow_factory: SqlUnitOfWorkFactory) -> None:
    with uow_factory() as uow, pytest.raises(GameNotFound, match="no game with id 'nope'"):
        uow.games.get("nope")
    with uow_factory() as uow, pytest.raises(GameNotFound):
        uow.games.events("nope", after=0, limit=10)


def test_the_second_of_two_writers_of_one_version_conflicts_and_changes_nothing(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    match = lobby_match(registry)
    with uow_factory() as uow:
        uow.games.add(match)
        uow.commit()

    with uow_factory() as first, uow_factory() as second:
        mine, theirs = first.games.get(match.id), second.games.get(match.id)
        mine.join("ada", "hash-a")
        first.games.save(mine)
        first.commit()
        theirs.join("bob", "hash-b")
        with pytest.raises(VersionConflict, match="changed since it was loaded at version 0"):
            second.games.save(theirs)

    with uow_factory() as uow:
        stored = uow.games.get(match.id)
        events = uow.games.events(match.id, after=0, limit=10)
    assert [seat.name for seat in stored.seats] == ["ada"]
    assert stored.version == 1
    assert [e.event.data["name"] for e in events] == ["ada"]


def test_nothing_is_stored_without_commit(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    match = lobby_match(registry)
    with uow_factory() as uow:
        uow.games.add(match)
        uow.commit()

    with uow_factory() as uow:
        loaded = uow.games.get(match.id)
        loaded.join("ada", "hash-a")
        uow.games.save(loaded)
        uow.games.remember_result(match.id, "0:key", {"status": "applied"})
        uow.games.add(lobby_match(registry, game_id="never-committed"))

    with pytest.raises(RuntimeError), uow_factory() as uow:
        loaded = uow.games.get(match.id)
        loaded.join("bob", "hash-b")
        uow.games.save(loaded)
        raise RuntimeError("handler failed after saving")

    with uow_factory() as uow:
        stored = uow.games.get(match.id)
        assert stored.version == 0 and stored.seats == []
        assert uow.games.events(match.id, after=0, limit=10) == []
        assert uow.games.idempotent_result(match.id, "0:key") is None
        with pytest.raises(GameNotFound):
            uow.games.get("never-committed")


def test_an_idempotent_result_is_remembered_per_game_and_key(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    first, other = lobby_match(registry), lobby_match(registry)
    response = {"status": "sealed", "version": 3, "events": [{"seq": 4, "data": {"a": [1, 2]}}]}
    with uow_factory() as uow:
        uow.games.add(first)
        uow.games.add(other)
        uow.games.remember_result(first.id, "1:abc", response, "f" * 64)
        uow.commit()

    with uow_factory() as uow:
        assert uow.games.idempotent_result(first.id, "1:abc") == Remembered(response, "f" * 64)
        assert uow.games.idempotent_result(first.id, "0:abc") is None
        assert uow.games.idempotent_result(other.id, "1:abc") is None


def test_a_retried_submit_returns_the_remembered_response(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    service = game_service(uow_factory, registry)
    duel = start_duel(service)
    first = service.play.submit(duel.game_id, duel.tokens[0], {"card": 2}, idempotency_key="k1")
    again = service.play.submit(duel.game_id, duel.tokens[0], {"card": 2}, idempotency_key="k1")
    assert again == first
    assert service.core.load(duel.game_id).version == first.version


def test_listing_is_newest_first_and_filters_by_status_and_type(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    matches = [lobby_match(registry, created_at=minutes_later(n)) for n in range(5)]
    matches[1].status = MatchStatus.ABORTED
    matches[3].status = MatchStatus.ABORTED
    matches[4].join("ada", "hash-a")
    with uow_factory() as uow:
        for match in matches:
            uow.games.add(match)
        uow.commit()

    with uow_factory() as uow:
        everything = uow.games.list(LobbyFilter(), limit=10)
        aborted = uow.games.list(LobbyFilter("aborted"), limit=10)
        after_newest_lobby = LobbyCursor(matches[4].created_at, matches[4].id)
        lobby_page = uow.games.list(LobbyFilter("lobby", "duel"), 2, after_newest_lobby)
        other_type = uow.games.list(LobbyFilter(None, "chess"), limit=10)
        joinable = uow.games.list(LobbyFilter(joinable=True), limit=10)
        lobby_total = uow.games.count(LobbyFilter("lobby"))
        counts = uow.games.count_by_status()

    assert [s.id for s in everything] == [m.id for m in reversed(matches)]
    newest = everything[0]
    assert (newest.game_type, newest.status, newest.players, newest.version) == (
        "duel",
        "lobby",
        1,
        1,
    )
    assert newest.created_at == minutes_later(4)
    assert (newest.max_players, [s.name for s in newest.seats], newest.awaiting) == (3, ["ada"], ())
    assert lobby_total == 3
    assert [s.id for s in joinable] == [matches[4].id, matches[2].id, matches[0].id]
    assert [s.id for s in aborted] == [matches[3].id, matches[1].id]
    assert counts == {"lobby": 3, "aborted": 2}
    assert [s.id for s in lobby_page] == [matches[2].id, matches[0].id]
    assert other_type == []


def test_events_after_a_seq_come_in_order_and_in_pages(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    service = game_service(uow_factory, registry)
    duel = start_duel(service, players=3, rounds=3)
    play_round(service, duel, [1, 2, 3], bank=True)
    with uow_factory() as uow:
        everything = uow.games.events(duel.game_id, after=0, limit=1_000)
        page = uow.games.events(duel.game_id, after=3, limit=4)
        beyond = uow.games.events(duel.game_id, after=everything[-1].seq, limit=10)

    assert [e.seq for e in everything] == list(range(1, len(everything) + 1))
    assert [e.seq for e in page] == [4, 5, 6, 7]
    assert page == everything[3:7]
    assert beyond == []


def test_a_submit_costs_the_same_few_statements_however_long_the_history(
    db_engine: Engine, uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    service = game_service(uow_factory, registry)
    short = start_duel(service)
    long = start_duel(service)
    pad_history(db_engine, long.game_id, extra_events=2_000)

    with count_statements(db_engine) as short_statements:
        service.play.submit(short.game_id, short.tokens[0], {"card": 1}, idempotency_key="a")
    with count_statements(db_engine) as long_statements:
        service.play.submit(long.game_id, long.tokens[0], {"card": 1}, idempotency_key="a")
    with count_statements(db_engine) as get_statements, uow_factory() as uow:
        uow.games.get(long.game_id)

    # load, idempotency lookup, guarded UPDATE, events INSERT, webhook endpoints of the game
    # (the outbox, one indexed lookup), idempotency INSERT; on PostgreSQL the load's locking read
    # answers the outbox (``persistence.webhook_targets``) and the events go with the UPDATE
    expected = 4 if db_engine.dialect.name == "postgresql" else 6
    assert len(short_statements) == len(long_statements) == expected, long_statements
    assert len(get_statements) == 1
    assert "game_events" not in get_statements[0]


def pad_history(db_engine: Engine, game_id: str, extra_events: int) -> None:
    """Make a game look long-running: many stored events before its current state."""
    with db_engine.begin() as connection:
        last_seq = connection.execute(select(games.c.last_seq).where(games.c.id == game_id)).scalar_one()
        rows = [
            {"game_id": game_id, "seq": seq, "type": "filler", "data": {"n": seq}, "private": {}}
            for seq in range(last_seq + 1, last_seq + 1 + extra_events)
        ]
        connection.execute(game_events.insert(), rows)
        connection.execute(
            games.update().where(games.c.id == game_id).values(last_seq=last_seq + extra_events)
        )
        stored = connection.execute(
            select(func.count()).select_from(game_events).where(game_events.c.game_id == game_id)
        ).scalar_one()
    assert stored > extra_events


@contextmanager
def count_statements(db_engine: Engine) -> Iterator[list[str]]:
    """Collects the SQL sent to the database while active (one entry per cursor execute)."""
    statements: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        statements.append(statement)

    event.listen(db_engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(db_engine, "before_cursor_execute", record)


def test_many_concurrent_writers_on_sqlite_neither_deadlock_nor_fail(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """More writers than pooled connections, each starting its unit of work with a write."""
    from concurrent.futures import ThreadPoolExecutor

    from domain.registry import EngineRegistry as Registry
    from persistence.database import create_db_engine
    from persistence.migrate import migrate
    from persistence.uow import SqlUnitOfWorkFactory as Factory
    from tests.support.duel_game import DuelEngine as Duel

    url = f"sqlite:///{tmp_path / 'writers.db'}"
    migrate(url)
    db_engine = create_db_engine(url, pool_size=2, max_overflow=1)
    registry = Registry([Duel()])
    factory = Factory(db_engine, registry)

    def create(_: int) -> str:
        match = lobby_match(registry)
        with factory() as uow:
            uow.games.add(match)
            uow.commit()
        return match.id

    try:
        with ThreadPoolExecutor(12) as pool:
            ids = list(pool.map(create, range(60), timeout=60))
        with factory() as uow:
            assert len(uow.games.list(LobbyFilter(), 100)) == len(set(ids)) == 60
    finally:
        db_engine.dispose()


def test_a_create_key_is_taken_once_and_remembered_with_its_fingerprint(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    first, second = lobby_match(registry), lobby_match(registry)
    with uow_factory() as uow:
        uow.games.add(first)
        uow.games.remember_create("k" * 64, first.id, {"game_id": first.id, "nonce": "n"}, "p" * 64)
        uow.commit()
    with pytest.raises(VersionConflict), uow_factory() as uow:
        uow.games.add(second)
        uow.games.remember_create("k" * 64, second.id, {"game_id": second.id, "nonce": "m"}, "q" * 64)
    with uow_factory() as uow:
        assert uow.games.created_for_key("k" * 64) == Remembered(
            {"game_id": first.id, "nonce": "n"}, "p" * 64
        )
        assert uow.games.created_for_key("x" * 64) is None
        with pytest.raises(GameNotFound):
            uow.games.get(second.id)


def test_in_progress_games_with_bots_are_listed_by_keyset_pages_and_bots_only_counted(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry
) -> None:
    kinds: dict[str, list[str | None]] = {
        "bots": ["random", "greedy"],
        "mixed": [None, "random"],
        "people": [None, None],
    }
    expected: dict[str, bool] = {}
    with uow_factory() as uow:
        for n in range(7):
            for kind, bots in kinds.items():
                match = lobby_match(registry, game_id=f"{kind}-{n}")
                for seat, bot in enumerate(bots):
                    match.join(f"s{seat}", f"hash-{kind}-{n}-{seat}", bot)
                if n < 6:
                    match.start()
                uow.games.add(match)
                if n < 6 and kind != "people":
                    expected[match.id] = kind == "mixed"
        uow.commit()
    with uow_factory() as uow:
        found, after = [], ""
        while page := uow.games.bot_games_in_progress(after, 5):
            found.extend(page)
            after = page[-1].id
        assert {g.id: g.has_humans for g in found} == expected
        assert [g.id for g in found] == sorted(expected)
        assert uow.games.count_bot_only_in_progress() == 6
