"""Shared dependencies as ``Annotated`` aliases; the GraphQL context uses the same functions.

They are ``async def`` because they do no I/O: a plain ``def`` dependency would cost a trip
through the thread pool on every request."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from api.container import Container
from domain.errors import Unauthorized
from domain.services import GameService


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
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()


async def bearer_token(
    authorization: Annotated[str | None, Header(description="Bearer <seat or host token>")] = None,
) -> str | None:
    return parse_bearer(authorization)


async def get_service(container: Annotated[Container, Depends(get_container)]) -> GameService:
    return container.service


ContainerDep = Annotated[Container, Depends(get_container)]
ServiceDep = Annotated[GameService, Depends(get_service)]
TokenDep = Annotated[str | None, Depends(bearer_token)]
