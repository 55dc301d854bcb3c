"""Use cases: load, call the aggregate, commit, then publish. They orchestrate; they never decide a rule."""

from __future__ import annotations

import hmac
import random
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.bots import choose, context_for, validate_level
from domain.engine import JSON, Choice, Decision
from domain.errors import Forbidden, Unauthorized, VersionConflict
from domain.match import Match, MatchStatus, RecordedEvent, SubmitResult
from domain.ports import Clock, EventPublisher, GameSummary, UnitOfWorkFactory
from domain.registry import EngineRegistry
from domain.seeding import commitment, new_seed
from domain.tokens import hash_token, new_token

MAX_RETRIES = 5


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is asking: a seat, the host, or (neither) a spectator."""

    seat: int | None = None
    is_host: bool = False


@dataclass(frozen=True, slots=True)
class Created:
    match: Match
    host_token: str


@dataclass(frozen=True, slots=True)
class Joined:
    seat: int
    token: str
    version: int


@dataclass(frozen=True, slots=True)
class PendingChoices:
    version: int
    decision: dict[str, JSON] | None
    choices: list[Choice]


SubmitListener = Callable[[str, list[str]], None]
"""Told of every committed submit: its status and the types of the events it produced."""

BotHook = Callable[[str], None]
"""Called with a game id after each committed change to a game with bot seats, so they can play."""


class GameService:
    def __init__(
        self,
        uow: UnitOfWorkFactory,
        registry: EngineRegistry,
        publisher: EventPublisher,
        clock: Clock,
    ) -> None:
        self.uow = uow
        self.registry = registry
        self.publisher = publisher
        self.clock = clock
        self.after_change: list[BotHook] = []
        self.submit_listeners: list[SubmitListener] = []

    # -- catalog & lobby ---------------------------------------------------------------------------

    def create_game(
        self, game_type: str, options: Mapping[str, JSON] | None, seed: str | None
    ) -> Created:
        engine = self.registry.get(game_type)
        resolved = engine.meta.resolve_options(options)
        seed = seed if seed is not None else new_seed()
        host_token = new_token()
        match = Match(
            id=uuid.uuid4().hex,
            engine=engine,
            options=resolved,
            seed=seed,
            seed_commitment=commitment(seed),
            host_token_hash=hash_token(host_token),
            created_at=self.clock.now(),
        )
        with self.uow() as uow:
            uow.games.add(match)
            uow.commit()
        return Created(match, host_token)

    def join(self, game_id: str, name: str, bot: str | None = None) -> Joined:
        if bot is not None:
            validate_level(bot)
        token = new_token()

        def change(match: Match) -> int:
            return match.join(name, hash_token(token), bot).index

        seat, version = self._change(game_id, change)
        return Joined(seat, token, version)

    def start(self, game_id: str, token: str | None) -> Match:
        return self._host_change(game_id, token, lambda match: match.start())

    def abort(self, game_id: str, token: str | None) -> Match:
        return self._host_change(game_id, token, lambda match: match.abort())

    # -- play --------------------------------------------------------------------------------------

    def pending(self, game_id: str, token: str | None) -> PendingChoices:
        with self.uow() as uow:
            match = uow.games.get(game_id)
        viewer = self.viewer(match, token)
        decision, choices = match.choices_for(viewer.seat)
        return PendingChoices(
            match.version,
            describe_decision(decision, match, viewer.seat) if decision else None,
            choices,
        )

    def submit(
        self,
        game_id: str,
        token: str | None,
        choice: Choice,
        version: int | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, JSON]:
        """Seal or apply a seat's choice; a retried key returns the first result unchanged."""
        for attempt in range(MAX_RETRIES):
            try:
                return self._submit_once(game_id, token, choice, version, idempotency_key)
            except VersionConflict:
                # Another writer got there first. A client that named a version asked to be told;
                # otherwise the guards are simply run again on the fresh state.
                if version is not None or attempt == MAX_RETRIES - 1:
                    if idempotency_key is not None:
                        earlier = self._remembered(game_id, token, idempotency_key)
                        if earlier is not None:
                            return earlier
                    raise
        raise AssertionError("unreachable")

    def _submit_once(
        self,
        game_id: str,
        token: str | None,
        choice: Choice,
        version: int | None,
        idempotency_key: str | None,
    ) -> dict[str, JSON]:
        with self.uow() as uow:
            match = uow.games.get(game_id)
            seat = self.require_seat(match, token)
            key = f"{seat}:{idempotency_key}" if idempotency_key is not None else None
            if key is not None:
                earlier = uow.games.idempotent_result(game_id, key)
                if earlier is not None:
                    return earlier
            result = match.submit(seat, choice, version)
            response: dict[str, JSON] = {
                "status": result.status,
                "version": result.version,
                "events": [event.for_viewer(seat) for event in result.events],
            }
            uow.games.save(match)
            if key is not None:
                uow.games.remember_result(game_id, key, response)
            uow.commit()
        self._submitted(result)
        self._committed(match)
        return response

    def _remembered(self, game_id: str, token: str | None, key: str) -> dict[str, JSON] | None:
        with self.uow() as uow:
            match = uow.games.get(game_id)
            seat = self.require_seat(match, token)
            return uow.games.idempotent_result(game_id, f"{seat}:{key}")

    def play_bot_turn(self, game_id: str) -> bool:
        """Play one pending decision of a bot seat, if any; True when one was played.

        The bot decides from what its seat may see, and its choice goes through the same guards
        as a human's. A concurrent change simply makes this a no-op (the caller tries again).
        """
        with self.uow() as uow:
            match = uow.games.get(game_id)
            decision = match.decision()
            if decision is None:
                return False
            waiting = [
                s for s in decision.seats if match.seats[s].bot is not None and s not in match.sealed
            ]
            if not waiting:
                return False
            seat = waiting[0]
            level = match.seats[seat].bot
            assert level is not None
            rng = random.Random(f"{match.seed_commitment}:{match.version}:{seat}")
            choice = choose(level, context_for(match.engine, match.state, decision, seat), rng)
            result = match.submit(seat, choice, match.version)
            uow.games.save(match)
            uow.commit()
        self._submitted(result)
        self._committed(match)
        return True

    # -- reading -----------------------------------------------------------------------------------

    def load(self, game_id: str) -> Match:
        with self.uow() as uow:
            return uow.games.get(game_id)

    def list_games(
        self, status: str | None, game_type: str | None, limit: int, offset: int
    ) -> list[GameSummary]:
        if game_type is not None:
            self.registry.get(game_type)
        with self.uow() as uow:
            return uow.games.list(status, game_type, limit, offset)

    def events(
        self, game_id: str, token: str | None, after: int, limit: int
    ) -> tuple[Viewer, list[dict[str, JSON]]]:
        with self.uow() as uow:
            match = uow.games.get(game_id)
            viewer = self.viewer(match, token)
            events = uow.games.events(game_id, after, limit)
        return viewer, [event.for_viewer(viewer.seat) for event in events]

    def count_by_status(self) -> dict[str, int]:
        with self.uow() as uow:
            return uow.games.count_by_status()

    def history(self, game_id: str, after: int, limit: int) -> list[RecordedEvent]:
        with self.uow() as uow:
            return uow.games.events(game_id, after, limit)

    # -- tokens ------------------------------------------------------------------------------------

    def viewer(self, match: Match, token: str | None) -> Viewer:
        """No token: a spectator. A token that is neither a seat's nor the host's: refused."""
        if token is None:
            return Viewer()
        token_hash = hash_token(token)
        seat = match.seat_of_token_hash(token_hash)
        if seat is not None:
            return Viewer(seat=seat)
        if hmac.compare_digest(match.host_token_hash, token_hash):
            return Viewer(is_host=True)
        raise Unauthorized("the bearer token does not belong to this game")

    def require_seat(self, match: Match, token: str | None) -> int:
        if token is None:
            raise Unauthorized("a seat token is required (Authorization: Bearer <token>)")
        viewer = self.viewer(match, token)
        if viewer.seat is None:
            raise Forbidden("only a seated player may do this; the host token is not a seat")
        return viewer.seat

    # -- internals ---------------------------------------------------------------------------------

    def _change(self, game_id: str, change: Callable[[Match], Any]) -> tuple[Any, int]:
        for attempt in range(MAX_RETRIES):
            try:
                with self.uow() as uow:
                    match = uow.games.get(game_id)
                    value = change(match)
                    uow.games.save(match)
                    uow.commit()
                self._committed(match)
                return value, match.version
            except VersionConflict:
                if attempt == MAX_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    def _host_change(self, game_id: str, token: str | None, change: Callable[[Match], Any]) -> Match:
        def guarded(match: Match) -> Match:
            if token is None:
                raise Unauthorized("the host token is required (Authorization: Bearer <token>)")
            if not self.viewer(match, token).is_host:
                raise Forbidden("only the host token may do this")
            change(match)
            return match

        match, _ = self._change(game_id, guarded)
        return match  # type: ignore[no-any-return]

    def _submitted(self, result: SubmitResult) -> None:
        types = [event.event.type for event in result.events]
        for listener in self.submit_listeners:
            listener(result.status, types)

    def _committed(self, match: Match) -> None:
        if match.new_events:
            self.publisher.publish(match.id, list(match.new_events))
            match.new_events.clear()
        if match.status is MatchStatus.IN_PROGRESS and any(seat.bot for seat in match.seats):
            for hook in self.after_change:
                hook(match.id)


def describe_decision(decision: Decision, match: Match, seat: int | None) -> dict[str, JSON]:
    """The public description of a decision: who decides, and (only) who has already sealed."""
    return {
        "kind": decision.kind,
        "prompt": decision.prompt,
        "seats": list(decision.seats),
        "simultaneous": decision.simultaneous,
        "sealed": sorted(match.sealed) if decision.simultaneous else [],
        "your_sealed_choice": match.sealed.get(seat) if seat is not None else None,
        "data": dict(decision.data),
    }
