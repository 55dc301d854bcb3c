"""GraphQL game types: the catalog and one game type with its static data."""

from __future__ import annotations

from typing import Annotated, Any, cast

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from api.graphql.common import (
    Problem,
    attempt,
    container_of,
    lang_of,
)
from api.graphql.game_data import TypedStaticData
from api.schemas.game_types import GameTypeDetail as GameTypeDetailPublic
from api.schemas.game_types import GameTypePublic
from domain.errors import GameTypeNotFound, UnknownGameType


@strawberry.type
class GameOption:
    name: str
    label: str
    type: str
    default: JSON
    allowed: JSON | None
    description: str
    verified: bool


@strawberry.type(description="An option value that lowers the most seats a game can have.")
class PlayerLimit:
    option: str
    value: JSON
    max_players: int


@strawberry.type
class GameType:
    slug: str
    name: str
    description: str
    min_players: int
    max_players: int
    options: list[GameOption]
    player_limits: list[PlayerLimit]


@strawberry.type(description="A bot a host can seat: send `level` as `bot` when joining.")
class BotLevel:
    level: str
    name: str
    description: str


@strawberry.type(description="A game type with all its static data, in one language.")
class GameTypeDetail(GameType, TypedStaticData):
    language: str
    bot_levels: list[BotLevel]
    prompts: JSON
    log_templates: JSON
    data: JSON | None
    schemas: JSON


GameTypeOrProblem = Annotated[GameTypeDetail | Problem, strawberry.union("GameTypeOrProblem")]


def game_type_fields(t: GameTypePublic) -> dict[str, Any]:
    return {
        "slug": t.slug,
        "name": t.name,
        "description": t.description,
        "min_players": t.min_players,
        "max_players": t.max_players,
        "options": [GameOption(**o.model_dump()) for o in t.options],
        "player_limits": [PlayerLimit(**p.model_dump()) for p in t.player_limits],
    }


@strawberry.type
class GameTypeQuery:
    @strawberry.field(description="The hosted game types with player counts and options.")
    def game_types(self, info: Info, lang: str | None = None) -> list[GameType]:
        language = lang_of(info, lang)
        types = [GameTypePublic.of(e, language) for e in container_of(info).service.registry]
        return [GameType(**game_type_fields(t)) for t in types]

    @strawberry.field(
        description="One game type with its static data (cards, tiles, board), prompts and log "
        "templates, in `lang` (en, de, fr, es; default: Accept-Language, else en)."
    )
    async def game_type(self, info: Info, slug: str, lang: str | None = None) -> GameTypeOrProblem:
        registry, language = container_of(info).service.registry, lang_of(info, lang)

        def read() -> GameTypeDetail:
            try:
                engine = registry.get(slug)
            except UnknownGameType as exc:
                raise GameTypeNotFound(exc.message) from None
            detail = GameTypeDetailPublic.detail(engine, language)
            return GameTypeDetail(
                **game_type_fields(detail),
                language=detail.language,
                bot_levels=[BotLevel(**b.model_dump()) for b in detail.bot_levels],
                prompts=cast(JSON, detail.prompts),
                log_templates=cast(JSON, detail.log_templates),
                data=cast(JSON, detail.data),
                schemas=cast(JSON, detail.schemas),
            )

        return await attempt(read)
