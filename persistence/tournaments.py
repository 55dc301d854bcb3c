"""The SQL tournament repository: the aggregate as a row and a document, its round tables as rows.

Exactly once: ``save`` writes the row only at the version it was loaded at, and a round's tables
go in under the key (tournament, round, number) with a unique game id; a second writer of the same
round fails one or the other, its whole transaction (the games it created with it) is rolled back,
and the service's retry finds the round there. A result is written only while ``ranks`` is NULL."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import RowMapping, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from domain.engine import Document, Event
from domain.errors import TournamentNotFound, VersionConflict
from domain.model.idempotency import Remembered
from domain.model.match import RecordedEvent
from domain.tournaments.model import Bye, Format, Seating
from domain.tournaments.tournament import Registration, RoundTable, Tournament, TournamentStatus
from persistence.mapping import as_utc
from persistence.tables import (
    tournament_create_requests,
    tournament_events,
    tournament_tables,
    tournaments,
)


class SqlTournamentRepository:
    """``domain.ports.tournaments.TournamentRepository`` on the unit of work's session."""

    def __init__(self, session: Session, before_write: Callable[[], None]) -> None:
        self.session = session
        self._before_write = before_write
        self._row_locks = session.get_bind().dialect.name == "postgresql"

    def add(self, tournament: Tournament) -> None:
        self._before_write()
        self.session.execute(insert(tournaments).values(_values(tournament)))
        self._write_tables(tournament)
        self._write_events(tournament)
        tournament.loaded_version = tournament.version

    def get(self, tournament_id: str, for_update: bool = False) -> Tournament:
        query = select(tournaments).where(tournaments.c.id == tournament_id)
        if for_update and self._row_locks:
            query = query.with_for_update()
        row = self.session.execute(query).mappings().first()
        if row is None:
            raise TournamentNotFound("no tournament with id {id!q}", id=tournament_id)
        tables = self.session.execute(
            select(tournament_tables)
            .where(tournament_tables.c.tournament_id == tournament_id)
            .order_by(tournament_tables.c.round, tournament_tables.c.number)
        ).mappings()
        return _tournament(row, list(tables))

    def save(self, tournament: Tournament) -> None:
        self._before_write()
        values = _values(tournament)
        del values["id"], values["created_at"], values["host_token_hash"]
        written = self.session.execute(
            update(tournaments)
            .where(tournaments.c.id == tournament.id, tournaments.c.version == tournament.loaded_version)
            .values(values)
        )
        updated = written.rowcount  # type: ignore[attr-defined]
        if updated == 0:
            raise VersionConflict(
                "tournament {tournament} changed since it was loaded at version {version}; reload and retry",
                tournament=tournament.id,
                version=tournament.loaded_version,
            )
        self._write_tables(tournament)
        for table in tournament.recorded:
            self.session.execute(
                update(tournament_tables)
                .where(tournament_tables.c.game_id == table.game_id, tournament_tables.c.ranks.is_(None))
                .values(ranks=list(table.ranks or ()))
            )
        tournament.recorded.clear()
        self._write_events(tournament)
        tournament.loaded_version = tournament.version

    def _write_events(self, tournament: Tournament) -> None:
        """The new events under (tournament, seq): written with the row's guarded update, so
        they commit with the change or not at all (left in ``new_events`` for publishing)."""
        numbered = tournament.numbered_events()
        if not numbered:
            return
        now = datetime.now(UTC)
        self.session.execute(
            insert(tournament_events),
            [
                {
                    "tournament_id": tournament.id,
                    "seq": seq,
                    "type": event.type,
                    "data": dict(event.data),
                    "created_at": now,
                }
                for seq, event in numbered
            ],
        )

    def events(self, tournament_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]:
        rows = self.session.execute(
            select(tournament_events.c.seq, tournament_events.c.type, tournament_events.c.data)
            .where(tournament_events.c.tournament_id == tournament_id, tournament_events.c.seq > after)
            .order_by(tournament_events.c.seq)
            .limit(limit)
        )
        return [RecordedEvent(seq, Event(kind, data)) for seq, kind, data in rows]

    def remember_create(self, key_hash: str, tournament_id: str, result: Document, fingerprint: str) -> None:
        """The key's primary key decides between two concurrent creates with one key."""
        self._before_write()
        values = {
            "key_hash": key_hash,
            "tournament_id": tournament_id,
            "fingerprint": fingerprint,
            "response": result,
            "created_at": datetime.now(UTC),
        }
        try:
            with self.session.begin_nested():
                self.session.execute(insert(tournament_create_requests).values(values))
        except IntegrityError:
            raise VersionConflict("a concurrent create with the same idempotency key won") from None

    def created_for_key(self, key_hash: str) -> Remembered | None:
        row = self.session.execute(
            select(tournament_create_requests.c.response, tournament_create_requests.c.fingerprint).where(
                tournament_create_requests.c.key_hash == key_hash
            )
        ).first()
        return None if row is None else Remembered(row.response, row.fingerprint)

    def _write_tables(self, tournament: Tournament) -> None:
        if not tournament.new_tables:
            return
        rows = [
            {
                "tournament_id": tournament.id,
                "round": t.round,
                "number": t.number,
                "game_id": t.game_id,
                "players": list(t.players),
                "ranks": list(t.ranks) if t.ranks is not None else None,
            }
            for t in tournament.new_tables
        ]
        try:
            with self.session.begin_nested():
                self.session.execute(insert(tournament_tables), rows)
        except IntegrityError:
            raise VersionConflict(
                "round {round} of tournament {tournament} was created by another writer",
                round=tournament.new_tables[0].round,
                tournament=tournament.id,
            ) from None
        tournament.new_tables.clear()

    def of_game(self, game_id: str) -> str | None:
        found: str | None = self.session.execute(
            select(tournament_tables.c.tournament_id).where(tournament_tables.c.game_id == game_id)
        ).scalar_one_or_none()
        return found

    def rated_of_game(self, game_id: str) -> bool | None:
        found = self.session.execute(
            select(tournaments.c.document)
            .join(tournament_tables, tournament_tables.c.tournament_id == tournaments.c.id)
            .where(tournament_tables.c.game_id == game_id)
        ).scalar_one_or_none()
        return None if found is None else bool(found["rated"])

    def list_public(self, status: str | None, limit: int, offset: int) -> builtins.list[Tournament]:
        query = select(tournaments.c.id).where(tournaments.c.private.is_(False))
        if status is not None:
            query = query.where(tournaments.c.status == status)
        query = query.order_by(tournaments.c.created_at.desc(), tournaments.c.id).limit(limit).offset(offset)
        return [self.get(found) for found in self.session.execute(query).scalars()]

    def claim_due(self, now: datetime) -> str | None:
        """``FOR UPDATE SKIP LOCKED`` on PostgreSQL: instances share the due tournaments without
        waiting for each other. SQLite has one writer at a time: the write lock is taken first."""
        self._before_write()
        query = (
            select(tournaments.c.id)
            .where(tournaments.c.next_action_at <= as_utc(now))
            .order_by(tournaments.c.next_action_at)
            .limit(1)
            .with_for_update(skip_locked=True)
        )
        found: str | None = self.session.execute(query).scalar_one_or_none()
        return found


