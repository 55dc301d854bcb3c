"""The tournament aggregate: registration, the rounds as they are paired and played, and the
results, with a version for optimistic concurrency and the events each change records.

It decides what happens and when; the tournament service creates the round's games, stores the
aggregate and publishes its events. A round is paired once (``pair_next`` moves ``current_round``
on, and the version guard and the tables' unique keys refuse a second writer); a result is
recorded once (a table's ranks, once set, are never set again)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from domain.errors import (
    AlreadyRegistered,
    AlreadyWithdrawn,
    NotEnoughPlayers,
    NotRegistered,
    RegistrationClosed,
    TournamentFull,
    TournamentOver,
    TournamentRunning,
)
from domain.tournaments.model import (
    Bye,
    Entrant,
    Format,
    History,
    Pairing,
    PairingImpossible,
    Seating,
    StandingRow,
    Table,
)
from domain.tournaments.pairing import finished_after, pair_round, planned_rounds, standings


class TournamentStatus(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(slots=True)
class Registration:
    player_id: str
    name: str
    rating: float
    registered_at: datetime
    withdrawn: bool = False


@dataclass(slots=True)
class RoundTable:
    """One game of a round: ``players`` are player ids in seat order."""

    round: int
    number: int
    game_id: str
    players: tuple[str, ...]
    ranks: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class TournamentEvent:
    type: str
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class RoundSeat:
    """A player seated in a game of a round just created: "your game in round N is ready". The
    tournament service hands every one of a new round to its ``round_ready`` hooks inside the
    transaction that creates the round, so whatever they write (a webhook delivery, a push
    notice) exists exactly once per seated player and round, as the round does."""

    tournament_id: str
    tournament_name: str
    round: int
    table: int
    game_id: str
    game_type: str
    seat: int
    player_id: str


@dataclass(slots=True)
class Tournament:
    id: str
    name: str
    game_type: str
    options: dict[str, Any]
    clock: dict[str, Any] | None
    format: Format
    rounds_asked: int
    seating: Seating
    max_players: int
    private: bool
    rated: bool
    pause_seconds: int
    host_token_hash: str
    created_at: datetime
    starts_at: datetime | None = None
    status: TournamentStatus = TournamentStatus.REGISTERING
    version: int = 0
    entrants: list[Registration] = field(default_factory=list)
    tables: list[RoundTable] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    planned_rounds: int = 0
    current_round: int = 0
    next_round_at: datetime | None = None
    finished_at: datetime | None = None
    invite_code_hash: str | None = None
    creator_id: str | None = None
    loaded_version: int = 0
    new_tables: list[RoundTable] = field(default_factory=list)
    """Tables added since loading (the repository inserts them)."""
    recorded: list[RoundTable] = field(default_factory=list)
    """Tables whose result was recorded since loading (the repository writes their ranks)."""
    new_events: list[TournamentEvent] = field(default_factory=list)

    @property
    def next_action_at(self) -> datetime | None:
        """When the runner has something to do: the start time, or the next round's time."""
        if self.status is TournamentStatus.REGISTERING:
            return self.starts_at
        if self.status is TournamentStatus.RUNNING:
            return self.next_round_at
        return None

    # -- registration -------------------------------------------------------------------------------

    def register(self, player_id: str, name: str, rating: float, now: datetime) -> None:
        self._guard_registering()
        if any(e.player_id == player_id for e in self.entrants):
            raise AlreadyRegistered("player {player} is already registered", player=player_id)
        if len(self.entrants) >= self.max_players:
            raise TournamentFull(
                "tournament {tournament} has its {players} players",
                tournament=self.id,
                players=self.max_players,
            )
        self.entrants.append(Registration(player_id, name, rating, now))
        self._changed("player_registered", {"player": player_id, "name": name})

    def unregister(self, player_id: str) -> None:
        self._guard_registering()
        entrant = self._entrant(player_id)
        self.entrants.remove(entrant)
        self._changed("player_unregistered", {"player": player_id, "name": entrant.name})

    def withdraw(self, player_id: str) -> list[RoundTable]:
        """A running tournament: the player is paired no more and forfeits the rest; returns its
        unfinished tables (the service resigns its seat in each)."""
        if self.status is TournamentStatus.REGISTERING:
            self.unregister(player_id)
            return []
        self._guard_running()
        entrant = self._entrant(player_id)
        if entrant.withdrawn:
            raise AlreadyWithdrawn("player {player} has already withdrawn", player=player_id)
        entrant.withdrawn = True
        self._changed("player_withdrew", {"player": player_id, "name": entrant.name})
        return [t for t in self.tables if t.ranks is None and player_id in t.players]

    # -- the rounds -------------------------------------------------------------------------------

    def start(self, now: datetime) -> None:
        """Registration closes; round 1 is due at once. Too few players: cancelled."""
        self._guard_registering()
        if len(self.entrants) < self.seating.fewest or len(self.entrants) < 2:
            raise NotEnoughPlayers(
                "tournament {tournament} needs at least {min_seats} players, it has {count}",
                tournament=self.id,
                min_seats=max(2, self.seating.fewest),
                count=len(self.entrants),
            )
        self.planned_rounds = planned_rounds(self.format, len(self.entrants), self.seating, self.rounds_asked)
        self.status = TournamentStatus.RUNNING
        self.next_round_at = now
        self._changed("tournament_started", {"players": len(self.entrants), "rounds": self.planned_rounds})

    def start_if_due(self, now: datetime) -> bool:
        """At the start time: start, or cancel when too few registered."""
        if self.status is not TournamentStatus.REGISTERING or self.starts_at is None or self.starts_at > now:
            return False
        try:
            self.start(now)
        except NotEnoughPlayers:
            self.cancel(now, "not_enough_players")
        return True

    def cancel(self, now: datetime, reason: str) -> None:
        if self.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise TournamentOver(
                "tournament {tournament} is {status}",
                tournament=self.id,
                status=self.status.value,
            )
        if self.status is TournamentStatus.RUNNING:
            raise TournamentRunning(
                "tournament {tournament} is running; its players may withdraw",
                tournament=self.id,
            )
        self.status = TournamentStatus.CANCELLED
        self.finished_at = now
        self.next_round_at = None
        self._changed("tournament_cancelled", {"reason": reason})

    def round_due(self, now: datetime) -> bool:
        return (
            self.status is TournamentStatus.RUNNING
            and self.next_round_at is not None
            and self.next_round_at <= now
        )

    def pair_next(self, now: datetime) -> Pairing | None:
        """The next round's pairing (its byes recorded here; the service adds the tables with
        ``add_table`` once their games exist); None when nothing is due."""
        if not self.round_due(now):
            return None
        round_no = self.current_round + 1
        try:
            pairing = pair_round(self.format, self.entrants_now(), self.history(), round_no, self.seating)
        except PairingImpossible:
            self._finish(now)
            return None
        self.current_round = round_no
        self.next_round_at = None
        self.byes.extend(Bye(round_no, p) for p in pairing.byes)
        self._changed(
            "round_started",
            {
                "round": round_no,
                "tables": [list(t) for t in pairing.tables],
                "byes": list(pairing.byes),
                "games": [],
            },
        )
        return pairing

    def add_table(self, number: int, game_id: str, players: tuple[str, ...]) -> RoundTable:
        table = RoundTable(self.current_round, number, game_id, players)
        started = next((e for e in reversed(self.new_events) if e.type == "round_started"), None)
        if started is not None and started.data["round"] == self.current_round:
            started.data["games"].append(game_id)  # the round's game ids, table by table
        self.tables.append(table)
        self.new_tables.append(table)
        return table

    def record(self, game_id: str, ranks: tuple[int, ...], now: datetime) -> bool:
        """A table's game ended; once the round's last one has, the next round is due after the
        pause (or the tournament is over). False when the result was already recorded."""
        table = next((t for t in self.tables if t.game_id == game_id), None)
        if table is None or table.ranks is not None:
            return False
        table.ranks = ranks
        self.recorded.append(table)
        self._changed(
            "game_finished",
            {"round": table.round, "table": table.number, "game_id": game_id, "ranks": list(ranks)},
        )
        if self.status is not TournamentStatus.RUNNING or table.round != self.current_round:
            return True
        if any(t.ranks is None for t in self.tables if t.round == self.current_round):
            return True
        self._changed("round_finished", {"round": self.current_round})
        entrants = self.entrants_now()
        if finished_after(
            self.format, entrants, self.history(), self.current_round, self.planned_rounds, self.seating
        ):
            self._finish(now)
        else:
            self.next_round_at = now + timedelta(seconds=self.pause_seconds)
        return True

    def _finish(self, now: datetime) -> None:
        self.status = TournamentStatus.FINISHED
        self.finished_at = now
        self.next_round_at = None
        winner = self.standings()[0].player if self.entrants else None
        self._changed("tournament_finished", {"winner": winner})

    # -- reading ----------------------------------------------------------------------------------

    def entrants_now(self) -> list[Entrant]:
        return [Entrant(e.player_id, e.rating, e.withdrawn) for e in self.entrants]

    def history(self) -> History:
        return History(
            tuple(Table(t.round, t.players, t.ranks) for t in self.tables),
            tuple(self.byes),
        )

    def standings(self) -> list[StandingRow]:
        return standings(self.format, self.entrants_now(), self.history())

    def numbered_events(self) -> list[tuple[int, TournamentEvent]]:
        """The events recorded since loading, each with its ``seq``: the version right after it
        (one version per event, so a tournament's events have no gap)."""
        first = self.version - len(self.new_events) + 1
        return [(first + i, e) for i, e in enumerate(self.new_events)]

    def registration(self, player_id: str) -> Registration | None:
        return next((e for e in self.entrants if e.player_id == player_id), None)

    # -- guards -----------------------------------------------------------------------------------

    def _entrant(self, player_id: str) -> Registration:
        entrant = self.registration(player_id)
        if entrant is None:
            raise NotRegistered("player {player} is not registered", player=player_id)
        return entrant

    def _guard_registering(self) -> None:
        if self.status is not TournamentStatus.REGISTERING:
            raise RegistrationClosed(
                "tournament {tournament} is {status}: players register and unregister only before it starts",
                tournament=self.id,
                status=self.status.value,
            )

    def _guard_running(self) -> None:
        if self.status is not TournamentStatus.RUNNING:
            raise TournamentOver(
                "tournament {tournament} is {status}",
                tournament=self.id,
                status=self.status.value,
            )

    def _changed(self, event: str, data: Mapping[str, Any]) -> None:
        self.version += 1
        self.new_events.append(TournamentEvent(event, data))
