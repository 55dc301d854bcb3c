"""Hand-written fakes of our ports, for service tests without I/O."""

from __future__ import annotations

import builtins
import copy
import dataclasses
import json
from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Self

from domain.engine import Document
from domain.errors import GameNotFound, VersionConflict
from domain.model.idempotency import Remembered
from domain.model.lobby import GameSummary, LobbyCursor, LobbyFilter, SeatSummary
from domain.model.match import AppliedChoices, Match, RecordedEvent
from domain.model.players import Player
from domain.model.presence import Connection
from domain.model.ratings import Finishing, Rating, RatingChange, SeatResult
from domain.model.webhooks import Attempt, ClaimedDelivery, Delivery, Endpoint, NewDelivery
from domain.ports.games import BotGame
from domain.ports.players import PlayerSeat
from tests.support.fake_notices import FakeNoticeRepository
from tests.support.fake_tournaments import FakeTournamentRepository


class FakePlayerRepository:
    def __init__(self) -> None:
        self.players: dict[str, Player] = {}
        self.seats: list[tuple[str, PlayerSeat]] = []

    def add(self, player: Player) -> None:
        self.players[player.id] = player

    def by_token_hash(self, token_hash: str) -> Player | None:
        return next((p for p in self.players.values() if p.token_hash == token_hash), None)

    def link_seat(self, player_id: str, game_id: str, seat: int, joined_at: datetime) -> None:
        self.seats.append((player_id, PlayerSeat(game_id, seat, joined_at)))

    def seats_of(self, player_id: str, limit: int, offset: int) -> builtins.list[PlayerSeat]:
        found = [link for owner, link in reversed(self.seats) if owner == player_id]
        return found[offset : offset + limit]


class FakeWebhookRepository:
    """Endpoints and the outbox in memory (sending is tested on real databases)."""

    def __init__(self) -> None:
        self.endpoints: dict[str, Endpoint] = {}
        self.outbox: list[NewDelivery] = []

    def add_endpoint(self, endpoint: Endpoint) -> None:
        self.endpoints[endpoint.id] = endpoint

    def get_endpoint(self, endpoint_id: str) -> Endpoint | None:
        return self.endpoints.get(endpoint_id)

    def endpoints_of(self, player_id: str | None, game_id: str | None) -> builtins.list[Endpoint]:
        return [
            e
            for e in self.endpoints.values()
            if e.status != "deleted"
            and (e.player_id == player_id if player_id is not None else e.game_id == game_id)
        ]

    def endpoints_for_game(self, game_id: str, player_ids: builtins.list[str]) -> builtins.list[Endpoint]:
        return [
            e
            for e in self.endpoints.values()
            if e.status == "active" and (e.game_id == game_id or e.player_id in player_ids)
        ]

    def set_status(self, endpoint_id: str, status: str, now: datetime | None) -> None:
        self.endpoints[endpoint_id] = dataclasses.replace(self.endpoints[endpoint_id], status=status)

    def enqueue(self, deliveries: builtins.list[NewDelivery], now: datetime) -> None:
        self.outbox.extend(deliveries)

    def deliveries_of(self, endpoint_id: str, limit: int) -> builtins.list[Delivery]:
        raise NotImplementedError("listed from the SQL repository only")

    def claim(
        self, now: datetime, lease: timedelta, owner: str, skip_endpoints: Collection[str] = ()
    ) -> ClaimedDelivery | None:
        raise NotImplementedError("sending is tested on real databases")

    def record_attempt(
        self,
        delivery_id: int,
        owner: str,
        attempt: Attempt,
        delivered: bool,
        next_attempt_at: datetime | None,
    ) -> bool:
        raise NotImplementedError("sending is tested on real databases")