def _values(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.id,
        "version": t.version,
        "status": t.status.value,
        "game_type": t.game_type,
        "private": t.private,
        "starts_at": _utc(t.starts_at),
        "next_action_at": _utc(t.next_action_at),
        "created_at": as_utc(t.created_at),
        "host_token_hash": t.host_token_hash,
        "document": {
            "name": t.name,
            "options": t.options,
            "clock": t.clock,
            "format": t.format.value,
            "rounds_asked": t.rounds_asked,
            "seating": [t.seating.fewest, t.seating.most],
            "max_players": t.max_players,
            "rated": t.rated,
            "pause_seconds": t.pause_seconds,
            "invite_code_hash": t.invite_code_hash,
            "creator_id": t.creator_id,
            "entrants": [
                {
                    "player_id": e.player_id,
                    "name": e.name,
                    "rating": e.rating,
                    "registered_at": as_utc(e.registered_at).isoformat(),
                    "withdrawn": e.withdrawn,
                }
                for e in t.entrants
            ],
            "byes": [[b.round, b.player] for b in t.byes],
            "planned_rounds": t.planned_rounds,
            "current_round": t.current_round,
            "next_round_at": _iso(t.next_round_at),
            "finished_at": _iso(t.finished_at),
        },
    }


def _tournament(row: RowMapping, tables: list[RowMapping]) -> Tournament:
    doc = row["document"]
    fewest, most = doc["seating"]
    return Tournament(
        id=row["id"],
        name=doc["name"],
        game_type=row["game_type"],
        options=doc["options"],
        clock=doc["clock"],
        format=Format(doc["format"]),
        rounds_asked=doc["rounds_asked"],
        seating=Seating(fewest, most),
        max_players=doc["max_players"],
        private=row["private"],
        rated=doc["rated"],
        pause_seconds=doc["pause_seconds"],
        host_token_hash=row["host_token_hash"],
        created_at=as_utc(row["created_at"]),
        starts_at=_utc(row["starts_at"]),
        status=TournamentStatus(row["status"]),
        version=row["version"],
        loaded_version=row["version"],
        entrants=[
            Registration(
                e["player_id"],
                e["name"],
                float(e["rating"]),
                datetime.fromisoformat(e["registered_at"]),
                bool(e["withdrawn"]),
            )
            for e in doc["entrants"]
        ],
        tables=[
            RoundTable(
                t["round"],
                t["number"],
                t["game_id"],
                tuple(t["players"]),
                tuple(t["ranks"]) if t["ranks"] is not None else None,
            )
            for t in tables
        ],
        byes=[Bye(r, p) for r, p in doc["byes"]],
        planned_rounds=doc["planned_rounds"],
        current_round=doc["current_round"],
        next_round_at=_from_iso(doc["next_round_at"]),
        finished_at=_from_iso(doc["finished_at"]),
        invite_code_hash=doc["invite_code_hash"],
        creator_id=doc["creator_id"],
    )


def _utc(moment: datetime | None) -> datetime | None:
    return as_utc(moment) if moment is not None else None


def _iso(moment: datetime | None) -> str | None:
    return as_utc(moment).isoformat() if moment is not None else None


def _from_iso(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text).astimezone(UTC) if text is not None else None
