"""GraphQL players: creating a player, the player's games, reissuing one of its seat tokens."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry
from strawberry import ID
from strawberry.types import Info

from api.edge.input_limits import INT32_MAX
from api.graphql.common import (
    Problem,
    attempt,
    container_of,
    in_range,
    token_of,
)
from api.graphql.seats import JoinGameResult, SeatJoined
from api.rest.models.players import PlayerCreate, PlayerGamePublic


@strawberry.type
class PlayerCreated:
    id: ID
    name: str
    token: str
    created_at: datetime


@strawberry.type
class PlayerGame:
    game_id: ID
    type: str
    status: str
    seat: int
    version: int
    decision_version: int | None = strawberry.field(
        description="This seat's concurrency token for its current decision, as the game and its "
        "choices give it: send it back as `decisionVersion` with a choice (null: nothing to decide)."
    )
    your_turn: bool
    waiting_since: datetime | None
    deadline: datetime | None
    joined_at: datetime
    stand_in: str | None


@strawberry.type
class PlayerGames:
    games: list[PlayerGame]


CreatePlayerResult = Annotated[PlayerCreated | Problem, strawberry.union("CreatePlayerResult")]


MyGamesResult = Annotated[PlayerGames | Problem, strawberry.union("MyGamesResult")]


@strawberry.type
class PlayerQuery:
    @strawberry.field(description="The bearer player's games: status, and whether it is their turn.")
    async def my_games(self, info: Info, limit: int = 50, offset: int = 0) -> MyGamesResult:
        players, token = container_of(info).players, token_of(info)

        def read() -> PlayerGames:
            found = players.games_of(
                token, in_range("limit", limit, 1, 200), in_range("offset", offset, 0, INT32_MAX)
            )
            return PlayerGames(games=[PlayerGame(**PlayerGamePublic.of(g).model_dump()) for g in found])

        return await attempt(read)


@strawberry.type
class PlayerMutation:
    @strawberry.mutation(description="Create a player; returns its token (shown once).")
    async def create_player(self, info: Info, name: str) -> CreatePlayerResult:
        players = container_of(info).players

        def create() -> PlayerCreated:
            created = players.create(PlayerCreate(name=name).name)
            return PlayerCreated(
                id=ID(created.player.id),
                name=created.player.name,
                token=created.token,
                created_at=created.player.created_at,
            )

        return await attempt(create)

    @strawberry.mutation(
        description="A new token for one of the bearer player's own seats (the old one stops working)."
    )
    async def reissue_seat_token(self, info: Info, game_id: ID, seat: int) -> JoinGameResult:
        players, token = container_of(info).players, token_of(info)

        def reissue() -> SeatJoined:
            joined = players.reissue_seat_token(token, game_id, seat)
            return SeatJoined(seat=joined.seat, token=joined.token, version=joined.version)

        return await attempt(reissue)
