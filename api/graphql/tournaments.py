"""GraphQL tournaments: one tournament with its standings and its rounds' pairings (each table's
seats and game), read through the same ``TournamentService`` and REST mappings as
``/v1/tournaments/{id}``, so both APIs show the same numbers."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry
from strawberry import ID
from strawberry.types import Info

from api.graphql.common import Problem, attempt, container_of
from api.rest.models.tournaments import TournamentPublic, rounds_of, standings_of


@strawberry.type(description="A registered player (its rating in the game type when registering).")
class TournamentEntrant:
    player_id: ID
    name: str
    rating: float
    withdrawn: bool


@strawberry.type(description="A standings line: points, Buchholz, Sonneborn-Berger, then rating.")
class TournamentStanding:
    rank: int
    player_id: ID
    name: str
    points: float
    games: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    rating: float
    withdrawn: bool
    reached: int = strawberry.field(description="Elimination: the last round played (else 0).")
    eliminated: bool


@strawberry.type(description="A seat of a round game: who sits there, and its place once it ended.")
class PairingSeat:
    seat: int
    player_id: ID
    name: str
    rank: int | None


@strawberry.type(description="One game of a round: its seats in order and the game to follow.")
class Pairing:
    number: int
    game_id: ID
    seats: list[PairingSeat]
    finished: bool


@strawberry.type(description="A round: its pairings and the players with a bye.")
class TournamentRound:
    round: int
    pairings: list[Pairing]
    byes: list[ID]


@strawberry.type(description="A tournament: settings, status, entrants, standings and rounds.")
class Tournament:
    id: ID
    name: str
    game_type: str
    format: str = strawberry.field(description="round_robin, swiss or single_elimination")
    status: str = strawberry.field(description="registering, running, finished or cancelled")
    rounds_planned: int
    current_round: int
    table_size: int
    starts_at: datetime | None
    next_round_at: datetime | None
    rated: bool
    entrants: list[TournamentEntrant]
    standings: list[TournamentStanding]
    rounds: list[TournamentRound]


TournamentResult = Annotated[Tournament | Problem, strawberry.union("TournamentResult")]


@strawberry.type
class TournamentQuery:
    @strawberry.field(description="A tournament with its standings and every round's pairings.")
    async def tournament(self, info: Info, id: ID) -> TournamentResult:
        tournaments = container_of(info).tournaments

        def read() -> Tournament:
            t = tournaments.get(id)
            public = TournamentPublic.of(t)
            return Tournament(
                id=ID(public.id),
                name=public.name,
                game_type=public.game_type,
                format=public.format,
                status=public.status,
                rounds_planned=public.rounds,
                current_round=public.current_round,
                table_size=public.table_size,
                starts_at=public.starts_at,
                next_round_at=public.next_round_at,
                rated=public.rated,
                entrants=[
                    TournamentEntrant(
                        player_id=ID(e.player_id), name=e.name, rating=e.rating, withdrawn=e.withdrawn
                    )
                    for e in public.entrants
                ],
                standings=[
                    TournamentStanding(**{**row.model_dump(), "player_id": ID(row.player_id)})
                    for row in standings_of(t)
                ],
                rounds=[
                    TournamentRound(
                        round=r.round,
                        pairings=[
                            Pairing(
                                number=table.number,
                                game_id=ID(table.game_id),
                                seats=[
                                    PairingSeat(
                                        seat=s.seat, player_id=ID(s.player_id), name=s.name, rank=s.rank
                                    )
                                    for s in table.seats
                                ],
                                finished=table.finished,
                            )
                            for table in r.tables
                        ],
                        byes=[ID(b) for b in r.byes],
                    )
                    for r in rounds_of(t)
                ],
            )

        return await attempt(read)
