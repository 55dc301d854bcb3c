"""Group commit (``persistence.group_commit``) on SQLite and PostgreSQL: works queued together
commit in one transaction, in order per game; a refused work is undone alone; a database error
fails the whole batch; every answer comes after the commit that holds it.

The writer is held on a first work until the others are queued, so the batch is exactly them.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import Engine, event, text
from sqlalchemy.exc import SQLAlchemyError

from domain.errors import IllegalChoice, NotYourDecision
from domain.ports.unit_of_work import UnitOfWork
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.play import SubmitAnswer
from persistence.group_commit import AwaitedCommits, GroupCommitter
from persistence.repository import SqlGameRepository
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.batches import one_batch
from tests.support.duel_play import StartedDuel, start_duel
from tests.support.fakes import FakePublisher, FixedClock
from tests.support.waiting import eventually_async

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def committer(db_engine: Engine, registry: EngineRegistry) -> Iterator[GroupCommitter]:
    grouped = GroupCommitter(SqlUnitOfWorkFactory(db_engine, registry))
    yield grouped
    grouped.close()


@pytest.fixture
def service(db_engine: Engine, registry: EngineRegistry, committer: GroupCommitter) -> Services:
    return Services.build(
        SqlUnitOfWorkFactory(db_engine, registry), registry, FakePublisher(), FixedClock(), committer
    )


def outcome(future: Future[Any]) -> Any:
    error = future.exception()
    return error if error is not None else future.result()


def card(service: Services, duel: StartedDuel, seat: int, value: int = 3) -> Callable[[], Any]:
    return lambda: service.play.submit(duel.game_id, duel.tokens[seat], {"card": value})


def test_submits_queued_together_commit_in_one_transaction_in_order_per_game(
    service: Services, committer: GroupCommitter
) -> None:
    duels = [start_duel(service) for _ in range(4)]
    versions = [service.core.load(d.game_id).version for d in duels]
    batches = committer.batches

    futures = one_batch(committer, [card(service, d, s) for d in duels for s in (0, 1)])

    answers = [f.result() for f in futures]
    assert committer.batches == batches + 2  # the held work's, then all eight together
    pairs = zip(answers[::2], answers[1::2], strict=True)
    for duel, version, pair in zip(duels, versions, pairs, strict=True):
        assert sorted(a.status for a in pair) == ["applied", "sealed"]
        stored = service.core.load(duel.game_id)
        assert stored.version == version + 2 == max(a.version for a in pair)
        assert stored.engine.dump(stored.state)["phase"] == "bank"
        history = service.reads.history(duel.game_id, after=0, limit=1_000)
        assert [e.seq for e in history] == list(range(1, stored.last_seq + 1))


def test_a_refused_move_is_answered_alone_and_the_rest_of_its_batch_commits(
    service: Services, committer: GroupCommitter
) -> None:
    good, bad = start_duel(service), start_duel(service)
    before = {d.game_id: service.core.load(d.game_id).version for d in (good, bad)}

    futures = one_batch(
        committer,
        [card(service, bad, 0, 99), card(service, good, 0), card(service, good, 1)],
    )

    assert isinstance(outcome(futures[0]), IllegalChoice)
    assert sorted(f.result().status for f in futures[1:]) == ["applied", "sealed"]
    assert service.core.load(good.game_id).version == before[good.game_id] + 2
    assert service.core.load(bad.game_id).version == before[bad.game_id]


def test_a_work_refused_after_writing_is_undone_alone_wherever_it_sits_in_its_batch(
    service: Services, committer: GroupCommitter
) -> None:
    """Sorted first, the refused work runs before SQLite's transaction exists; sorted last, it is
    undone to its savepoint. Either way its writes go, the others' stay."""
    kept, undone_first, undone_last = (start_duel(service) for _ in range(3))
    before = {d.game_id: service.core.load(d.game_id).version for d in (kept, undone_first, undone_last)}

    def writes_then_refuses(duel: StartedDuel) -> Callable[[UnitOfWork], None]:
        def work(uow: UnitOfWork) -> None:
            match = uow.games.get(duel.game_id, for_update=True)
            match.submit(0, {"card": 3})
            service.core.save(uow, match, 0)
            raise NotYourDecision("refused after its write")

        return work

    futures = one_batch(
        committer,
        [
            lambda: committer.run("\x00first", writes_then_refuses(undone_first)),
            card(service, kept, 0),
            lambda: committer.run("\x7flast", writes_then_refuses(undone_last)),
        ],
    )

    assert isinstance(outcome(futures[0]), NotYourDecision)
    assert futures[1].result().status == "sealed"
    assert isinstance(outcome(futures[2]), NotYourDecision)
    assert service.core.load(kept.game_id).version == before[kept.game_id] + 1
    for duel in (undone_first, undone_last):
        assert service.core.load(duel.game_id).version == before[duel.game_id]
        assert service.reads.history(duel.game_id, after=0, limit=1_000)[-1].event.type != "sealed"


