"""The catalog of hosted games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api.deps import ServiceDep
from api.schemas import GameTypePublic, Problem
from domain.errors import GameNotFound, UnknownGameType

router = APIRouter(prefix="/v1/game-types", tags=["game-types"])

ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": Problem} for status in (404, 422, 429)}


@router.get("", operation_id="listGameTypes", responses={429: {"model": Problem}})
def list_game_types(service: ServiceDep) -> list[GameTypePublic]:
    """List the game types with their player counts and options."""
    return [GameTypePublic.of(engine) for engine in service.registry]


@router.get("/{slug}", operation_id="getGameType", responses=ERRORS)
def get_game_type(slug: str, service: ServiceDep) -> GameTypePublic:
    """Describe one game type."""
    try:
        return GameTypePublic.of(service.registry.get(slug))
    except UnknownGameType as exc:
        raise GameNotFound(exc.message) from None
