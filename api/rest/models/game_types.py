"""Game types: the catalog and one game type with its static data, in one language."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from api.openapi.game_schemas import refs as game_schema_refs
from domain.catalog import bot_levels, describe
from domain.i18n import DEFAULT_LANGUAGE
from domain.manifest import HostedGame

OptionValue = bool | int | str
"""A game option's value: true/false, an integer or one of its enum's strings."""


class OptionPublic(BaseModel):
    name: str
    label: str = Field(description="A short name for people, in the answer's language.")
    type: Literal["bool", "enum", "int"]
    default: OptionValue
    allowed: list[OptionValue] | None = Field(
        description="Allowed values; null when any value of the type is."
    )
    allowed_labels: list[str] | None = Field(
        default=None,
        description="What each allowed value is called, in the answer's language, in the order "
        "of `allowed` (show these, send the value); null when `allowed` is.",
    )
    description: str
    verified: bool = Field(description="False when the rule behind the option is reconstructed.")


class PlayerLimitPublic(BaseModel):
    option: str
    value: OptionValue
    max_players: int


class GameTypePublic(BaseModel):
    slug: str
    name: str
    description: str
    min_players: int
    max_players: int
    options: list[OptionPublic]
    player_limits: list[PlayerLimitPublic]

    @classmethod
    def of(cls, game: HostedGame[Any], lang: str = DEFAULT_LANGUAGE) -> GameTypePublic:
        meta = game.engine.meta
        texts = describe(game.catalog, meta, lang) if game.catalog is not None else None
        option_texts: dict[str, str] = texts["options"] if texts else {}
        option_labels: dict[str, str] = texts["option_labels"] if texts else {}
        option_values: dict[str, list[str]] = texts["option_values"] if texts else {}
        return cls(
            slug=meta.slug,
            name=texts["name"] if texts else meta.name,
            description=texts["description"] if texts else meta.description,
            min_players=meta.min_players,
            max_players=meta.max_players,
            options=[
                OptionPublic(
                    name=o.name,
                    label=option_labels.get(o.name, o.name),
                    type=o.kind,
                    default=o.default,
                    allowed=list(o.allowed) or None,
                    # A game without translations names each value by itself, as it labels
                    # options by their names.
                    allowed_labels=option_values.get(o.name, [str(v) for v in o.allowed])
                    if o.allowed
                    else None,
                    description=option_texts.get(o.name, o.description),
                    verified=o.verified,
                )
                for o in meta.options
            ],
            player_limits=[
                PlayerLimitPublic(option=p.option, value=p.value, max_players=p.max_players)
                for p in meta.player_limits
            ],
        )


class BotLevelPublic(BaseModel):
    level: str = Field(description="What to send as `bot` when seating a bot.")
    name: str
    description: str


class GameTypeDetail(GameTypePublic):
    """A game type with everything printed on its components, in one language."""

    language: str = Field(description="The language of every text here (also in Content-Language).")
    bot_levels: list[BotLevelPublic] = Field(
        description='The bots a host can seat (`{"bot": level}`), weakest first.'
    )
    prompts: dict[str, str] = Field(
        description="The prompt of each decision kind (`decision.kind` in games and choices)."
    )
    log_templates: dict[str, str] = Field(
        description="A log-line template per event type; `{field}` stands for a field of the "
        "event's `data` (ids and numbers: name them with `data`; a seat by its player's name). "
        "`{field:one|other}` is a count followed by its noun, `one` when the language's plural "
        "rules (CLDR) say the number is singular, else `other`."
    )
    data: dict[str, Any] | None = Field(
        description="The game's static data: every card, building, tile and board element with "
        "the ids views, choices and events use (schema: `schemas.StaticData`). Values marked "
        "`verified: false` are reconstructed: `unverified` names the fields not taken from the "
        "printed game."
    )
    schemas: dict[str, str] = Field(
        description="Where this game's JSON Schemas are in /openapi.json: `View` (a game's "
        "`state`), `Decision` (by kind), `Choices` (by decision kind), `Choice`, `Event` (by "
        "type), `EventType` (every event type), `StaticData`."
    )

    @classmethod
    def detail(cls, game: HostedGame[Any], lang: str) -> GameTypeDetail:
        base = GameTypePublic.of(game, lang)
        texts = describe(game.catalog, game.engine.meta, lang) if game.catalog is not None else None
        return cls(
            **base.model_dump(),
            language=lang,
            bot_levels=[BotLevelPublic(**level) for level in bot_levels(lang)],
            prompts=texts["prompts"] if texts else {},
            log_templates=texts["log_templates"] if texts else {},
            data=texts["data"] if texts else None,
            schemas=game_schema_refs(game.slug),
        )
