"""The SQL game repository: one row per match holds its current state, events are appended.

Cost per request is bounded whatever the game's length: ``get`` is one ``SELECT`` by primary key
(history is never replayed), ``save`` one guarded ``UPDATE`` plus one bulk ``INSERT`` of the new
events (on PostgreSQL both in one statement, ``_save_with_events``). Statements are SQLAlchemy
Core executed through the session, which keeps them inside the unit of work's transaction without
the ORM's identity-map bookkeeping; those of every move (the
get by id, the guarded ``UPDATE``, the events' and choices' ``INSERT``) go to the driver's cursor
as SQL compiled once (``persistence.driver_sql``), in that same transaction. In a batch that
holds its writes (PostgreSQL), ``save``'s statement and the choices' are held for the batch's
pipeline, and the guard's answer is checked when it comes (``_saved``): a failed one reruns the
batch, where it raises ``VersionConflict`` as here.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache, partial
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Text,
    and_,
    bindparam,
    cast,
    exists,
    func,
    insert,
    literal,
    not_,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from domain.engine import Document
from domain.errors import GameNotFound, VersionConflict
from domain.model.idempotency import Remembered
from domain.model.lobby import GameSummary, LobbyCursor, LobbyFilter
from domain.model.match import AppliedChoices, Match, RecordedEvent
from domain.ports.games import BotGame
from domain.registry import EngineRegistry
from persistence import fast_json
from persistence.driver_sql import DriverStatement, holding
from persistence.hot_states import TransactionStates
from persistence.mapping import (
    FIXED_GAME_COLUMNS,
    event_from_row,
    event_values,
    game_values,
    kept_row,
    match_from_row,
    row_from_kept,
    summary_from_row,
)
from persistence.tables import (
    GAME_ID_LENGTH,
    create_requests,
    game_choices,
    game_events,
    games,
    idempotency,
    webhook_endpoints,
)
from persistence.webhook_targets import KnownWithoutTargets

_SUMMARY_COLUMNS = (
    games.c.id,
    games.c.game_type,
    games.c.status,
    games.c.seats,
    games.c.version,
    games.c.created_at,
    games.c.updated_at,
    games.c.seed_mode,
    games.c.max_players,
    games.c.awaited_seats,
    games.c.timing,
    games.c.creator_id,
)


# Built once: SQLAlchemy memoises the cache key of a statement object, so reusing these spares the
# construction and key generation that a fresh statement costs on every request.
# The state comes as text and is decoded only when no kept state (``HotStates``) replaces it.
_GAME_ROW = select(
    *(column for column in games.c if column.name != "state"),
    cast(games.c.state, Text).label("state"),
).where(games.c.id == bindparam("game_id"))
_GET_GAME = DriverStatement(_GAME_ROW)
_GET_GAME_FOR_UPDATE = DriverStatement(_GAME_ROW.with_for_update())
_SEAT_PLAYERS = (
    select(func.json_array_elements(games.c.seats).op("->>")(literal("player_id")))
    .correlate(games)
    .scalar_subquery()
)
_HAS_WEBHOOK_TARGETS = exists().where(
    webhook_endpoints.c.status == "active",
    or_(webhook_endpoints.c.game_id == games.c.id, webhook_endpoints.c.player_id.in_(_SEAT_PLAYERS)),
)
# PostgreSQL only (``json_array_elements``): the outbox's question "any webhook target?" answered
# by the locking read of every move, one round trip fewer (``persistence.webhook_targets``).
_GET_GAME_FOR_UPDATE_WITH_TARGETS = DriverStatement(
    _GAME_ROW.add_columns(_HAS_WEBHOOK_TARGETS.label("webhook_targets")).with_for_update(of=games)
)
_CHANGED_COLUMNS = [column for column in games.c if column.key not in FIXED_GAME_COLUMNS]
_SAVE_GAME = DriverStatement(
    update(games).where(games.c.id == bindparam("match_id"), games.c.version == bindparam("loaded_version")),
    [column.key for column in _CHANGED_COLUMNS],
)
_APPEND_EVENTS = DriverStatement(insert(game_events), [c.key for c in game_events.c])
_MAX_EVENTS_WITH_SAVE = 16
"""Events a change writes in the statement of its guarded ``UPDATE`` at most (one compiled
statement per count, so a bounded few); a longer change uses two statements."""


@cache
def _save_with_events(count: int) -> DriverStatement:
    """PostgreSQL, compiled on first use for each ``count``: the guarded ``UPDATE`` and the
    ``count`` events' ``INSERT`` in one statement (one round trip fewer per move). The events are
    selected from the rows the ``UPDATE`` returned, so a version conflict (no row updated) inserts
    none: the row count is 0 exactly then, ``count`` otherwise. Each inserted row returns whether
    the game has a webhook target, asked of the row as written (its new seats), as the locking read
    asks it (``persistence.webhook_targets``): a move whose read was skipped needs no other ask."""
    saved = (
        update(games)
        .where(games.c.id == bindparam("match_id"), games.c.version == bindparam("loaded_version"))
        .values({column: bindparam(f"set_{column.key}", type_=column.type) for column in _CHANGED_COLUMNS})
        .returning(games.c.id, _HAS_WEBHOOK_TARGETS.label("webhook_targets"))
        .cte("saved")
    )
    rows = [
        select(*(bindparam(f"e{n}_{column.key}", type_=column.type) for column in game_events.c)).select_from(
            saved
        )
        for n in range(count)
    ]
    source = rows[0] if count == 1 else union_all(*rows)
    return DriverStatement(
        insert(game_events)
        .from_select([column.key for column in game_events.c], source)
        .add_cte(saved)
        .returning(select(saved.c.webhook_targets).scalar_subquery())
    )


_APPEND_CHOICES = DriverStatement(insert(game_choices), [c.key for c in game_choices.c])
_EVENTS_AFTER = (
    select(game_events)
    .where(game_events.c.game_id == bindparam("game_id"), game_events.c.seq > bindparam("after"))
    .order_by(game_events.c.seq)
    .limit(bindparam("limit"))
)
_GAME_EXISTS = select(exists().where(games.c.id == bindparam("game_id")))
_GET_RESULT = DriverStatement(
    select(idempotency.c.response, idempotency.c.fingerprint).where(
        idempotency.c.game_id == bindparam("game_id"), idempotency.c.key == bindparam("key")
    )
)
"""On the driver: a move by the game's owner may begin with it (its read skipped), and then its
savepoint rides with it."""
_REMEMBER_RESULT = insert(idempotency)
_GET_CREATE = select(create_requests.c.response, create_requests.c.fingerprint).where(
    create_requests.c.key_hash == bindparam("key_hash")
)


class SqlGameRepository:
    """``domain.ports.games.GameRepository`` on a SQLAlchemy session (SQLite or PostgreSQL)."""

    def __init__(
        self,
        session: Session,
        registry: EngineRegistry,
        before_write: Callable[[], None] | None = None,
        states: TransactionStates | None = None,
        without_targets: KnownWithoutTargets | None = None,
    ) -> None:
        """``states``: the unit of work's bookkeeping of kept engine states (none kept if None)."""
        self.session = session
        self._without_targets = without_targets
        self.registry = registry
        self._before_write = before_write or _nothing
        self._row_locks = session.get_bind().dialect.name == "postgresql"
        self._states = states or TransactionStates(None)

    def add(self, match: Match) -> None:
        self._before_write()
        self.session.execute(insert(games).values(game_values(match, _now())))
        self._written(match)
        self._append_events(match)

    def get(self, game_id: str, for_update: bool = False) -> Match:
        """``for_update``: the caller means to write, so on PostgreSQL concurrent writers of this
        game queue on the row lock here instead of losing the version race at ``save`` (SQLite
        already has one writer at a time; a lock there would only hold readers up)."""
        if not _storable_id(game_id):
            raise GameNotFound("no game with that id")
        if for_update and (unread := self._states.unread(game_id)) is not None:
            # This process wrote the game last that it knows of: its guarded ``UPDATE`` checks.
            _, live, kept, had_targets = unread
            kept_values = row_from_kept(kept)
            if not had_targets and self._without_targets is not None and holding(self.session.connection()):
                # its save's held answer confirms it (``_saved``), or the batch runs again
                self._without_targets.assumed(game_id, kept_values["seats"])
            return match_from_row(kept_values, self.registry, live)
        locked = for_update and self._row_locks
        targets = self._without_targets if locked else None
        if targets is not None:
            statement = _GET_GAME_FOR_UPDATE_WITH_TARGETS
        else:
            statement = _GET_GAME_FOR_UPDATE if locked else _GET_GAME
        row = statement.first(self.session.connection(), {"game_id": game_id})
        if row is None:
            raise GameNotFound("no game with id {id!q}", id=game_id)
        if targets is not None:
            targets.loaded(game_id, row.pop("webhook_targets"), row["seats"])
        stored = row["state"]
        live = self._states.state_at(game_id, row["version"], for_update) if stored else None
        if live is not None or stored is None:
            return match_from_row(row, self.registry, live)
        return match_from_row({**row, "state": fast_json.loads(stored)}, self.registry)

    def save(self, match: Match) -> None:
        """Write the match only if nobody else did since it was loaded (optimistic locking)."""
        self._before_write()
        all_values = game_values(match, _now())
        values = {key: value for key, value in all_values.items() if key not in FIXED_GAME_COLUMNS}
        events = match.new_events
        with_events = self._row_locks and 0 < len(events) <= _MAX_EVENTS_WITH_SAVE
        if with_events:
            statement = _save_with_events(len(events))
            values = {f"set_{key}": value for key, value in values.items()}
            for n, recorded in enumerate(events):
                for key, value in event_values(match.id, recorded).items():
                    values[f"e{n}_{key}"] = value
        else:
            statement = _SAVE_GAME
        values["match_id"] = match.id
        values["loaded_version"] = match.loaded_version
        connection = self.session.connection()
        answer = partial(self._saved, match.id, all_values["seats"] if with_events else None)
        if not with_events and self._without_targets is not None:
            self._without_targets.retract(match.id)  # no answer from this save to confirm it
        if holding(connection):
            # Sent with the batch's next statement that needs a result, or at its commit; the
            # work goes on as if the guard passed, and the batch is run again if it did not.
            statement.hold(connection, values, answer)
        else:
            cursor = statement.execute(connection, values)
            try:
                passed = answer(cursor)
            finally:
                cursor.close()
            if not passed:
                raise VersionConflict(
                    "game {game} changed since it was loaded at version {version}; reload and retry",
                    game=match.id,
                    version=match.loaded_version,
                )
        self._written(match, all_values)
        self._append_events(match, events_written=with_events)

    def _saved(self, game_id: str, seats: Any, cursor: Any) -> bool:
        """The answer of ``save``'s guarded ``UPDATE``: whether it wrote the row. ``seats``: the
        seats written, when the statement also answers whether the game has a webhook target (the
        question the locking read answers, for the seats just written); False as well when a
        move assumed "none" from its owner's kept row and there is one (``KnownWithoutTargets``)."""
        if cursor.rowcount == 0:
            self._states.forget(game_id)
            return False
        if seats is not None and self._without_targets is not None:
            has_targets = bool(cursor.fetchone()[0])
            self._states.answered_targets(game_id, has_targets)
            return self._without_targets.confirmed(game_id, has_targets, seats)
        return True

    def list(
        self, where: LobbyFilter, limit: int, after: LobbyCursor | None = None
    ) -> builtins.list[GameSummary]:
        """Newest first, private games never; ``id`` breaks ties so pages stay stable."""
        query = select(*_SUMMARY_COLUMNS).where(*_lobby_conditions(where))
        if after is not None:
            query = query.where(
                or_(
                    games.c.created_at < after.created_at,
                    and_(games.c.created_at == after.created_at, games.c.id < after.id),
                )
            )
        query = query.order_by(games.c.created_at.desc(), games.c.id.desc()).limit(limit)
        return [summary_from_row(row) for row in self.session.execute(query).mappings()]

    def count(self, where: LobbyFilter) -> int:
        query = select(func.count()).select_from(games).where(*_lobby_conditions(where))
        return int(self.session.execute(query).scalar_one())

    def count_open_listed(self, creator_id: str, creator_address: str | None) -> tuple[int, int]:
        """Open listed lobbies of this player, and of this client address. Taken under the write
        lock (SQLite) or a transaction lock on the player (PostgreSQL), so that concurrent
        creates on any worker or instance count each other."""
        self._before_write()
        if self._row_locks:
            self.session.execute(select(func.pg_advisory_xact_lock(func.hashtext("listed:" + creator_id))))
            if creator_address is not None:
                self.session.execute(
                    select(func.pg_advisory_xact_lock(func.hashtext("listed:" + creator_address)))
                )
        listed = and_(games.c.status == "lobby", games.c.private.is_(False), games.c.creator_id.is_not(None))
        by_player = select(func.count()).where(listed, games.c.creator_id == creator_id)
        by_address = select(func.count()).where(listed, games.c.creator_address == creator_address)
        player_count = int(self.session.execute(by_player).scalar_one())
        if creator_address is None:
            return player_count, 0
        return player_count, int(self.session.execute(by_address).scalar_one())

    def events(self, game_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]:
        if not _storable_id(game_id):
            raise GameNotFound("no game with that id")
        """Events with ``seq > after`` in order; the existence check only runs on an empty page."""
        rows = self.session.execute(
            _EVENTS_AFTER, {"game_id": game_id, "after": after, "limit": limit}
        ).mappings()
        found = [event_from_row(row) for row in rows]
        if not found and not self._exists(game_id):
            raise GameNotFound("no game with id {id!q}", id=game_id)
        return found

    def bot_games_in_progress(self, after: str, limit: int) -> builtins.list[BotGame]:
        """Keyset pages by id: complete however many games there are, cheap at any depth."""
        rows = self.session.execute(
            select(games.c.id, games.c.human_seats)
            .where(games.c.status == "in_progress", games.c.bot_seats > 0, games.c.id > after)
            .order_by(games.c.id)
            .limit(limit)
        ).all()
        return [BotGame(row.id, row.human_seats > 0) for row in rows]

    def count_bot_only_in_progress(self) -> int:
        count = self.session.execute(
            select(func.count()).where(
                games.c.status == "in_progress", games.c.bot_seats > 0, games.c.human_seats == 0
            )
        ).scalar_one()
        return int(count)

    def count_by_status(self) -> dict[str, int]:
        """Games per status (only statuses that occur), served by the status index."""
        rows = self.session.execute(select(games.c.status, func.count()).group_by(games.c.status)).all()
        return {status: count for status, count in rows}

    def idempotent_result(self, game_id: str, key: str) -> Remembered | None:
        row = _GET_RESULT.first(self.session.connection(), {"game_id": game_id, "key": key})
        return None if row is None else Remembered(row["response"], row["fingerprint"])

    def remember_result(
        self, game_id: str, key: str, result: Document, fingerprint: str | None = None
    ) -> None:
        self._before_write()
        self.session.execute(
            _REMEMBER_RESULT,
            {
                "game_id": game_id,
                "key": key,
                "response": result,
                "fingerprint": fingerprint,
                "created_at": _now(),
            },
        )

    def claim_due(self, now: datetime, lobby_created_before: datetime | None) -> str | None:
        """``FOR UPDATE SKIP LOCKED`` on PostgreSQL: instances share the due games without
        waiting for each other. SQLite has one writer at a time: the write lock is taken first."""
        due = games.c.next_deadline <= now
        if lobby_created_before is not None:
            due = or_(
                due,
                and_(games.c.status == "lobby", games.c.created_at < lobby_created_before),
            )
        self._before_write()
        query = (
            select(games.c.id)
            .where(due)
            .order_by(games.c.next_deadline)
            .limit(1)
            .with_for_update(skip_locked=True)
        )
        game_id: str | None = self.session.execute(query).scalar_one_or_none()
        return game_id

    def created_for_key(self, key_hash: str) -> Remembered | None:
        row = self.session.execute(_GET_CREATE, {"key_hash": key_hash}).first()
        return None if row is None else Remembered(row.response, row.fingerprint)

    def remember_create(self, key_hash: str, game_id: str, result: Document, fingerprint: str) -> None:
        """The key's primary key decides between two concurrent creates with one key."""
        self._before_write()
        values = {
            "key_hash": key_hash,
            "game_id": game_id,
            "fingerprint": fingerprint,
            "response": result,
            "created_at": _now(),
        }
        try:
            with self.session.begin_nested():
                self.session.execute(insert(create_requests).values(values))
        except IntegrityError:
            raise VersionConflict("a concurrent create with the same idempotency key won") from None

    def _written(self, match: Match, values: dict[str, Any] | None = None) -> None:
        """``values``: the row just written by a change (kept with the state, ``HotStates``)."""
        copy = self.registry.game(match.game_type).copy_state if self._states.keeping else None
        # A row is kept only from a change that moved the version on: every change does, and the
        # guard that checks a kept row can only tell rows apart by their version.
        moved_on = match.version != match.loaded_version
        row = kept_row(values) if values is not None and copy is not None and moved_on else None
        self._states.written(match.id, match.version, match.state, copy, row)

    def _append_events(self, match: Match, events_written: bool = False) -> None:
        """One executemany for however many events a change produced (and its choices);
        ``events_written``: the events went with the ``UPDATE`` already, only choices are left."""
        if match.new_events and not events_written:
            _APPEND_EVENTS.execute_many(
                self.session.connection(), [event_values(match.id, e) for e in match.new_events]
            )
        if match.new_choices:
            _APPEND_CHOICES.execute_many(
                self.session.connection(),
                [
                    {
                        "game_id": match.id,
                        "version": applied.version,
                        "seq": applied.seq,
                        "choices": {str(seat): c for seat, c in applied.choices.items()},
                        "undoes": list(applied.undoes) or None,
                    }
                    for applied in match.new_choices
                ],
            )
            match.new_choices.clear()

    def applied_choices(self, game_id: str) -> builtins.list[AppliedChoices]:
        rows = self.session.execute(
            select(game_choices.c.version, game_choices.c.seq, game_choices.c.choices, game_choices.c.undoes)
            .where(game_choices.c.game_id == game_id)
            .order_by(game_choices.c.version)
        ).all()
        return [
            AppliedChoices(version, seq, {int(seat): c for seat, c in choices.items()}, tuple(undoes or ()))
            for version, seq, choices, undoes in rows
        ]

    def _exists(self, game_id: str) -> bool:
        return bool(self.session.execute(_GAME_EXISTS, {"game_id": game_id}).scalar())


