"""Request and response schemas of the REST API (separate from domain objects and tables)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.engine import GameEngine
from domain.match import Match
from domain.ports import GameSummary
from domain.services import Created, Viewer, describe_decision


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str
    title: str
    status: int
    code: str = Field(description="Stable machine-readable error code.")
    detail: str


class OptionPublic(BaseModel):
    name: str
    type: Literal["bool", "enum", "int"]
    default: Any
    allowed: list[Any] | None = Field(description="Allowed values; null when any value of the type is.")
    description: str
    verified: bool = Field(description="False when the rule behind the option is reconstructed.")


class PlayerLimitPublic(BaseModel):
    option: str
    value: Any
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
    def of(cls, engine: GameEngine[Any]) -> GameTypePublic:
        meta = engine.meta
        return cls(
            slug=meta.slug,
            name=meta.name,
            description=meta.description,
            min_players=meta.min_players,
            max_players=meta.max_players,
            options=[
                OptionPublic(
                    name=o.name,
                    type=o.kind,
                    default=o.default,
                    allowed=list(o.allowed) or None,
                    description=o.description,
                    verified=o.verified,
                )
                for o in meta.options
            ],
            player_limits=[
                PlayerLimitPublic(option=p.option, value=p.value, max_players=p.max_players)
                for p in meta.player_limits
            ],
        )


class GameCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: str = Field(max_length=64, description="A game-type slug from /v1/game-types.")
    options: dict[str, Any] | None = Field(None, description="Option values; defaults fill the rest.")
    seed: str | None = Field(
        None, min_length=1, max_length=256, description="Seed for a reproducible game; random if absent."
    )


class GameCreated(BaseModel):
    id: str
    type: str
    status: str
    version: int
    options: dict[str, Any]
    seed_commitment: str = Field(description="SHA-256 (hex) of the seed, revealed when the game ends.")
    host_token: str = Field(description="Bearer token that may start or abort the game. Shown once.")
    created_at: datetime

    @classmethod
    def of(cls, created: Created) -> GameCreated:
        match = created.match
        return cls(
            id=match.id,
            type=match.game_type,
            status=match.status.value,
            version=match.version,
            options=match.options,
            seed_commitment=match.seed_commitment,
            host_token=created.host_token,
            created_at=match.created_at,
        )


class SeatCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(None, min_length=1, max_length=64)
    bot: str | None = Field(None, max_length=32, description="A bot level, to seat a bot.")

    @model_validator(mode="after")
    def _name_or_bot(self) -> SeatCreate:
        if (self.name is None) == (self.bot is None):
            raise ValueError("give exactly one of 'name' (a human) or 'bot' (a bot level)")
        return self


class SeatCreated(BaseModel):
    seat: int
    token: str = Field(description="Bearer token of this seat. Shown once.")
    version: int


class SeatPublic(BaseModel):
    seat: int
    name: str
    bot: str | None


class DecisionPublic(BaseModel):
    kind: str
    prompt: str
    seats: list[int]
    simultaneous: bool
    sealed: list[int] = Field(description="Seats that have sealed a simultaneous choice.")
    your_sealed_choice: dict[str, Any] | None = None
    data: dict[str, Any]


class ResultPublic(BaseModel):
    scores: list[int]
    winners: list[int]
    details: dict[str, Any]


class ViewerPublic(BaseModel):
    seat: int | None
    host: bool


class GamePublic(BaseModel):
    id: str
    type: str
    status: str
    version: int
    options: dict[str, Any]
    seats: list[SeatPublic]
    max_players: int
    state: dict[str, Any] | None = Field(description="The game as the viewer may see it.")
    decision: DecisionPublic | None
    result: ResultPublic | None
    seed: str | None = Field(description="Null until the game is over.")
    seed_commitment: str
    created_at: datetime
    viewer: ViewerPublic

    @classmethod
    def of(cls, match: Match, viewer: Viewer) -> GamePublic:
        decision = match.decision()
        return cls(
            id=match.id,
            type=match.game_type,
            status=match.status.value,
            version=match.version,
            options=match.options,
            seats=[SeatPublic(seat=s.index, name=s.name, bot=s.bot) for s in match.seats],
            max_players=match.max_players,
            state=match.view(viewer.seat),
            decision=DecisionPublic(**describe_decision(decision, match, viewer.seat))
            if decision
            else None,
            result=ResultPublic(**match.result) if match.result else None,
            seed=match.seed_revealed(),
            seed_commitment=match.seed_commitment,
            created_at=match.created_at,
            viewer=ViewerPublic(seat=viewer.seat, host=viewer.is_host),
        )


class GameSummaryPublic(BaseModel):
    id: str
    type: str
    status: str
    players: int
    version: int
    created_at: datetime

    @classmethod
    def of(cls, summary: GameSummary) -> GameSummaryPublic:
        return cls(
            id=summary.id,
            type=summary.game_type,
            status=summary.status,
            players=summary.players,
            version=summary.version,
            created_at=summary.created_at,
        )


class ChoicesPublic(BaseModel):
    version: int
    decision: DecisionPublic | None
    choices: list[dict[str, Any]] = Field(description="Every legal choice; post one back verbatim.")


class ChoiceSubmit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    choice: dict[str, Any]
    version: int | None = Field(None, description="The version you decided on; stale → 409.")


class EventPublic(BaseModel):
    seq: int
    type: str
    data: dict[str, Any]


class SubmitResultPublic(BaseModel):
    status: Literal["sealed", "applied"]
    version: int
    events: list[EventPublic]


class EventsPage(BaseModel):
    events: list[EventPublic]
    last_seq: int = Field(description="Pass as `after` to continue.")