def test_a_work_alone_in_its_batch_is_undone_without_a_savepoint(
    service: Services, committer: GroupCommitter, db_engine: Engine
) -> None:
    """A batch of one work takes no savepoint (two round trips fewer on PostgreSQL): refused after
    its write, it is undone by rolling the transaction back, and the game moves on after it."""
    duel = start_duel(service)
    before = service.core.load(duel.game_id).version
    savepoints: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "SAVEPOINT" in statement.upper():
            savepoints.append(statement)

    def writes_then_refuses(uow: UnitOfWork) -> None:
        match = uow.games.get(duel.game_id, for_update=True)
        match.submit(0, {"card": 3})
        service.core.save(uow, match, 0)
        raise NotYourDecision("refused after its write")

    event.listen(db_engine, "before_cursor_execute", count)
    try:
        with pytest.raises(NotYourDecision):
            committer.run(duel.game_id, writes_then_refuses)
        assert service.core.load(duel.game_id).version == before
        assert card(service, duel, 0)().status == "sealed"
    finally:
        event.remove(db_engine, "before_cursor_execute", count)
    assert savepoints == []
    assert service.core.load(duel.game_id).version == before + 1


def test_a_database_error_fails_every_work_of_its_batch(service: Services, committer: GroupCommitter) -> None:
    duels = [start_duel(service) for _ in range(2)]
    before = [service.core.load(d.game_id).version for d in duels]

    def broken(uow: UnitOfWork) -> None:
        assert isinstance(uow.games, SqlGameRepository)
        uow.games.session.execute(text("SELECT * FROM no_such_table"))

    futures = one_batch(
        committer,
        [card(service, duels[0], 0), lambda: committer.run("m", broken), card(service, duels[1], 0)],
    )

    assert all(isinstance(outcome(f), SQLAlchemyError) for f in futures)
    assert [service.core.load(d.game_id).version for d in duels] == before
    # the writer goes on: the next batch commits
    assert card(service, duels[0], 0)().status == "sealed"


def test_the_end_of_a_game_and_its_finished_work_commit_together_or_not_at_all(
    service: Services, committer: GroupCommitter
) -> None:
    duel = start_duel(service, rounds=1)
    service.play.submit(duel.game_id, duel.tokens[0], {"card": 3})
    service.play.submit(duel.game_id, duel.tokens[1], {"card": 2})
    seen: list[str] = []

    def fails_once(_uow: UnitOfWork, match: Any) -> None:
        seen.append(match.status.value)
        if len(seen) == 1:
            raise RuntimeError("the rating could not be written")

    service.core.when_finished.append(fails_once)
    with pytest.raises(RuntimeError):
        service.play.submit(duel.game_id, duel.tokens[0], {"action": "bank"})
    assert service.core.load(duel.game_id).status.value == "in_progress"

    service.play.submit(duel.game_id, duel.tokens[0], {"action": "bank"})
    assert service.core.load(duel.game_id).status.value == "finished"
    assert seen == ["finished", "finished"]


def test_an_awaited_submit_holds_no_thread_while_it_waits_for_its_commit(
    service: Services, committer: GroupCommitter
) -> None:
    """``submit_async`` on the event loop's adapter queues the submit and awaits the writer's
    answer: while the writer is held, nothing runs on a thread for it, and the answer (then the
    publish) comes after the commit."""
    duel = start_duel(service)
    holding, release = threading.Event(), threading.Event()
    offloaded: list[str] = []

    async def offload(call: Callable[[], Any]) -> Any:
        offloaded.append("waiting" if not release.is_set() else "after commit")
        return await asyncio.to_thread(call)

    service.play.on_loop = AwaitedCommits(committer, offload)

    def hold(_uow: UnitOfWork) -> None:
        holding.set()
        release.wait(60)

    async def scenario() -> SubmitAnswer:
        held = committer.start("", hold)
        assert await asyncio.to_thread(holding.wait, 10)
        submit = asyncio.create_task(
            service.play.submit_async(duel.game_id, duel.tokens[0], {"card": 3}, idempotency_key="k1")
        )

        async def queued() -> bool:
            return committer._queues[0].qsize() >= 1 or bool(offloaded)

        await eventually_async(queued, 30, "the submit queued", every=0.005)
        await asyncio.sleep(0.05)
        assert not submit.done()  # not answered before its commit
        release.set()
        await asyncio.wrap_future(held)
        answer = await submit
        return answer

    answer = asyncio.run(scenario())
    assert answer.status == "sealed"
    assert service.core.load(duel.game_id).version == answer.version
    assert offloaded == ["after commit"]
    # The same key and body repeated answers the first result, through the same path.
    again = asyncio.run(
        service.play.submit_async(duel.game_id, duel.tokens[0], {"card": 3}, idempotency_key="k1")
    )
    assert again == answer


