"""GraphQL seats: taking, freeing, resigning and returning to a seat."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry import ID
from strawberry.types import Info

from api.graphql.common import (
    IDEMPOTENCY_KEY_ADAPTER,
    Problem,
    address_of_info,
    attempt,
    caller_of_info,
    container_of,
    in_range,
    token_of,
)
from api.graphql.games import (
    Game,
    GameOrProblem,
    game_of,
)
from api.rest.models.games import changed_game
from api.rest.models.seats import SeatCreate
from domain.services.seating import take_seat


@strawberry.type
class SeatJoined:
    seat: int
    token: str | None
    version: int


JoinGameResult = Annotated[SeatJoined | Problem, strawberry.union("JoinGameResult")]


@strawberry.type
class SeatMutation:
    @strawberry.mutation(
        description="Take the next free seat as a human (name), or seat a bot (level, host "
        "token); with a player token as bearer the seat is tied to that player, with the previous "
        "game's seat token a held rematch seat is taken."
    )
    async def join_game(
        self,
        info: Info,
        game_id: ID,
        name: str | None = None,
        bot: str | None = None,
        invite_code: str | None = None,
        idempotency_key: str | None = None,
    ) -> JoinGameResult:
        container, token, caller = container_of(info), token_of(info), caller_of_info(info)
        address = address_of_info(info)

        def join() -> SeatJoined:
            body = SeatCreate(name=name, bot=bot, invite_code=invite_code)
            joined = take_seat(
                container.seats,
                container.players,
                container.rematches,
                game_id,
                name=body.name,
                bot=body.bot,
                token=token,
                invite_code=body.invite_code,
                idempotency_key=IDEMPOTENCY_KEY_ADAPTER.validate_python(idempotency_key),
                caller=caller,
                address=address,
            )
            return SeatJoined(seat=joined.seat, token=joined.token, version=joined.version)

        return await attempt(join)

    @strawberry.mutation(
        description="Free a lobby seat: the host removes any seat, a seat (its token) leaves. "
        "`block` (host only): whoever took the seat (player identity and client address) cannot "
        "sit down in this game again."
    )
    async def remove_seat(self, info: Info, game_id: ID, seat: int, block: bool = False) -> GameOrProblem:
        seats, token = container_of(info).seats, token_of(info)
        presence = container_of(info).presence

        def remove() -> Game:
            match = seats.remove_seat(game_id, in_range("seat", seat, 0, 64), token, block)
            return game_of(changed_game(seats.core, presence, match, token))

        return await attempt(remove)

    @strawberry.mutation(
        description="Resign the token's seat: a bot plays it to the end; the result says so."
    )
    async def resign_seat(self, info: Info, game_id: ID) -> GameOrProblem:
        seats, token = container_of(info).seats, token_of(info)
        presence = container_of(info).presence

        def resign() -> Game:
            match = seats.resign(game_id, token)
            return game_of(changed_game(seats.core, presence, match, token))

        return await attempt(resign)

    @strawberry.mutation(description="Take the seat back from the bot that played it on timeout.")
    async def return_to_seat(self, info: Info, game_id: ID) -> GameOrProblem:
        seats, token = container_of(info).seats, token_of(info)
        presence = container_of(info).presence

        def back() -> Game:
            match = seats.return_to_seat(game_id, token)
            return game_of(changed_game(seats.core, presence, match, token))

        return await attempt(back)
