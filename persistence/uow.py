"""The SQL unit of work: one session and transaction per use case.

It rolls back on exit unless ``commit`` was called, so a failed guard or a ``VersionConflict``
leaves nothing behind. ``commit`` returning means the database committed (and, on PostgreSQL and
SQLite with ``synchronous=FULL``, that the change is on disk): only then may events be published.

In a group-commit batch on PostgreSQL (``hold_writes``) the works' writes that need no result at
once are held and sent in one pipeline with the next statement that needs one, or at ``commit``
(``persistence.driver_sql``). A held guard that fails raises ``StaleBatch`` before the commit and
before any later read: the batch is then rolled back and run again without holding, so a work's
answer is final only if every guard it went past held.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from types import TracebackType
from typing import Self, TypeVar

from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from domain.ports.chat import ChatRepository
from domain.ports.games import GameRepository
from domain.ports.notices import NoticeRepository
from domain.ports.players import PlayerRepository
from domain.ports.presence import PresenceRepository
from domain.ports.ratings import RatingRepository
from domain.ports.tournaments import TournamentRepository
from domain.ports.webhooks import WebhookRepository
from domain.registry import EngineRegistry
from persistence.chat import SqlChatRepository
from persistence.driver_sql import (
    ROLLBACK_TO_WORK,
    StaleBatch,
    before_statement,
    drop_held,
    hold_writes,
    mark_work,
    settle,
    unmark_work,
)
from persistence.hot_states import HotStates, TransactionStates
from persistence.notices import SqlNoticeRepository
from persistence.players import SqlPlayerRepository
from persistence.presence import SqlPresenceRepository
from persistence.ratings import SqlRatingRepository
from persistence.repository import SqlGameRepository
from persistence.tournaments import SqlTournamentRepository
from persistence.webhook_targets import KnownWithoutTargets
from persistence.webhooks import SqlWebhookRepository
from persistence.write_lock import SqliteWriteLock

T = TypeVar("T")


class SqlUnitOfWork:
    """``domain.ports.unit_of_work.UnitOfWork`` on one SQLAlchemy session."""

    games: GameRepository  # the port's type: a narrower one would not satisfy the Protocol
    players: PlayerRepository
    webhooks: WebhookRepository
    presence: PresenceRepository
    ratings: RatingRepository
    chat: ChatRepository
    tournaments: TournamentRepository
    notices: NoticeRepository

    def __init__(
        self,
        sessions: sessionmaker[Session],
        registry: EngineRegistry,
        write_lock: SqliteWriteLock | None = None,
        hot_states: HotStates | None = None,
        notice_channels: frozenset[str] = frozenset(),
    ) -> None:
        self._notice_channels = notice_channels
        self._sessions = sessions
        self._registry = registry
        self._session: Session | None = None
        self._write_lock = write_lock
        self._holds_write_lock = False
        self._states = TransactionStates(hot_states)
        self._holds_writes = False
        self._held_on: Connection | None = None

    DATABASE_ERRORS = (SQLAlchemyError, OSError)
    """Failures of the database itself: they fail the whole transaction, not one work in it."""

    def __enter__(self) -> Self:
        if self._session is not None:
            raise RuntimeError("a unit of work is single-use; ask the factory for a new one")
        self._session = self._sessions()
        without_targets = KnownWithoutTargets()
        self.games = SqlGameRepository(
            self._session, self._registry, self._before_write, self._states, without_targets
        )
        self.players = SqlPlayerRepository(self._session, self._before_write)
        self.webhooks = SqlWebhookRepository(self._session, self._before_write, without_targets)
        self.presence = SqlPresenceRepository(self._session, self._before_write)
        self.ratings = SqlRatingRepository(self._session, self._before_write)
        self.chat = SqlChatRepository(self._session, self._before_write)
        self.tournaments = SqlTournamentRepository(self._session, self._before_write)
        self.notices = SqlNoticeRepository(self._session, self._before_write, self._notice_channels)
        return self

    def _before_write(self) -> None:
        """SQLite has one writer at a time: queue writers here (across threads and worker
        processes) instead of in SQLite's busy handler, which sleeps in growing steps and turns
        contention into long tail latency."""
        if self._write_lock is not None and not self._holds_write_lock:
            # Check out the connection first: waiting for the pool while holding the lock would
            # deadlock against writers that hold a connection and wait for the lock.
            self._require_session().connection()
            self._write_lock.acquire()
            self._holds_write_lock = True

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        session = self._require_session()
        self._drop_held()
        try:
            session.rollback()  # a no-op after commit; discards everything otherwise
        finally:
            session.close()
            self._release_write_lock()
            self._states.abandoned()

    def _release_write_lock(self) -> None:
        if self._holds_write_lock:
            self._holds_write_lock = False
            assert self._write_lock is not None
            self._write_lock.release()

    def commit(self) -> None:
        try:
            if self._held_on is not None:
                settle(self._held_on)
            self._drop_held()
            self._require_session().commit()
        finally:
            self._release_write_lock()
        self._states.committed()

    def rollback(self) -> None:
        self._drop_held()
        self._require_session().rollback()
        self._states.abandoned()

    def hold_writes(self) -> None:
        """For a group-commit batch on PostgreSQL: the works' writes whose results nobody reads at
        once wait, and go to the server in one pipeline with the next statement that needs a
        result, or with the others at ``commit`` (``persistence.driver_sql.hold_writes``). A held
        guard that fails raises ``StaleBatch`` when its answer comes: the caller rolls the batch
        back and runs it again without holding."""
        self._holds_writes = True

    def _drop_held(self) -> None:
        if self._held_on is not None:
            drop_held(self._held_on)
            self._held_on = None

    def attempt(self, work: Callable[[Self], T], alone: bool = False) -> T:
        """Run one of several works sharing this transaction (``persistence.group_commit``): if
        it raises anything but a database error, what it wrote is undone and the others' stays.

        A savepoint marks where it began. SQLite's driver only opens the transaction at the first
        write, and a savepoint before that would confuse it; but then nothing before this work
        wrote anything, so undoing it is rolling the whole transaction back. ``alone``: the
        transaction holds this work only, so undoing it is the same rollback, without the
        savepoint's two round trips to a database server.

        A writer's load in the work may skip reading its game's row when this process holds it
        as it last wrote it (``persistence.hot_states``). The save's guarded ``UPDATE`` checks
        such a load; a work that is refused (a stale version, or a rule or guard applied to that
        row), or ends without having passed the guard of every game it loaded so, is undone and
        run again once on read rows: its answer is never decided by a row it did not read."""
        try:
            return self._attempt_once(work, alone, unread=True)
        except _DecidedUnread:
            return self._attempt_once(work, alone, unread=False)

    def _attempt_once(self, work: Callable[[Self], T], alone: bool, unread: bool) -> T:
        session = self._require_session()
        mark = self._states.mark()
        self._states.begin_work()
        self._states.unread_allowed = unread
        try:
            connection = session.connection()
            if connection.dialect.name == "postgresql":
                if self._holds_writes and self._held_on is None:
                    hold_writes(connection)
                    self._held_on = connection
                if not alone:
                    return self._attempt_marked(connection, work, mark)
            savepoint = (
                session.begin_nested()
                if not alone and connection.connection.driver_connection.in_transaction  # type: ignore[union-attr]
                else None
            )
            try:
                value = self._checked(work)
            except (StaleBatch, *self.DATABASE_ERRORS):
                raise
            except Exception as refused:
                if savepoint is not None:
                    savepoint.rollback()
                else:
                    self._drop_held()
                    session.rollback()
                self._undone(mark, refused)
                raise
            if savepoint is not None:
                savepoint.commit()
            return value
        finally:
            self._states.unread_allowed = False

    def _checked(self, work: Callable[[Self], T]) -> T:
        """``work``'s answer, unless it loaded a game without reading the row and did not pass
        that game's guard: then its answer is not final (``_DecidedUnread``)."""
        value = work(self)
        if self._states.unchecked:
            raise _DecidedUnread
        return value

    def _undone(self, mark: tuple[int, int], refused: Exception) -> None:
        """The work that began at ``mark`` is undone: forget what it wrote; if it loaded a game
        without reading it, its refusal (or its answer) is not final: ``_DecidedUnread``."""
        unchecked = self._states.unchecked
        self._states.undo(mark)
        self._states.begin_work()
        if unchecked and not isinstance(refused, _DecidedUnread):
            raise _DecidedUnread from refused

    def _attempt_marked(self, connection: Connection, work: Callable[[Self], T], mark: tuple[int, int]) -> T:
        """PostgreSQL, a work among others: its savepoint is sent with its first statement, in one
        pipeline with it (``persistence.driver_sql.mark_work``), and never released (the commit
        ends them all; ``MAX_BATCH`` bounds how many): two round trips fewer per work than
        SQLAlchemy's ``begin_nested`` (its own ``SAVEPOINT`` and ``RELEASE``)."""
        mark_work(connection)
        try:
            value = self._checked(work)
        except (StaleBatch, *self.DATABASE_ERRORS):
            raise
        except Exception as refused:
            # its held writes are dropped; if its savepoint was sent, what was sent is undone
            if not unmark_work(connection, undo=True):
                connection.exec_driver_sql(ROLLBACK_TO_WORK)
            self._undone(mark, refused)
            raise
        finally:
            unmark_work(connection)
        return value

    def _require_session(self) -> Session:
        if self._session is None:
            raise RuntimeError("use the unit of work as a context manager: `with uow:`")
        return self._session


