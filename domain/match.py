"""The match aggregate: a game's lifecycle, seats, sealed simultaneous choices, version and events.

It owns the generic invariants and runs the central guards before any engine code; the engine owns
the rules. Every change bumps ``version`` (optimistic concurrency) and records events with
consecutive sequence numbers; the repository persists ``new_events`` with the match.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from domain.engine import JSON, Choice, Decision, Event, GameEngine, choices_in, event_for
from domain.errors import (
    GameFull,
    GameNotInLobby,
    GameNotInProgress,
    GameOver,
    IllegalChoice,
    NotEnoughPlayers,
    NotYourDecision,
    VersionConflict,
)
from domain.seeding import rng_for_seed

RESERVED_EVENT_TYPES = frozenset(
    {"seat_joined", "game_started", "choice_sealed", "game_over", "game_aborted"}
)
"""Event types the platform itself records; engines use their own names."""


class MatchStatus(StrEnum):
    LOBBY = "lobby"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABORTED = "aborted"


@dataclass(slots=True)
class Seat:
    index: int
    name: str
    token_hash: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event with its place in the game's history."""

    seq: int
    event: Event

    def for_viewer(self, viewer: int | None) -> dict[str, JSON]:
        kind, data = event_for(self.event, viewer)
        return {"seq": self.seq, "type": kind, "data": data}


@dataclass(frozen=True, slots=True)
class SubmitResult:
    status: str  # "sealed" or "applied"
    version: int
    events: tuple[RecordedEvent, ...]


