"""Tournaments in memory, with the SQL repository's guards: the version at save, one table per
(tournament, round, number) and per game, ranks written once."""

from __future__ import annotations

import copy
from datetime import datetime

from domain.engine import Document, Event
from domain.errors import TournamentNotFound, VersionConflict
from domain.model.idempotency import Remembered
from domain.model.match import RecordedEvent
from domain.tournaments.tournament import Tournament


class FakeTournamentRepository:
    def __init__(self) -> None:
        self.rows: dict[str, Tournament] = {}
        self.table_keys: dict[tuple[str, int, int], str] = {}
        self.stored_events: dict[str, list[RecordedEvent]] = {}
        self.creates: dict[str, tuple[str, Remembered]] = {}

    def add(self, tournament: Tournament) -> None:
        self._store(tournament)

    def get(self, tournament_id: str, for_update: bool = False) -> Tournament:
        if tournament_id not in self.rows:
            raise TournamentNotFound("no tournament with id {id!q}", id=tournament_id)
        return copy.deepcopy(self.rows[tournament_id])

    def save(self, tournament: Tournament) -> None:
        stored = self.rows.get(tournament.id)
        if stored is None or stored.version != tournament.loaded_version:
            raise VersionConflict("tournament {tournament} changed", tournament=tournament.id)
        self._store(tournament)

    def _store(self, tournament: Tournament) -> None:
        for table in tournament.new_tables:
            key = (tournament.id, table.round, table.number)
            if key in self.table_keys or table.game_id in self.table_keys.values():
                raise VersionConflict("round {round} exists", round=table.round)
            self.table_keys[key] = table.game_id
        tournament.new_tables.clear()
        tournament.recorded.clear()
        self.stored_events.setdefault(tournament.id, []).extend(
            RecordedEvent(seq, Event(e.type, dict(e.data))) for seq, e in tournament.numbered_events()
        )
        tournament.loaded_version = tournament.version
        kept = copy.deepcopy(tournament)
        kept.new_events.clear()
        self.rows[tournament.id] = kept

    def events(self, tournament_id: str, after: int, limit: int) -> list[RecordedEvent]:
        return [e for e in self.stored_events.get(tournament_id, []) if e.seq > after][:limit]

    def remember_create(self, key_hash: str, tournament_id: str, result: Document, fingerprint: str) -> None:
        if key_hash in self.creates:
            raise VersionConflict("a concurrent create with the same idempotency key won")
        self.creates[key_hash] = (tournament_id, Remembered(result, fingerprint))

    def created_for_key(self, key_hash: str) -> Remembered | None:
        found = self.creates.get(key_hash)
        return found[1] if found is not None else None

    def of_game(self, game_id: str) -> str | None:
        return next((k[0] for k, g in self.table_keys.items() if g == game_id), None)

    def rated_of_game(self, game_id: str) -> bool | None:
        found = self.of_game(game_id)
        return None if found is None else self.rows[found].rated

    def list_public(self, status: str | None, limit: int, offset: int) -> list[Tournament]:
        found = [
            t for t in self.rows.values() if not t.private and (status is None or t.status.value == status)
        ]
        found.sort(key=lambda t: (-t.created_at.timestamp(), t.id))
        return [copy.deepcopy(t) for t in found[offset : offset + limit]]

    def claim_due(self, now: datetime) -> str | None:
        due = [t for t in self.rows.values() if t.next_action_at is not None and t.next_action_at <= now]
        return min(due, key=lambda t: t.next_action_at or now).id if due else None
