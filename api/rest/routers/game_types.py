"""The catalog of hosted games."""

from __future__ import annotations

from fastapi import APIRouter, Response

from api.deps import CoreDep, LanguageDep
from api.openapi.contract import problems
from api.rest.conditional import NOT_MODIFIED, IfNoneMatch, content_etag, matches
from api.rest.models.game_types import GameTypeDetail, GameTypePublic
from domain.errors import GameTypeNotFound, UnknownGameType

router = APIRouter(prefix="/v1/game-types", tags=["game-types"])


@router.get("", operation_id="listGameTypes", openapi_extra=problems())
def list_game_types(core: CoreDep, lang: LanguageDep, response: Response) -> list[GameTypePublic]:
    """List the game types with their player counts and options."""
    response.headers["Content-Language"] = lang
    return [GameTypePublic.of(game, lang) for game in core.registry.games()]


@router.get(
    "/{slug}",
    operation_id="getGameType",
    response_model=GameTypeDetail,
    responses=NOT_MODIFIED,
    openapi_extra=problems(("unknown_game_type", 404)),
)
def get_game_type(
    slug: str,
    core: CoreDep,
    lang: LanguageDep,
    response: Response,
    if_none_match: IfNoneMatch = None,
) -> GameTypeDetail | Response:
    """Describe one game type with all its static data (cards, tiles, board), in one language.

    The ``ETag`` changes only when the data does (a new version of the service): revalidate
    with ``If-None-Match`` instead of downloading it again."""
    try:
        game = core.registry.game(slug)
    except UnknownGameType as exc:
        raise GameTypeNotFound.saying(exc.detail) from None
    detail = GameTypeDetail.detail(game, lang)
    etag = content_etag(detail.model_dump_json())
    headers = {"ETag": etag, "Vary": "Accept-Language", "Cache-Control": "no-cache", "Content-Language": lang}
    if matches(if_none_match, etag):
        return Response(status_code=304, headers=headers)
    response.headers.update(headers)
    return detail