@dataclass(slots=True)
class Match:
    """One game on the service, from lobby to finished (or aborted)."""

    id: str
    engine: GameEngine[Any]
    options: dict[str, JSON]
    seed: str
    seed_commitment: str
    host_token_hash: str
    created_at: datetime
    status: MatchStatus = MatchStatus.LOBBY
    seats: list[Seat] = field(default_factory=list)
    version: int = 0
    state: Any = None
    sealed: dict[int, Choice] = field(default_factory=dict)
    last_seq: int = 0
    result: dict[str, JSON] | None = None
    loaded_version: int = 0
    new_events: list[RecordedEvent] = field(default_factory=list)

    @property
    def game_type(self) -> str:
        return self.engine.meta.slug

    @property
    def max_players(self) -> int:
        return self.engine.meta.max_players_for(self.options)

    @property
    def is_over(self) -> bool:
        """Finished or aborted: nothing more can happen to it."""
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)

    def seed_revealed(self) -> str | None:
        """The seed is secret while the game can still be played."""
        return self.seed if self.is_over else None

    # -- lifecycle -------------------------------------------------------------------------------

    def join(self, name: str, token_hash: str, bot: str | None = None) -> Seat:
        if self.status is not MatchStatus.LOBBY:
            raise GameNotInLobby(
                f"game {self.id} is {self.status.value}; seats can only be taken in the lobby"
            )
        if len(self.seats) >= self.max_players:
            raise GameFull(f"game {self.id} already has its {self.max_players} seats")
        seat = Seat(len(self.seats), name, token_hash, bot)
        self.seats.append(seat)
        self._record([Event("seat_joined", {"seat": seat.index, "name": name, "bot": bot})])
        return seat

    def start(self) -> list[RecordedEvent]:
        if self.status is not MatchStatus.LOBBY:
            raise GameNotInLobby(f"game {self.id} is {self.status.value}; only a lobby can start")
        meta = self.engine.meta
        if len(self.seats) < meta.min_players:
            raise NotEnoughPlayers(
                f"{meta.name} needs at least {meta.min_players} seats, "
                f"game {self.id} has {len(self.seats)}"
            )
        self.state, opening = self.engine.setup(len(self.seats), self.options, rng_for_seed(self.seed))
        self.status = MatchStatus.IN_PROGRESS
        events = [Event("game_started", {"players": len(self.seats)}), *opening]
        return self._record(events, self._finish_if_over())

    def abort(self) -> list[RecordedEvent]:
        if self.is_over:
            raise GameOver(f"game {self.id} is already {self.status.value}")
        self.status = MatchStatus.ABORTED
        self.sealed.clear()
        return self._record([Event("game_aborted", {"seed": self.seed})])

    # -- decisions -------------------------------------------------------------------------------

    def decision(self) -> Decision | None:
        if self.status is not MatchStatus.IN_PROGRESS:
            return None
        return self.engine.decision(self.state)

    def choices_for(self, seat: int | None) -> tuple[Decision | None, list[Choice]]:
        """The decision a seat faces now and its legal choices (None and [] if it has none)."""
        decision = self.decision()
        if seat is None or decision is None or seat not in decision.seats:
            return None, []
        return decision, self.engine.legal_choices(self.state, seat)

    def submit(self, seat: int, choice: Choice, expected_version: int | None = None) -> SubmitResult:
        """Guard, then seal or apply one seat's choice."""
        self._guard_playable(expected_version)
        decision = self.engine.decision(self.state)
        if decision is None or seat not in decision.seats:
            raise NotYourDecision(f"seat {seat} has nothing to decide now")
        legal = self.engine.legal_choices(self.state, seat)
        if not choices_in(legal, choice):
            raise IllegalChoice(_explain_illegal(decision, legal, choice))
        if decision.simultaneous:
            return self._seal(decision, seat, choice)
        return self._apply(decision, {seat: choice})

    def _guard_playable(self, expected_version: int | None) -> None:
        if self.status is MatchStatus.LOBBY:
            raise GameNotInProgress(f"game {self.id} has not started yet")
        if self.status is not MatchStatus.IN_PROGRESS:
            raise GameOver(f"game {self.id} is {self.status.value}")
        if expected_version is not None and expected_version != self.version:
            raise VersionConflict(
                f"game {self.id} is at version {self.version}, not {expected_version}; reload and retry"
            )

    def _seal(self, decision: Decision, seat: int, choice: Choice) -> SubmitResult:
        replaced = seat in self.sealed
        self.sealed[seat] = choice
        sealed_seats = sorted(self.sealed)
        sealed_event = Event(
            "choice_sealed",
            {
                "seat": seat,
                "sealed": sealed_seats,
                "waiting": [s for s in decision.seats if s not in self.sealed],
            },
            {seat: {"choice": choice, "replaced": replaced}},
        )
        if any(s not in self.sealed for s in decision.seats):
            recorded = self._record([sealed_event])
            return SubmitResult("sealed", self.version, tuple(recorded))
        sealed, self.sealed = self.sealed, {}
        return self._apply(decision, sealed, prefix=[sealed_event])

    def _apply(
        self, decision: Decision, choices: Mapping[int, Choice], prefix: list[Event] | None = None
    ) -> SubmitResult:
        events = [*(prefix or []), *self.engine.apply(self.state, choices)]
        recorded = self._record(events, self._finish_if_over())
        return SubmitResult("applied", self.version, tuple(recorded))

    def _finish_if_over(self) -> list[Event]:
        outcome = self.engine.outcome(self.state)
        if outcome is None:
            return []
        self.status = MatchStatus.FINISHED
        self.result = {
            "scores": list(outcome.scores),
            "winners": list(outcome.winners),
            "details": dict(outcome.details),
        }
        return [Event("game_over", {**self.result, "seed": self.seed})]

    def _record(self, events: list[Event], extra: list[Event] | None = None) -> list[RecordedEvent]:
        recorded = []
        for event in [*events, *(extra or [])]:
            self.last_seq += 1
            recorded.append(RecordedEvent(self.last_seq, event))
        self.new_events.extend(recorded)
        self.version += 1
        return recorded

    # -- views -----------------------------------------------------------------------------------

    def view(self, viewer: int | None) -> dict[str, JSON] | None:
        if self.state is None:
            return None
        return self.engine.view(self.state, viewer)

    def seat_of_token_hash(self, token_hash: str) -> int | None:
        found = None
        for seat in self.seats:
            if hmac.compare_digest(seat.token_hash, token_hash):
                found = seat.index
        return found


def _explain_illegal(decision: Decision, legal: list[Choice], choice: Choice) -> str:
    """Say why a choice was refused, using only what the seat may already see."""
    shapes = sorted({", ".join(sorted(c)) for c in legal})
    same_keys = [c for c in legal if set(c) == set(choice)]
    if not same_keys:
        return (
            f"choice {choice!r} does not fit decision '{decision.kind}': "
            f"legal choices have the fields {{{'} or {'.join(shapes)}}}"
        )
    differing = sorted({k for c in same_keys for k in c if c[k] != choice.get(k)})
    return (
        f"choice {choice!r} is not one of the {len(legal)} legal choices for decision "
        f"'{decision.kind}' (check {', '.join(differing)}); GET the choices and post one back verbatim"
    )
