"""GraphQL game types: the catalog and one game type with its static data."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar, cast

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
from api.rest.models.game_types import GameTypeDetail as GameTypeDetailPublic
from api.rest.models.game_types import GameTypePublic
from domain.errors import GameTypeNotFound, UnknownGameType

T = TypeVar("T")


def _of(kind: type[T], value: object) -> T | None:
    """``value`` when it is a ``kind`` (a bool is no int here), else None."""
    if isinstance(value, bool) != (kind is bool):
        return None
    return value if isinstance(value, kind) else None


def _all_of(kind: type[T], values: object) -> list[T] | None:
    if not isinstance(values, list):
        return None
    typed = [v for v in (_of(kind, value) for value in values) if v is not None]
    return typed if len(typed) == len(values) else None


@strawberry.type
class GameOption:
    """An option of a game type; ``default`` and ``allowed`` (JSON) also come typed, under the
    field of the option's kind (``defaultBoolean`` of a ``bool`` option, ...)."""

    name: str
    label: str
    type: str
    default: JSON
    allowed: JSON | None
    allowed_labels: list[str] | None = strawberry.field(
        description="What each allowed value is called, in the asked language, in the order of "
        "`allowed` (show these, send the value); null when `allowed` is."
    )
    description: str
    verified: bool

    @strawberry.field(description="`default` of a `bool` option (else null).")
    def default_boolean(self) -> bool | None:
        return _of(bool, self.default)

    @strawberry.field(description="`default` of an `int` option (else null).")
    def default_int(self) -> int | None:
        return _of(int, self.default)

    @strawberry.field(description="`default` of an option whose values are strings (else null).")
    def default_string(self) -> str | None:
        return _of(str, self.default)

    @strawberry.field(description="`allowed` of an option whose values are integers (else null).")
    def allowed_ints(self) -> list[int] | None:
        return _all_of(int, self.allowed)

    @strawberry.field(description="`allowed` of an option whose values are strings (else null).")
    def allowed_strings(self) -> list[str] | None:
        return _all_of(str, self.allowed)


@strawberry.type(description="An option value that lowers the most seats a game can have.")
class PlayerLimit:
    option: str
    value: JSON
    max_players: int

    @strawberry.field(description="`value` when it is a boolean (else null).")
    def value_boolean(self) -> bool | None:
        return _of(bool, self.value)

    @strawberry.field(description="`value` when it is an integer (else null).")
    def value_int(self) -> int | None:
        return _of(int, self.value)

    @strawberry.field(description="`value` when it is a string (else null).")
    def value_string(self) -> str | None:
        return _of(str, self.value)


@strawberry.type(description="One entry of a map of texts.")
class KeyedText:
    key: str
    text: str


def _entries(texts: object) -> list[KeyedText]:
    return [KeyedText(key=k, text=v) for k, v in texts.items()] if isinstance(texts, dict) else []


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

    @strawberry.field(description="`prompts` as a list: `key` is the decision kind.")
    def prompts_by_kind(self) -> list[KeyedText]:
        return _entries(self.prompts)

    @strawberry.field(description="`logTemplates` as a list: `key` is the event type.")
    def log_templates_by_type(self) -> list[KeyedText]:
        return _entries(self.log_templates)

    @strawberry.field(description="`schemas` as a list: `key` is the part, `text` the schema's address.")
    def schemas_by_part(self) -> list[KeyedText]:
        return _entries(self.schemas)


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
        types = [GameTypePublic.of(g, language) for g in container_of(info).core.registry.games()]
        return [GameType(**game_type_fields(t)) for t in types]

    @strawberry.field(
        description="One game type with its static data (cards, tiles, board), prompts and log "
        "templates, in `lang` (en, de, fr, es; default: Accept-Language, else en)."
    )
    async def game_type(self, info: Info, slug: str, lang: str | None = None) -> GameTypeOrProblem:
        registry, language = container_of(info).core.registry, lang_of(info, lang)

        def read() -> GameTypeDetail:
            try:
                game = registry.game(slug)
            except UnknownGameType as exc:
                raise GameTypeNotFound.saying(exc.detail) from None
            detail = GameTypeDetailPublic.detail(game, language)
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
