"""Taking a seat: the one entry point for ``POST /games/{id}/seats`` and GraphQL ``joinGame``.

Which way a request takes a seat is decided here, not in the API: a bot level seats a bot (host
token); a bearer token first takes the seat a rematch holds for it (previous seat token), then
joins as the token's player; otherwise a person joins anonymously under the name given. An
idempotency key is remembered per ``caller`` (its token, else its address); the client
``address`` is kept (hashed) with a person's seat, so that a host can block its taker.
"""

from __future__ import annotations

from domain.errors import InvalidRequest, Unauthorized
from domain.services.players import PlayerService
from domain.services.rematch import RematchService
from domain.services.seats import Joined, SeatService


def take_seat(
    seats: SeatService,
    players: PlayerService,
    rematches: RematchService,
    game_id: str,
    *,
    name: str | None,
    bot: str | None,
    token: str | None,
    invite_code: str | None,
    idempotency_key: str | None = None,
    caller: str = "",
    address: str | None = None,
) -> Joined:
    if bot is None and token is not None:
        held = rematches.take_held_seat(game_id, token)
        if held is not None:
            return held
        player = players.find(token)
        if player is not None:
            return seats.join(
                game_id,
                name or player.name,
                None,
                None,
                invite_code,
                idempotency_key,
                player_id=player.id,
                caller=caller,
                address=address,
            )
    if bot is None and name is None:
        raise InvalidRequest(
            "give {field!q} (a human), {other_field!q} (a bot level), or join with a player token",
            field="name",
            other_field="bot",
        )
    return seats.join(
        game_id,
        name or f"{bot} bot",
        bot,
        token,
        invite_code,
        idempotency_key,
        caller=caller,
        address=address,
    )


def creator_of(players: PlayerService, token: str | None) -> str | None:
    """The player identity creating a game (its bearer token), or None for an anonymous create;
    a bearer token that is no player's is refused rather than ignored."""
    if token is None:
        return None
    player = players.find(token)
    if player is None:
        raise Unauthorized(
            "create a game with a player token (POST {path}), or with none", path="/v1/players"
        )
    return player.id
