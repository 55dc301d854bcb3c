"""Shared dependencies as ``Annotated`` aliases; the GraphQL context uses the same functions.

They are ``async def`` because they do no I/O: a plain ``def`` dependency would cost a trip
through the thread pool on every request."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Query, Request
from fastapi.openapi.models import HTTPBearer as HTTPBearerModel
from fastapi.security.base import SecurityBase
from starlette.requests import HTTPConnection

from api.bootstrap import Container
from domain.errors import Unauthorized
from domain.i18n import LANGUAGES, negotiate
from domain.model.idempotency import caller_of
from domain.model.tokens import hash_token
from domain.services.chat import ChatService
from domain.services.core import ServiceCore
from domain.services.lobby import LobbyService
from domain.services.play import PlayService
from domain.services.players import PlayerService
from domain.services.presence import PresenceService
from domain.services.reads import ReadService
from domain.services.rematch import RematchService
from domain.services.replay import ReplayService
from domain.services.seats import SeatService
from domain.services.standing import StandingService
from domain.services.takebacks import TakeBackService
from domain.services.tournaments import TournamentService
from domain.services.webhooks import WebhookService


async def get_container(connection: HTTPConnection) -> Container:
    """The app's container, for HTTP requests and websockets alike."""
    container: Container = connection.app.state.container
    return container


def parse_bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` value; None when absent."""
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be {expected!q}", expected="Bearer <token>")
    return token.strip()


def idempotency_caller(connection: HTTPConnection | None, token: str | None) -> str:
    """Whose create or join key this is: the bearer token's, else the client address's (the
    rate-limit middleware has already put the real client behind a trusted proxy there)."""
    client = connection.client if connection is not None else None
    return caller_of(hash_token(token) if token else None, client.host if client else "unknown")


def bearer_from_connection_params(params: object) -> str | None:
    """The token of a websocket's ``connection_init`` payload: its ``authorization`` key in any
    case, read like the HTTP header (absent: a spectator; malformed: refused)."""
    if not isinstance(params, dict):
        return None
    values = [v for k, v in params.items() if isinstance(k, str) and k.lower() == "authorization"]
    if not values or values[0] is None:
        return None
    if len(values) > 1 or not isinstance(values[0], str):
        raise Unauthorized(
            "{field} must carry one {other_field!q}: {expected!q}",
            field="connection_init",
            other_field="authorization",
            expected="Bearer <token>",
        )
    return parse_bearer(values[0])


class BearerToken(SecurityBase):
    """The ``Authorization: Bearer`` token, documented as the OpenAPI ``bearer`` security scheme.

    Optional (no token: a spectator, or a 401 where the operation needs one), and a header that
    is not ``Bearer <token>`` is a 401, never silently a spectator: FastAPI's ``HTTPBearer`` with
    ``auto_error=False`` would ignore it."""

    def __init__(self) -> None:
        self.model = HTTPBearerModel(
            description="A seat, host or player token: `Authorization: Bearer <token>`. "
            "Tokens are returned once, when a game is created, a seat taken or a player created."
        )
        self.scheme_name = BEARER_SCHEME

    async def __call__(self, request: Request) -> str | None:
        return parse_bearer(request.headers.get("authorization"))


BEARER_SCHEME = "bearer"
bearer_token = BearerToken()


async def language(
    lang: Annotated[
        str | None,
        Query(
            description=f"Language of names, texts and prompts: one of {', '.join(LANGUAGES)}. "
            "Wins over Accept-Language; the answer's Content-Language says which was used.",
        ),
    ] = None,
    accept_language: Annotated[str | None, Header(description="Preferred languages (RFC 9110).")] = None,
) -> str:
    return negotiate(lang, accept_language)


async def get_core(container: Annotated[Container, Depends(get_container)]) -> ServiceCore:
    return container.core


async def get_lobby(container: Annotated[Container, Depends(get_container)]) -> LobbyService:
    return container.lobby


async def get_seats(container: Annotated[Container, Depends(get_container)]) -> SeatService:
    return container.seats


async def get_play(container: Annotated[Container, Depends(get_container)]) -> PlayService:
    return container.play


async def get_reads(container: Annotated[Container, Depends(get_container)]) -> ReadService:
    return container.reads


async def get_players(container: Annotated[Container, Depends(get_container)]) -> PlayerService:
    return container.players


async def get_webhooks(container: Annotated[Container, Depends(get_container)]) -> WebhookService:
    return container.webhooks


async def get_presence(container: Annotated[Container, Depends(get_container)]) -> PresenceService:
    return container.presence


async def get_replays(container: Annotated[Container, Depends(get_container)]) -> ReplayService:
    return container.replays


async def get_rematches(container: Annotated[Container, Depends(get_container)]) -> RematchService:
    return container.rematches


async def get_takebacks(container: Annotated[Container, Depends(get_container)]) -> TakeBackService:
    return container.takebacks


async def get_caller(request: Request) -> str:
    """Read without ``bearer_token``: an operation that only scopes its key by the token does not
    ask for one (and declares no security)."""
    try:
        token = parse_bearer(request.headers.get("authorization"))
    except Unauthorized:
        token = None
    return idempotency_caller(request, token)


async def get_address(request: Request) -> str:
    """The client address (the middleware has resolved a trusted proxy's ``X-Forwarded-For``)."""
    return request.client.host if request.client else "unknown"


async def get_standing(container: Annotated[Container, Depends(get_container)]) -> StandingService:
    return container.standing


async def get_chat(container: Annotated[Container, Depends(get_container)]) -> ChatService:
    return container.chat


async def get_tournaments(container: Annotated[Container, Depends(get_container)]) -> TournamentService:
    return container.tournaments


ContainerDep = Annotated[Container, Depends(get_container)]
CoreDep = Annotated[ServiceCore, Depends(get_core)]
LobbyDep = Annotated[LobbyService, Depends(get_lobby)]
SeatsDep = Annotated[SeatService, Depends(get_seats)]
PlayDep = Annotated[PlayService, Depends(get_play)]
ReadsDep = Annotated[ReadService, Depends(get_reads)]
TokenDep = Annotated[str | None, Depends(bearer_token)]
LanguageDep = Annotated[str, Depends(language)]
PlayersDep = Annotated[PlayerService, Depends(get_players)]
WebhooksDep = Annotated[WebhookService, Depends(get_webhooks)]
ReplaysDep = Annotated[ReplayService, Depends(get_replays)]
RematchesDep = Annotated[RematchService, Depends(get_rematches)]
PresenceDep = Annotated[PresenceService, Depends(get_presence)]
CallerDep = Annotated[str, Depends(get_caller)]
AddressDep = Annotated[str, Depends(get_address)]
StandingDep = Annotated[StandingService, Depends(get_standing)]
ChatDep = Annotated[ChatService, Depends(get_chat)]
TakeBacksDep = Annotated[TakeBackService, Depends(get_takebacks)]
TournamentsDep = Annotated[TournamentService, Depends(get_tournaments)]
