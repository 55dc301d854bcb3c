"""Two server processes on one database, each with its kept states and its group commit, and the
moves of Carcassonne games through them: for the tests of the owner's unread load and of held
writes (``persistence.hot_states``, ``persistence.driver_sql``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Engine

from domain.engine import Choice
from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.play import SubmitAnswer
from persistence.group_commit import GroupCommitter
from persistence.hot_states import HotStates
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, FixedClock


@dataclass
class Process:
    """What one server process holds: its kept states and its group commit."""

    services: Services
    kept: HotStates
    committer: GroupCommitter


@contextmanager
def two_processes(db_engine: Engine, registry: EngineRegistry) -> Iterator[tuple[Process, Process]]:
    made = []
    for _ in range(2):
        kept = HotStates(capacity=16)
        units = SqlUnitOfWorkFactory(db_engine, registry, kept)
        committer = GroupCommitter(units)
        made.append(
            Process(
                Services.build(units, registry, FakePublisher(), FixedClock(), committer), kept, committer
            )
        )
    try:
        yield made[0], made[1]
    finally:
        for process in made:
            process.committer.close()


@dataclass
class Game:
    game_id: str
    host_token: str
    tokens: list[str]


def started(process: Process, slug: str = "carcassonne", players: int = 2) -> Game:
    services = process.services
    created = services.lobby.create_game(slug, None, "unread-loads")
    tokens = []
    for n in range(players):
        joined = services.seats.join(created.match.id, f"player {n}")
        assert joined.token is not None
        tokens.append(joined.token)
    services.seats.start(created.match.id, created.host_token)
    return Game(created.match.id, created.host_token, tokens)


def next_move(process: Process, game: Game) -> tuple[int, Choice, int]:
    """The seat to decide, its first legal choice and the version, as stored."""
    match = process.services.core.load(game.game_id)
    decision = match.decision()
    assert decision is not None
    seat = decision.seats[0]
    _, choices = match.choices_for(seat)
    return seat, choices[0], match.version


def move(process: Process, game: Game, key: str | None = None, with_version: bool = True) -> SubmitAnswer:
    seat, choice, version = next_move(process, game)
    return process.services.play.submit(
        game.game_id, game.tokens[seat], choice, version if with_version else None, idempotency_key=key
    )


def assert_applied_once_each(process: Process, game: Game, moves: int) -> None:
    """The stored game counts every move once: a version per move, a gap-free history, one
    recorded decision per version."""
    match = process.services.core.load(game.game_id)
    history = process.services.reads.history(game.game_id, after=0, limit=10_000)
    assert [event.seq for event in history] == list(range(1, match.last_seq + 1))
    with process.services.core.uow() as uow:
        applied = uow.games.applied_choices(game.game_id)
    versions = [entry.version for entry in applied]
    assert versions == sorted(set(versions))
    assert len(applied) == moves