def _lobby_conditions(where: LobbyFilter) -> builtins.list[ColumnElement[bool]]:
    """Public games; lobbies only when listed (a player identity created them)."""
    conditions: builtins.list[ColumnElement[bool]] = [
        games.c.private.is_(False),
        or_(games.c.status != "lobby", games.c.creator_id.is_not(None)),
    ]
    taken = games.c.bot_seats + games.c.human_seats
    if where.open_seats is not None:
        conditions += [games.c.status == "lobby", games.c.max_players - taken >= where.open_seats]
    if where.players is not None:
        conditions.append(games.c.max_players == where.players)
    if where.clock is not None:
        conditions.append(games.c.clock_mode == where.clock)
    if where.status is not None:
        conditions.append(games.c.status == where.status)
    if where.game_type is not None:
        conditions.append(games.c.game_type == where.game_type)
    if where.joinable is not None:
        open_seat = and_(games.c.status == "lobby", taken < games.c.max_players)
        conditions.append(open_seat if where.joinable else not_(open_seat))
    return conditions


def _storable_id(game_id: str) -> bool:
    """Ids we issue are short ASCII; anything else (too long, NUL, lone surrogates) cannot be a
    stored game, and PostgreSQL would reject it as a query parameter: answer "not found" for it
    on both databases without asking."""
    return 0 < len(game_id) <= GAME_ID_LENGTH and game_id.isascii() and game_id.isprintable()


def _nothing() -> None:
    return None


def _now() -> datetime:
    return datetime.now(UTC)