class _DecidedUnread(Exception):
    """A work's outcome rested on a row it did not read: it is undone and run again on read rows."""


class SqlUnitOfWorkFactory:
    """``domain.ports.unit_of_work.UnitOfWorkFactory``: a fresh unit of work per call, sharing the engine."""

    def __init__(
        self,
        db_engine: Engine,
        registry: EngineRegistry,
        hot_states: HotStates | None = None,
        notice_channels: frozenset[str] = frozenset(),
    ) -> None:
        self.notice_channels = notice_channels
        """The channels notices are written for (``push``, ``email``): those the server sends on."""
        self.db_engine = db_engine
        self.registry = registry
        self.hot_states = hot_states
        # expire_on_commit=False: nothing is read back through the ORM after commit anyway.
        self._sessions = sessionmaker(bind=db_engine, expire_on_commit=False, autoflush=False)
        if db_engine.dialect.name == "postgresql" and not event.contains(
            db_engine, "before_cursor_execute", before_statement
        ):
            event.listen(db_engine, "before_cursor_execute", before_statement)
        database = db_engine.url.database
        self._write_lock = (
            SqliteWriteLock(os.path.abspath(database))
            if db_engine.dialect.name == "sqlite" and database
            else None
        )

    def __call__(self) -> SqlUnitOfWork:
        return SqlUnitOfWork(
            self._sessions, self.registry, self._write_lock, self.hot_states, self.notice_channels
        )
