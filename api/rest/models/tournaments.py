"""Tournaments: what a host sends to create one, and how a tournament, its standings and its
rounds read."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from api.rest.models.games import OPTION_VALUES_SCHEMA, ClockOptions, OptionValues
from domain.services.tournaments import MAX_NAME_LENGTH, MAX_PAUSE_SECONDS, MAX_PLAYERS, TournamentSettings
from domain.tournaments.model import MAX_TABLE, MIN_TABLE, StandingRow
from domain.tournaments.pairing import MAX_SWISS_ROUNDS
from domain.tournaments.tournament import Tournament

FormatName = Literal["round_robin", "swiss", "single_elimination"]
StatusName = Literal["registering", "running", "finished", "cancelled"]


class TournamentCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    game_type: str = Field(min_length=1, max_length=64, description="A hosted game type's slug.")
    format: FormatName
    options: OptionValues = Field(None, description="The game's options, as for a game.")
    clock: ClockOptions | None = Field(
        None, description="Each round game's turn clock, as for a game; a rated tournament needs one."
    )
    rounds: int | None = Field(
        None,
        ge=1,
        le=MAX_SWISS_ROUNDS,
        description="Swiss rounds (default 5, at most one fewer than the players); a round-robin "
        "and an elimination count their own.",
    )
    table_size: int | None = Field(
        None, ge=MIN_TABLE, le=MAX_TABLE, description="Seats per game (default: 2, or the game's fewest)."
    )
    min_table_size: int | None = Field(
        None,
        ge=MIN_TABLE,
        le=MAX_TABLE,
        description="The smallest table a round may use when the players do not fill full tables "
        "(default: table_size; the others have a bye).",
    )
    max_players: int = Field(64, ge=2, le=MAX_PLAYERS)
    starts_at: datetime | None = Field(
        None, description="When the runner starts it (null: the host starts it)."
    )
    private: bool = Field(False, description="Unlisted; players register with its invite code.")
    rated: bool = Field(True, description="Its games are rated as any other (needs a clock).")
    pause_seconds: int = Field(
        0, ge=0, le=MAX_PAUSE_SECONDS, description="Wait between a round's last game and the next round."
    )

    def settings(self) -> TournamentSettings:
        return TournamentSettings(
            name=self.name,
            game_type=self.game_type,
            format=self.format,
            options=self.options,
            clock=self.clock.settings() if self.clock is not None else None,
            rounds=self.rounds,
            table_size=self.table_size,
            min_table_size=self.min_table_size,
            max_players=self.max_players,
            starts_at=self.starts_at,
            private=self.private,
            rated=self.rated,
            pause_seconds=self.pause_seconds,
        )


class RegistrationCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    invite_code: str | None = Field(None, max_length=128, description="A private tournament's code.")


class EntrantPublic(BaseModel):
    player_id: str
    name: str
    rating: float = Field(description="The player's display rating in the game type when registering.")
    withdrawn: bool


class StandingRowPublic(BaseModel):
    rank: int
    player_id: str
    name: str
    points: float = Field(description="Points by finishing place (win 1, last 0) and byes.")
    games: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    rating: float
    withdrawn: bool
    reached: int = Field(description="Elimination: the last round played (0 in the other formats).")
    eliminated: bool

    @classmethod
    def of(cls, row: StandingRow, names: dict[str, str]) -> StandingRowPublic:
        return cls(
            rank=row.rank,
            player_id=row.player,
            name=names.get(row.player, row.player),
            points=float(row.points),
            games=row.games,
            byes=row.byes,
            buchholz=float(row.buchholz),
            sonneborn_berger=float(row.sonneborn_berger),
            rating=row.rating,
            withdrawn=row.withdrawn,
            reached=row.reached,
            eliminated=row.eliminated,
        )


class TableSeatPublic(BaseModel):
    seat: int
    player_id: str
    name: str
    rank: int | None = Field(description="Finishing place once the game ended (1 is best).")


class RoundTablePublic(BaseModel):
    number: int
    game_id: str
    game: str = Field(description="The game's path.")
    seats: list[TableSeatPublic]
    finished: bool


class RoundPublic(BaseModel):
    round: int
    tables: list[RoundTablePublic]
    byes: list[str] = Field(description="Player ids sitting this round out (scored as a win).")


class TournamentPublic(BaseModel):
    id: str
    name: str
    game_type: str
    format: FormatName
    options: Annotated[dict[str, Any], WithJsonSchema(OPTION_VALUES_SCHEMA)]
    clock: ClockOptions | None
    status: StatusName
    rounds: int = Field(description="Rounds planned once started (before: the rounds asked).")
    current_round: int
    table_size: int
    min_table_size: int
    max_players: int
    starts_at: datetime | None
    next_round_at: datetime | None = Field(description="When the next round is paired (after a pause).")
    finished_at: datetime | None
    private: bool
    rated: bool
    pause_seconds: int
    created_at: datetime
    version: int
    entrants: list[EntrantPublic]

    @classmethod
    def of(cls, t: Tournament) -> TournamentPublic:
        return cls(
            id=t.id,
            name=t.name,
            game_type=t.game_type,
            format=t.format.value,
            options=t.options,
            clock=ClockOptions.model_validate(t.clock) if t.clock is not None else None,
            status=t.status.value,
            rounds=t.planned_rounds or t.rounds_asked,
            current_round=t.current_round,
            table_size=t.seating.most,
            min_table_size=t.seating.fewest,
            max_players=t.max_players,
            starts_at=t.starts_at,
            next_round_at=t.next_round_at,
            finished_at=t.finished_at,
            private=t.private,
            rated=t.rated,
            pause_seconds=t.pause_seconds,
            created_at=t.created_at,
            version=t.version,
            entrants=[
                EntrantPublic(player_id=e.player_id, name=e.name, rating=e.rating, withdrawn=e.withdrawn)
                for e in t.entrants
            ],
        )


class TournamentCreatedPublic(BaseModel):
    tournament: TournamentPublic
    host_token: str = Field(description="Starts or cancels it. Shown once.")
    invite_code: str | None = Field(description="A private tournament's code for players. Shown once.")


def names_of(t: Tournament) -> dict[str, str]:
    return {e.player_id: e.name for e in t.entrants}


def standings_of(t: Tournament) -> list[StandingRowPublic]:
    names = names_of(t)
    return [StandingRowPublic.of(row, names) for row in t.standings()]


def rounds_of(t: Tournament) -> list[RoundPublic]:
    names = names_of(t)
    rounds = []
    for number in range(1, t.current_round + 1):
        tables = [
            RoundTablePublic(
                number=table.number,
                game_id=table.game_id,
                game=f"/v1/games/{table.game_id}",
                seats=[
                    TableSeatPublic(
                        seat=seat,
                        player_id=player,
                        name=names.get(player, player),
                        rank=table.ranks[seat] if table.ranks is not None else None,
                    )
                    for seat, player in enumerate(table.players)
                ],
                finished=table.ranks is not None,
            )
            for table in t.tables
            if table.round == number
        ]
        byes = [b.player for b in t.byes if b.round == number]
        rounds.append(RoundPublic(round=number, tables=tables, byes=byes))
    return rounds