def _keys_on_distinct_writers(committer: GroupCommitter, count: int) -> list[str]:
    """Game-like keys that the committer sends to ``count`` different writers."""
    found: dict[int, str] = {}
    index = 0
    while len(found) < count:
        key = f"game-{index}"
        found.setdefault(hash(key) % committer.writers, key)
        index += 1
    return list(found.values())


def test_several_writers_commit_games_in_parallel_and_each_game_in_order(
    db_engine: Engine, registry: EngineRegistry
) -> None:
    """With several writers (the PostgreSQL default), a writer held on one game's work does not
    hold another writer's games; and every game's submits still commit one after the other, in
    the order they were queued, whatever writer takes them."""
    units = SqlUnitOfWorkFactory(db_engine, registry)
    committer = GroupCommitter(units, writers=4)
    service = Services.build(units, registry, FakePublisher(), FixedClock(), committer)
    try:
        held_key, free_key = _keys_on_distinct_writers(committer, 2)
        holding, release = threading.Event(), threading.Event()

        def hold(_uow: UnitOfWork) -> None:
            holding.set()
            release.wait(60)

        held = committer.start(held_key, hold)
        assert holding.wait(10)
        # Another writer's game commits while the first writer is still held.
        assert committer.run(free_key, lambda _uow: "committed") == "committed"
        # The held writer's later works wait behind it, in order.
        after = committer.start(held_key, lambda _uow: "after")
        time.sleep(0.05)
        assert not after.done()
        release.set()
        assert held.result(10) is None
        assert after.result(10) == "after"

        # A whole game's moves from many threads on many games at once: each game's history is
        # gap-free and its version counts every move.
        duels = [start_duel(service) for _ in range(8)]
        with ThreadPoolExecutor(max_workers=16) as pool:
            answers = list(
                pool.map(
                    lambda pair: card(service, pair[0], pair[1])(), [(d, s) for d in duels for s in (0, 1)]
                )
            )
        assert sorted(a.status for a in answers) == ["applied"] * 8 + ["sealed"] * 8
        for duel in duels:
            stored = service.core.load(duel.game_id)
            history = service.reads.history(duel.game_id, after=0, limit=1_000)
            assert [e.seq for e in history] == list(range(1, stored.last_seq + 1))
            assert stored.engine.dump(stored.state)["phase"] == "bank"
        used = {thread.name for thread in threading.enumerate() if thread.name.startswith("group-commit-")}
        assert len(used) > 1
    finally:
        committer.close()
    assert not any(t.name.startswith("group-commit-") and t.is_alive() for t in threading.enumerate())


def test_on_postgresql_a_works_savepoint_rides_with_its_read_and_is_never_released(
    service: Services, committer: GroupCommitter, db_engine: Engine
) -> None:
    """Among others in a batch, each work's savepoint is sent in one pipeline with its locking
    read (one round trip for both) and is not released (the commit ends them): two round trips
    fewer per work than a savepoint of its own and its release. A work refused after its write is
    still undone alone."""
    if db_engine.dialect.name != "postgresql":
        pytest.skip("savepoints are PostgreSQL's round trips; SQLite's are in-process")
    kept, undone = start_duel(service), start_duel(service)
    before = {d.game_id: service.core.load(d.game_id).version for d in (kept, undone)}
    sent: list[tuple[str, bool]] = []

    def record(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        pipeline = conn.connection.driver_connection.pgconn.pipeline_status
        sent.append((" ".join(statement.split())[:40].upper(), bool(pipeline)))

    def writes_then_refuses(uow: UnitOfWork) -> None:
        match = uow.games.get(undone.game_id, for_update=True)
        match.submit(0, {"card": 3})
        service.core.save(uow, match, 0)
        raise NotYourDecision("refused after its write")

    event.listen(db_engine, "before_cursor_execute", record)
    try:
        futures = one_batch(
            committer,
            [
                card(service, kept, 0),
                lambda: committer.run("\x7flast", writes_then_refuses),
                card(service, kept, 1),
            ],
        )
        answers = [outcome(future) for future in futures]
    finally:
        event.remove(db_engine, "before_cursor_execute", record)
    assert sorted(a.status for a in (answers[0], answers[2])) == ["applied", "sealed"]
    assert isinstance(answers[1], NotYourDecision)
    assert service.core.load(kept.game_id).version == before[kept.game_id] + 2
    assert service.core.load(undone.game_id).version == before[undone.game_id]
    assert not [statement for statement, _ in sent if statement.startswith("RELEASE")]
    savepoints = [index for index, (statement, _) in enumerate(sent) if statement.startswith("SAVEPOINT")]
    assert len(savepoints) == 3, sent
    for index in savepoints:
        assert sent[index][1] and sent[index + 1][1], "the savepoint and its read share a pipeline"
        assert sent[index + 1][0].startswith("SELECT"), sent[index + 1]
    assert [statement for statement, _ in sent if statement.startswith("ROLLBACK TO")] == [
        "ROLLBACK TO SAVEPOINT TABLETOP_WORK"
    ]
