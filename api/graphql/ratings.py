"""GraphQL ratings: leaderboards per game type, player profiles and the ratings at a table.

The resolvers call the same ``StandingService`` as REST and reuse its mappings
(``api.rest.models.ratings``), so both APIs show the same numbers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry
from strawberry import ID
from strawberry.types import Info

from api.graphql.common import Problem, attempt, container_of, in_range
from api.rest.models.ratings import (
    FinishingPublic,
    LeaderboardPublic,
    ProfilePublic,
    RatingPublic,
    TableSeatPublic,
)


@strawberry.type(description="Why a game does not count for ratings.")
class UnratedReason:
    code: str
    text: str = strawberry.field(description="The reason in the asked language.")


@strawberry.type(description="A rating in one game type (OpenSkill Plackett-Luce).")
class Rating:
    game_type: str
    rating: float = strawberry.field(description="The conservative display value: mu - 3 sigma.")
    mu: float
    sigma: float
    games: int = strawberry.field(description="Rated games played.")
    provisional: bool = strawberry.field(description="Fewer than 5 rated games.")


@strawberry.type(description="A leaderboard line: a player, or a bot level (`bot:<level>`).")
class Standing:
    rank: int
    subject: str
    kind: str = strawberry.field(description="player or bot")
    name: str
    game_type: str
    rating: float
    mu: float
    sigma: float
    games: int
    provisional: bool
    established: bool = strawberry.field(
        description="A bot level, or a player with 3 rated games against established opponents: "
        "ranked above every line that is not."
    )
    finishing: Finishing | None = strawberry.field(
        default=None, description="A player's finishing rate; null for a bot level."
    )


@strawberry.type(description="One page of a leaderboard: pass `nextCursor` as `cursor` for the next.")
class Leaderboard:
    game_type: str
    entries: list[Standing]
    next_cursor: str | None


@strawberry.type(description="A subject's rating after one rated game.")
class RatingChange:
    game_id: ID
    game_type: str
    at: datetime
    seat: int
    rank: int
    rating_before: float
    rating: float
    mu: float
    sigma: float


@strawberry.type(description="How a player's seat ended a finished game.")
class PlayedGame:
    game_id: ID
    game_type: str
    seat: int
    rank: int = strawberry.field(description="1 is best; a seat that resigned or forfeited ranks last.")
    outcome: str = strawberry.field(description="finished, resigned or timed_out")
    rated: bool
    at: datetime
    replay: str = strawberry.field(description="Path of the game's replay (REST).")


@strawberry.type(description="A player's reputation for finishing games.")
class Finishing:
    finished: int
    resigned: int
    timed_out: int
    rate: float | None = strawberry.field(description="Share of games played to the end; null: none yet.")


@strawberry.type
class Profile:
    id: ID
    name: str
    ratings: list[Rating]
    history: list[RatingChange] = strawberry.field(description="Rating after each rated game, newest first.")
    recent_games: list[PlayedGame]
    finishing: Finishing


@strawberry.type(description="A seat's rating in the game's type, as the table shows it.")
class TableSeat:
    seat: int
    name: str
    subject: str | None
    rating: Rating | None
    finishing: Finishing | None


@strawberry.type
class TableRatings:
    game_id: ID
    seats: list[TableSeat]


LeaderboardResult = Annotated[Leaderboard | Problem, strawberry.union("LeaderboardResult")]
ProfileResult = Annotated[Profile | Problem, strawberry.union("ProfileResult")]
TableRatingsResult = Annotated[TableRatings | Problem, strawberry.union("TableRatingsResult")]


def rating_of(public: RatingPublic) -> Rating:
    return Rating(**public.model_dump())


def finishing_of(public: FinishingPublic) -> Finishing:
    return Finishing(**public.model_dump())


def leaderboard_of(public: LeaderboardPublic) -> Leaderboard:
    return Leaderboard(
        game_type=public.game_type,
        entries=[
            Standing(
                **entry.model_dump(exclude={"finishing"}),
                finishing=finishing_of(entry.finishing) if entry.finishing else None,
            )
            for entry in public.entries
        ],
        next_cursor=public.next_cursor,
    )


def profile_of(public: ProfilePublic) -> Profile:
    return Profile(
        id=ID(public.id),
        name=public.name,
        ratings=[rating_of(r) for r in public.ratings],
        history=[RatingChange(**c.model_dump()) for c in public.history],
        recent_games=[PlayedGame(**r.model_dump()) for r in public.recent_games],
        finishing=finishing_of(public.finishing),
    )


def table_seat_of(public: TableSeatPublic) -> TableSeat:
    return TableSeat(
        seat=public.seat,
        name=public.name,
        subject=public.subject,
        rating=rating_of(public.rating) if public.rating else None,
        finishing=finishing_of(public.finishing) if public.finishing else None,
    )


@strawberry.type
class RatingQuery:
    @strawberry.field(
        description="Players and bot levels of a game type by display rating, best first, in "
        "cursor pages; `minGames` leaves out those with fewer rated games."
    )
    async def leaderboard(
        self,
        info: Info,
        game_type: str,
        min_games: int = 0,
        limit: int = 50,
        cursor: str | None = None,
    ) -> LeaderboardResult:
        standing = container_of(info).standing

        def read() -> Leaderboard:
            board = standing.leaderboard(
                game_type,
                in_range("minGames", min_games, 0, 100_000),
                in_range("limit", limit, 1, 200),
                cursor,
            )
            return leaderboard_of(LeaderboardPublic.of(board))

        return await attempt(read)

    @strawberry.field(
        description="A player's ratings, rating history (optionally of one game type), recent "
        "games and finishing rate (public)."
    )
    async def player_profile(self, info: Info, id: ID, game_type: str | None = None) -> ProfileResult:
        standing = container_of(info).standing

        def read() -> Profile:
            return profile_of(ProfilePublic.of(standing.profile(id, game_type)))

        return await attempt(read)

    @strawberry.field(description="Each seat's rating in the game's type and each player's finishing rate.")
    async def table_ratings(self, info: Info, game_id: ID) -> TableRatingsResult:
        standing = container_of(info).standing

        def read() -> TableRatings:
            seats = [table_seat_of(TableSeatPublic.of(seat)) for seat in standing.table(game_id)]
            return TableRatings(game_id=game_id, seats=seats)

        return await attempt(read)
