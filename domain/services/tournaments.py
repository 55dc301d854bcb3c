"""Tournaments' use cases: create, register, unregister, withdraw, start, cancel, read; the runner's
step (start at the start time, pair and seat the next round); and the result of each round game,
recorded in the transaction that records the game's end.

Exactly once: a round is paired and its games created in one transaction with the tournament's
guarded write (``persistence.tournaments``); an instance that loses the race rolls its games back
and, retrying, finds the round there. A result is recorded with the game's end, in its
transaction, so a crash either keeps both or neither."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.engine import JSON, Event
from domain.errors import Forbidden, InvalidRequest, InviteRequired, Range, Unauthorized, VersionConflict
from domain.model.clocks import ClockSettings, Timing, inactivity_limited
from domain.model.idempotency import (
    HostTokens,
    check_token_key,
    fingerprint,
    key_hash,
    same_request,
)
from domain.model.match import Match, RecordedEvent
from domain.model.names import clean_seat_name
from domain.model.players import Player
from domain.model.ratings import Rating, ranks
from domain.model.seeding import commitment, new_salt, new_seed
from domain.model.tokens import hash_token, new_token, token_matches
from domain.ports.unit_of_work import UnitOfWork
from domain.services.core import ServiceCore, retrying
from domain.services.outbox import enqueue_outbox, enqueue_round_ready
from domain.tournaments.model import MAX_TABLE, MIN_TABLE, Format, Pairing, Seating
from domain.tournaments.pairing import MAX_SWISS_ROUNDS
from domain.tournaments.tournament import RoundSeat, Tournament, TournamentEvent

MAX_PLAYERS = 256
MAX_PAUSE_SECONDS = 86_400
MAX_NAME_LENGTH = 80


def tournament_channel(tournament_id: str) -> str:
    """The broker's key for a tournament's events (never a game id: those are hex only)."""
    return f"tournament:{tournament_id}"


RoundReady = Callable[[UnitOfWork, Sequence[RoundSeat], datetime], None]
"""Told, inside the transaction creating a round, of every player seated in it."""


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    name: str
    game_type: str
    format: str
    options: Mapping[str, JSON] | None = None
    clock: Mapping[str, JSON] | None = None
    rounds: int | None = None
    table_size: int | None = None
    min_table_size: int | None = None
    max_players: int = 64
    starts_at: datetime | None = None
    private: bool = False
    rated: bool = True
    pause_seconds: int = 0


@dataclass(frozen=True, slots=True)
class TournamentCreated:
    tournament: Tournament
    host_token: str
    invite_code: str | None


class TournamentService:
    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self.inactivity_days: float | None = None
        """Clock-less round games hand a seat silent this long to a stand-in (the lobby's rule)."""
        self.wake: list[Callable[[], None]] = []
        """Told when something may have become due (the runner's doorbell)."""
        self._pending: dict[str, tuple[str, list[RecordedEvent]]] = {}
        self._pending_lock = threading.Lock()
        self.round_ready: list[RoundReady] = [enqueue_round_ready]
        """Hooks run in the transaction that creates a round, with each player seated in it
        ("your game in round N is ready"): the webhook outbox, and whatever else notifies a
        player (push, e-mail) writes its notices here, once per seated player and round."""
        core.when_finished.append(self.game_finished)
        core.after_finished.append(self._game_finished_committed)

    # -- the host ---------------------------------------------------------------------------------

    def create(
        self,
        settings: TournamentSettings,
        creator_token: str | None = None,
        idempotency_key: str | None = None,
        caller: str = "",
    ) -> TournamentCreated:
        """A new tournament, registering. With an idempotency key (remembered per ``caller``, as
        a game's create does): the same key and body answer the first create again, its host
        token and invite code recomputed from the key; the same key with another body is
        refused (``idempotency_key_reused``)."""
        engine = self.core.registry.get(settings.game_type)
        meta = engine.meta
        options = meta.resolve_options(settings.options)
        clock = ClockSettings.parse(settings.clock)
        name = clean_seat_name(settings.name)
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidRequest(
                "a tournament's {field} has at most {max_characters} characters",
                field="name",
                max_characters=MAX_NAME_LENGTH,
            )
        try:
            fmt = Format(settings.format)
        except ValueError:
            raise InvalidRequest(
                "unknown {field} {got!q}; known: {known}",
                field="format",
                got=settings.format,
                known=[f.value for f in Format],
            ) from None
        seating = self._seating(settings, meta.min_players, meta.max_players_for(options))
        rounds = settings.rounds if settings.rounds is not None else 5
        _within("rounds", rounds, 1, MAX_SWISS_ROUNDS)
        _within("max_players", settings.max_players, max(2, seating.fewest), MAX_PLAYERS)
        _within("pause_seconds", settings.pause_seconds, 0, MAX_PAUSE_SECONDS)
        if settings.rated and not clock.runs:
            raise InvalidRequest(
                "a rated tournament needs a {field} (games without one are never rated)", field="clock"
            )
        key, request = None, ""
        if idempotency_key is not None:
            key = check_token_key(idempotency_key)
            request = fingerprint(_settings_document(settings))
            earlier = self._created_earlier(key, caller, request)
            if earlier is not None:
                return earlier
        creator = self._player_or_none(creator_token)
        tokens = HostTokens.new(key, settings.private)
        now = self.core.clock.now()
        tournament = Tournament(
            id=uuid.uuid4().hex,
            name=name,
            game_type=settings.game_type,
            options=dict(options),
            clock=dict(settings.clock) if settings.clock is not None else None,
            format=fmt,
            rounds_asked=rounds,
            seating=seating,
            max_players=settings.max_players,
            private=settings.private,
            rated=settings.rated,
            pause_seconds=settings.pause_seconds,
            host_token_hash=hash_token(tokens.host_token),
            created_at=now,
            starts_at=settings.starts_at,
            invite_code_hash=hash_token(tokens.invite_code) if tokens.invite_code else None,
            creator_id=creator.id if creator else None,
        )
        tournament.new_events.clear()
        try:
            with self.core.uow() as uow:
                uow.tournaments.add(tournament)
                if key is not None:
                    result = {"tournament_id": tournament.id, "nonce": tokens.nonce}
                    uow.tournaments.remember_create(key_hash(key, caller), tournament.id, result, request)
                uow.commit()
        except VersionConflict:
            assert key is not None  # only a concurrent create with the same key conflicts
            earlier = self._created_earlier(key, caller, request)
            if earlier is None:
                raise
            return earlier
        self._rang()
        return TournamentCreated(tournament, tokens.host_token, tokens.invite_code)

    def _created_earlier(self, key: str, caller: str, request: str) -> TournamentCreated | None:
        """The tournament a create with this key made, with its tokens recomputed from the key."""
        with self.core.uow() as uow:
            earlier = uow.tournaments.created_for_key(key_hash(key, caller))
            if earlier is None:
                return None
            same_request(earlier, request)
            tournament = uow.tournaments.get(str(earlier.response["tournament_id"]))
        tokens = HostTokens.again(key, str(earlier.response["nonce"]), tournament.private)
        return TournamentCreated(tournament, tokens.host_token, tokens.invite_code)

    @staticmethod
    def _seating(settings: TournamentSettings, min_players: int, max_players: int) -> Seating:
        low, high = max(MIN_TABLE, min_players), min(MAX_TABLE, max_players)
        size = settings.table_size
        if size is None:
            size = max(low, 2)
        _within("table_size", size, low, high)
        fewest = settings.min_table_size if settings.min_table_size is not None else size
        _within("min_table_size", fewest, low, size)
        return Seating(fewest, size)

    def start(self, tournament_id: str, host_token: str | None) -> Tournament:
        def change(t: Tournament) -> None:
            self._require_host(t, host_token)
            t.start(self.core.clock.now())

        return self._change(tournament_id, change)

    def cancel(self, tournament_id: str, host_token: str | None) -> Tournament:
        def change(t: Tournament) -> None:
            self._require_host(t, host_token)
            t.cancel(self.core.clock.now(), "host")

        return self._change(tournament_id, change)

    # -- the players ------------------------------------------------------------------------------

    def register(
        self, tournament_id: str, player_token: str | None, invite_code: str | None = None
    ) -> Tournament:
        def change(t: Tournament, uow: UnitOfWork, player: Player) -> None:
            if t.invite_code_hash is not None and not token_matches(invite_code, t.invite_code_hash):
                raise InviteRequired(
                    "tournament {tournament} is private: registering needs its invite code", tournament=t.id
                )
            subject = player.id
            rating = uow.ratings.ratings(t.game_type, [subject]).get(subject) or Rating(subject, t.game_type)
            t.register(player.id, player.name, rating.display, self.core.clock.now())

        return self._change_as_player(tournament_id, player_token, change)

    def unregister(self, tournament_id: str, player_token: str | None) -> Tournament:
        return self._change_as_player(tournament_id, player_token, lambda t, _, p: t.unregister(p.id))

    def withdraw(self, tournament_id: str, player_token: str | None) -> Tournament:
        """The player leaves for good: paired no more, and its seat in a game still running is
        resigned (a bot plays it to the end, and it ranks last there)."""
        resigned: list[Match] = []

        def change(t: Tournament, uow: UnitOfWork, player: Player) -> None:
            resigned.clear()
            for table in t.withdraw(player.id):
                match = uow.games.get(table.game_id, for_update=True)
                seat = table.players.index(player.id)
                if not match.is_over and not match.seats[seat].has_quit:
                    match.resign(seat)
                    self.core.save(uow, match, seat)
                    resigned.append(match)

        tournament = self._change_as_player(tournament_id, player_token, change)
        for match in resigned:
            self.core.committed(match)
        return tournament

    # -- reading ----------------------------------------------------------------------------------

    def get(self, tournament_id: str) -> Tournament:
        with self.core.uow() as uow:
            return uow.tournaments.get(tournament_id)

    def list_public(self, status: str | None, limit: int, offset: int) -> list[Tournament]:
        with self.core.uow() as uow:
            return uow.tournaments.list_public(status, limit, offset)

    def events(self, tournament_id: str, after: int, limit: int) -> list[RecordedEvent]:
        """Stored events after ``after`` (a ``seq``), oldest first: what a stream resumes from."""
        with self.core.uow() as uow:
            return uow.tournaments.events(tournament_id, after, limit)

    # -- the runner -------------------------------------------------------------------------------

    def run_due(self) -> bool:
        """Start one due tournament or pair its next round; False when nothing was due."""

        def once() -> tuple[bool, Tournament | None, list[Match]]:
            created: list[Match] = []
            now = self.core.clock.now()
            with self.core.uow() as uow:
                found = uow.tournaments.claim_due(now)
                if found is None:
                    return False, None, []
                t = uow.tournaments.get(found, for_update=True)
                loaded = t.loaded_version
                t.start_if_due(now)
                pairing = t.pair_next(now)
                if pairing is not None:
                    created = self._seat_round(uow, t, pairing, now)
                if t.version == loaded:
                    return False, None, []
                uow.tournaments.save(t)
                uow.commit()
            return True, t, created

        did, tournament, created = retrying(once)
        for match in created:
            self.core.committed(match)
        if tournament is not None:
            self._publish(tournament)
        return did

    def _seat_round(self, uow: UnitOfWork, t: Tournament, pairing: Pairing, now: datetime) -> list[Match]:
        """The round's games, created, seated with the players (each seat tied to its player,
        who takes a seat token with ``POST /v1/players/me/games/{id}/seats/{seat}/token``) and
        started together."""
        engine = self.core.registry.get(t.game_type)
        settings = inactivity_limited(ClockSettings.parse(t.clock), self.inactivity_days)
        created: list[Match] = []
        for number, players in enumerate(pairing.tables, start=1):
            seed, salt = new_seed(), new_salt()
            match = Match(
                id=uuid.uuid4().hex,
                engine=engine,
                options=dict(t.options),
                seed=seed,
                seed_commitment=commitment(seed, salt),
                host_token_hash=t.host_token_hash,
                created_at=now,
                timing=Timing(settings),
                seed_salt=salt,
                private=t.private,
            )
            for player in players:
                entrant = t.registration(player)
                assert entrant is not None
                match.join(entrant.name, hash_token(new_token()), player_id=player)
            match.start()
            turns = self.core.track(match)
            uow.games.add(match)
            enqueue_outbox(uow, match, turns, now, opening="tournament_round")
            for seat, player in enumerate(players):
                uow.players.link_seat(player, match.id, seat, now)
            t.add_table(number, match.id, tuple(players))
            created.append(match)
        seated = [
            RoundSeat(t.id, t.name, t.current_round, number, match.id, t.game_type, seat, player)
            for number, (match, players) in enumerate(zip(created, pairing.tables, strict=True), start=1)
            for seat, player in enumerate(players)
        ]
        for hook in self.round_ready:
            hook(uow, seated, now)
        return created

    # -- a round game's end -----------------------------------------------------------------------

    def game_finished(self, uow: UnitOfWork, match: Match) -> None:
        """In the transaction recording the game's end: the table's result, and the round's end."""
        found = uow.tournaments.of_game(match.id)
        if found is None:
            return
        t = uow.tournaments.get(found, for_update=True)
        loaded = t.loaded_version
        if not t.record(match.id, tuple(ranks(match)), self.core.clock.now()):
            return
        uow.tournaments.save(t)
        events = self._recorded(t, loaded)
        with self._pending_lock:
            self._pending[match.id] = (t.id, events)

    def _game_finished_committed(self, match: Match) -> None:
        with self._pending_lock:
            pending = self._pending.pop(match.id, None)
        if pending is not None:
            self.core.publisher.publish(tournament_channel(pending[0]), pending[1])
            self._rang()

    # -- helpers ----------------------------------------------------------------------------------

    def _change(self, tournament_id: str, change: Callable[[Tournament], None]) -> Tournament:
        def once() -> Tournament:
            with self.core.uow() as uow:
                t = uow.tournaments.get(tournament_id, for_update=True)
                change(t)
                uow.tournaments.save(t)
                uow.commit()
            return t

        tournament = retrying(once)
        self._publish(tournament)
        self._rang()
        return tournament

    def _change_as_player(
        self,
        tournament_id: str,
        player_token: str | None,
        change: Callable[[Tournament, UnitOfWork, Player], None],
    ) -> Tournament:
        def once() -> Tournament:
            with self.core.uow() as uow:
                player = self._player(uow, player_token)
                t = uow.tournaments.get(tournament_id, for_update=True)
                change(t, uow, player)
                uow.tournaments.save(t)
                uow.commit()
            return t

        tournament = retrying(once)
        self._publish(tournament)
        return tournament

    def _player(self, uow: UnitOfWork, token: str | None) -> Player:
        if token is None:
            raise Unauthorized("a player token is required (Authorization: Bearer <player token>)")
        player = uow.players.by_token_hash(hash_token(token))
        if player is None:
            raise Unauthorized("the bearer token is not a player token")
        return player

    def _player_or_none(self, token: str | None) -> Player | None:
        if token is None:
            return None
        with self.core.uow() as uow:
            return uow.players.by_token_hash(hash_token(token))

    @staticmethod
    def _require_host(t: Tournament, token: str | None) -> None:
        if token is None:
            raise Unauthorized("the host token is required (Authorization: Bearer <token>)")
        if not token_matches(token, t.host_token_hash):
            raise Forbidden("only the tournament's host token may do this")

    @staticmethod
    def _recorded(t: Tournament, loaded_version: int) -> list[RecordedEvent]:
        """The aggregate's new events numbered by version (as the repository stored them): one
        version per event, so the channel's ``seq`` has no gap."""
        numbered = t.numbered_events()
        assert not numbered or numbered[0][0] == loaded_version + 1
        t.new_events.clear()
        return [_recorded(seq, e) for seq, e in numbered]

    def _publish(self, t: Tournament) -> None:
        if t.new_events:
            events = [_recorded(seq, e) for seq, e in t.numbered_events()]
            t.new_events.clear()
            self.core.publisher.publish(tournament_channel(t.id), events)

    def _rang(self) -> None:
        for bell in self.wake:
            bell()


def _recorded(seq: int, event: TournamentEvent) -> RecordedEvent:
    return RecordedEvent(seq, Event(event.type, dict(event.data)))


def _settings_document(settings: TournamentSettings) -> JSON:
    """The whole create as JSON: the fingerprint an idempotency key's retry must match."""
    return {
        "name": settings.name,
        "game_type": settings.game_type,
        "format": settings.format,
        "options": dict(settings.options) if settings.options is not None else None,
        "clock": dict(settings.clock) if settings.clock is not None else None,
        "rounds": settings.rounds,
        "table_size": settings.table_size,
        "min_table_size": settings.min_table_size,
        "max_players": settings.max_players,
        "starts_at": settings.starts_at.isoformat() if settings.starts_at is not None else None,
        "private": settings.private,
        "rated": settings.rated,
        "pause_seconds": settings.pause_seconds,
    }


def _within(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InvalidRequest(
            "{field} must be {bounds:to}, got {got}", field=name, bounds=Range(low, high), got=value
        )