class FakePresenceRepository:
    def __init__(self) -> None:
        self.connections: dict[str, Connection] = {}

    def add(self, connection: Connection) -> None:
        self.connections[connection.id] = connection

    def remove(self, connection_id: str) -> None:
        self.connections.pop(connection_id, None)

    def remove_instance(self, instance: str) -> None:
        self.connections = {k: c for k, c in self.connections.items() if c.instance != instance}

    def connected_seats(self, game_id: str, now: datetime) -> frozenset[int]:
        return frozenset(
            c.seat for c in self.connections.values() if c.game_id == game_id and c.expires_at > now
        )

    def extend(self, instance: str, until: datetime) -> None:
        for key, c in self.connections.items():
            if c.instance == instance:
                self.connections[key] = dataclasses.replace(c, expires_at=until)

    def purge_expired(self, now: datetime) -> None:
        self.connections = {k: c for k, c in self.connections.items() if c.expires_at > now}


class FakeRepository:
    def __init__(self) -> None:
        self.players = FakePlayerRepository()
        self.presence = FakePresenceRepository()
        self.webhooks = FakeWebhookRepository()
        self.ratings = FakeRatings(self.players)
        self.tournaments = FakeTournamentRepository()
        self.notices = FakeNoticeRepository()
        self.rows: dict[str, tuple[Match, str]] = {}
        self.choices: dict[str, list[AppliedChoices]] = {}
        self.stored_events: dict[str, list[RecordedEvent]] = {}
        self.results: dict[tuple[str, str], Remembered] = {}
        self.creates: dict[str, Remembered] = {}

    def add(self, match: Match) -> None:
        self._store(match)

    def get(self, game_id: str, for_update: bool = False) -> Match:
        try:
            match, state = self.rows[game_id]
        except KeyError:
            raise GameNotFound(f"no game {game_id}") from None
        loaded = copy.copy(match)
        loaded.seats = copy.deepcopy(match.seats)
        loaded.sealed = copy.deepcopy(match.sealed)
        loaded.sealed_versions = dict(match.sealed_versions)
        loaded.timing = copy.deepcopy(match.timing)
        loaded.takebacks = copy.deepcopy(match.takebacks)
        loaded.state = match.engine.load(json.loads(state)) if state else None
        loaded.loaded_version = match.version
        loaded.new_events = []
        loaded.new_choices = []
        return loaded

    def save(self, match: Match) -> None:
        current, _ = self.rows[match.id]
        if current.version != match.loaded_version:
            raise VersionConflict(f"game {match.id} changed meanwhile")
        self._store(match)

    def _store(self, match: Match) -> None:
        state = json.dumps(match.engine.dump(match.state)) if match.state is not None else ""
        stored = copy.copy(match)
        stored.seats = copy.deepcopy(match.seats)
        stored.sealed = copy.deepcopy(match.sealed)
        stored.sealed_versions = dict(match.sealed_versions)
        stored.timing = copy.deepcopy(match.timing)
        stored.takebacks = copy.deepcopy(match.takebacks)
        stored.state = None
        stored.new_events = []
        stored.new_choices = []
        self.rows[match.id] = (stored, state)
        self.stored_events.setdefault(match.id, []).extend(match.new_events)
        self.choices.setdefault(match.id, []).extend(match.new_choices)
        match.new_choices.clear()

    def list(
        self, where: LobbyFilter, limit: int, after: LobbyCursor | None = None
    ) -> builtins.list[GameSummary]:
        found = sorted(
            (m for m, _ in self.rows.values() if _matches(m, where)),
            key=lambda m: (m.created_at, m.id),
            reverse=True,
        )
        if after is not None:
            found = [m for m in found if (m.created_at, m.id) < (after.created_at, after.id)]
        return [
            GameSummary(
                m.id,
                m.game_type,
                m.status.value,
                len(m.seats),
                m.version,
                m.created_at,
                m.seed_mode,
                m.max_players,
                tuple(SeatSummary(s.index, s.name, s.bot, s.player_id) for s in m.seats),
                m.created_at,
                tuple(sorted(m.awaited_seats())),
                clock=m.timing.settings,
                creator_id=m.creator_id,
            )
            for m in found[:limit]
        ]

    def count(self, where: LobbyFilter) -> int:
        return sum(1 for m, _ in self.rows.values() if _matches(m, where))

    def events(self, game_id: str, after: int, limit: int) -> builtins.list[RecordedEvent]:
        if game_id not in self.rows:
            raise GameNotFound(f"no game {game_id}")
        return [e for e in self.stored_events.get(game_id, []) if e.seq > after][:limit]

    def bot_games_in_progress(self, after: str, limit: int) -> builtins.list[BotGame]:
        found = [
            BotGame(m.id, any(s.bot is None for s in m.seats))
            for m, _ in sorted(self.rows.values(), key=lambda row: row[0].id)
            if m.status.value == "in_progress" and m.id > after and any(s.bot for s in m.seats)
        ]
        return found[:limit]

    def count_bot_only_in_progress(self) -> int:
        return sum(
            1
            for m, _ in self.rows.values()
            if m.status.value == "in_progress" and m.seats and all(m.served(s.index) for s in m.seats)
        )

    def count_open_listed(self, creator_id: str, creator_address: str | None) -> tuple[int, int]:
        open_listed = [m for m, _ in self.rows.values() if m.listed and m.status.value == "lobby"]
        by_player = sum(1 for m in open_listed if m.creator_id == creator_id)
        by_address = sum(1 for m in open_listed if creator_address and m.creator_address == creator_address)
        return by_player, by_address

    def count_by_status(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for match, _ in self.rows.values():
            counts[match.status.value] = counts.get(match.status.value, 0) + 1
        return counts

    def idempotent_result(self, game_id: str, key: str) -> Remembered | None:
        return self.results.get((game_id, key))

    def remember_result(
        self, game_id: str, key: str, result: Document, fingerprint: str | None = None
    ) -> None:
        self.results[(game_id, key)] = Remembered(result, fingerprint)

    def created_for_key(self, key_hash: str) -> Remembered | None:
        return self.creates.get(key_hash)

    def remember_create(self, key_hash: str, game_id: str, result: Document, fingerprint: str) -> None:
        if key_hash in self.creates:
            raise VersionConflict("another create took this key first")
        self.creates[key_hash] = Remembered(result, fingerprint)

    def applied_choices(self, game_id: str) -> builtins.list[AppliedChoices]:
        return list(self.choices.get(game_id, []))

    def claim_due(self, now: datetime, lobby_created_before: datetime | None) -> str | None:
        for match, _ in self.rows.values():
            deadline = match.timing.next_deadline()
            if deadline is not None and deadline <= now:
                return match.id
            if (
                lobby_created_before is not None
                and match.status.value == "lobby"
                and match.created_at < lobby_created_before
            ):
                return match.id
        return None


class FakeUnitOfWork:
    """Commits by swapping in a copy of the repository, so an uncommitted change vanishes."""

    def __init__(self, store: FakeRepository) -> None:
        self.store = store
        self.committed = False

    def __enter__(self) -> Self:
        self.games = copy.deepcopy(self.store)
        self.players = self.games.players
        self.webhooks = self.games.webhooks
        self.presence = self.games.presence
        self.ratings = self.games.ratings
        self.tournaments = self.games.tournaments
        self.notices = self.games.notices
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.committed:
            self.store.__dict__.update(self.games.__dict__)

    def commit(self) -> None:
        self.committed = True


class FakePublisher:
    def __init__(self) -> None:
        self.published: list[tuple[str, list[RecordedEvent]]] = []

    def publish(self, game_id: str, events: Sequence[RecordedEvent]) -> None:
        self.published.append((game_id, list(events)))


class FixedClock:
    def now(self) -> datetime:
        return datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


class ManualClock:
    """A clock that moves only when a test says so."""

    def __init__(self, start: datetime | None = None) -> None:
        self.moment = start or datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


class FakeRatings:
    """Ratings, their history and players' results in memory, ordered as the SQL repository
    orders them; the player names come from the players' fake."""

    def __init__(self, players: FakePlayerRepository) -> None:
        self.players = players
        self.current: dict[tuple[str, str], Rating] = {}
        self.changes: list[RatingChange] = []
        self.seat_results: list[SeatResult] = []

    def ratings(self, game_type: str, subjects: Sequence[str]) -> dict[str, Rating]:
        found = (self.current.get((game_type, s)) for s in subjects)
        return {r.subject: r for r in found if r is not None}

    def record(self, changes: Sequence[RatingChange], results: Sequence[SeatResult]) -> None:
        counted = {(c.game_id, c.after.subject) for c in self.changes}
        if any((c.game_id, c.after.subject) in counted for c in changes):
            raise ValueError("a game's rating change is stored once per subject")
        self.changes.extend(changes)
        for change in changes:
            self.current[(change.after.game_type, change.after.subject)] = change.after
        self.seat_results.extend(results)

    def rated_together(self, a: str, b: str, game_type: str, since: datetime) -> int:
        games_of_b = {c.game_id for c in self.changes if c.after.subject == b}
        return sum(
            1
            for c in self.changes
            if c.after.subject == a
            and c.after.game_type == game_type
            and c.at >= since
            and c.game_id in games_of_b
        )

    def finishing(self, player_ids: Sequence[str]) -> dict[str, Finishing]:
        counts: dict[str, dict[str, int]] = {}
        for result in self.seat_results:
            if result.player_id in player_ids:
                by_outcome = counts.setdefault(result.player_id, {})
                by_outcome[result.outcome] = by_outcome.get(result.outcome, 0) + 1
        return {player_id: Finishing(**by_outcome) for player_id, by_outcome in counts.items()}

    def leaderboard(
        self, game_type: str, min_games: int, limit: int, after: tuple[bool, float, str] | None
    ) -> builtins.list[Rating]:
        ranked = sorted(
            (r for r in self.current.values() if r.game_type == game_type and r.games >= min_games),
            key=lambda r: (not r.established, -r.display, r.subject),
        )
        if after is not None:
            position = (not after[0], -after[1], after[2])
            ranked = [r for r in ranked if (not r.established, -r.display, r.subject) > position]
        return ranked[:limit]

    def history(self, subject: str, game_type: str | None, limit: int) -> builtins.list[RatingChange]:
        mine = [
            c
            for c in self.changes
            if c.after.subject == subject and (game_type is None or c.after.game_type == game_type)
        ]
        mine.sort(key=lambda c: c.game_id)
        mine.sort(key=lambda c: c.at, reverse=True)
        return mine[:limit]

    def results(self, player_id: str, limit: int) -> builtins.list[SeatResult]:
        mine = [r for r in self.seat_results if r.player_id == player_id]
        mine.sort(key=lambda r: r.game_id)
        mine.sort(key=lambda r: r.at, reverse=True)
        return mine[:limit]

    def of_subject(self, subject: str) -> builtins.list[Rating]:
        return sorted((r for r in self.current.values() if r.subject == subject), key=lambda r: r.game_type)

    def player_names(self, player_ids: Sequence[str]) -> dict[str, str]:
        return {i: self.players.players[i].name for i in player_ids if i in self.players.players}

    def game_rated(self, game_id: str) -> bool | None:
        return next((r.rated for r in self.seat_results if r.game_id == game_id), None)


def _matches(match: Match, where: LobbyFilter) -> bool:
    in_lobby = match.status.value == "lobby"
    free = match.max_players - len(match.seats) if in_lobby else 0
    joinable = in_lobby and free > 0
    return (
        not match.private
        and (not in_lobby or match.listed)
        and (where.open_seats is None or free >= where.open_seats)
        and (where.players is None or match.max_players == where.players)
        and (where.clock is None or match.timing.settings.mode == where.clock)
        and (where.status is None or match.status.value == where.status)
        and (where.game_type is None or match.game_type == where.game_type)
        and (where.joinable is None or where.joinable == joinable)
    )
