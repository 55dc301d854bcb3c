"""Players: an optional identity across games, their games, and re-issued seat tokens."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from api.deps import PlayersDep, TokenDep
from api.edge.input_limits import INT32_MAX
from api.openapi.contract import problems
from api.pages.sign_in_qr import QR_RESPONSES, SVG_MEDIA_TYPE, qr_svg, sign_in_link
from api.rest.models.players import PlayerCreate, PlayerCreatedPublic, PlayerGamePublic
from api.rest.models.seats import SeatCreated

router = APIRouter(prefix="/v1/players", tags=["players"])


@router.post("", status_code=201, operation_id="createPlayer", openapi_extra=problems("invalid_name"))
def create_player(body: PlayerCreate, players: PlayersDep, response: Response) -> PlayerCreatedPublic:
    """Create a player; returns its token (shown once; join games with it to tie seats to it)."""
    created = players.create(body.name)
    response.headers["Location"] = f"{router.prefix}/{created.player.id}"
    return PlayerCreatedPublic(
        id=created.player.id,
        name=created.player.name,
        token=created.token,
        created_at=created.player.created_at,
    )


@router.get("/me/games", operation_id="listMyGames", openapi_extra=problems())
def list_my_games(
    players: PlayersDep,
    token: TokenDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=INT32_MAX)] = 0,
) -> list[PlayerGamePublic]:
    """The player's games, most recently joined first: status, and whether it is their turn."""
    return [PlayerGamePublic.of(g) for g in players.games_of(token, limit, offset)]


@router.post(
    "/me/games/{game_id}/seats/{seat}/token",
    operation_id="reissueSeatToken",
    openapi_extra=problems("game_not_found", "forbidden"),
)
def reissue_seat_token(game_id: str, seat: int, players: PlayersDep, token: TokenDep) -> SeatCreated:
    """A new token for one of the player's own seats; the old seat token stops working."""
    joined = players.reissue_seat_token(token, game_id, seat)
    return SeatCreated(seat=joined.seat, token=joined.token, version=joined.version)


@router.get(
    "/me/sign-in-qr",
    operation_id="getSignInQrCode",
    response_class=Response,
    responses=QR_RESPONSES,
    openapi_extra=problems(),
)
def sign_in_qr_code(request: Request, players: PlayersDep, token: TokenDep) -> Response:
    """The web client's sign-in link of the calling player as a QR code (SVG), for a phone's
    camera: only for the token that asks, never cached."""
    players.authenticate(token)  # refuses a missing or unknown token: "" is never drawn
    svg = qr_svg(sign_in_link(str(request.base_url), token or ""), "Tabletop sign-in")
    return Response(svg, media_type=SVG_MEDIA_TYPE, headers={"Cache-Control": "no-store"})
