"""Seats: taking a seat (a person or a bot) and the seat token it returns."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from api.edge.input_limits import Text
from domain.model.names import MAX_NAME_LENGTH, NAME_RULE


class SeatCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        # Exactly what is accepted: `name` and `bot` are never both given.
        json_schema_extra={
            "not": {
                "type": "object",
                "required": ["name", "bot"],
                "properties": {"name": {"type": "string"}, "bot": {"type": "string"}},
            }
        },
    )

    name: Text | None = Field(
        None,
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        description=NAME_RULE,
    )
    bot: Text | None = Field(
        None, max_length=32, description="A bot level, to seat a bot (host token required)."
    )
    invite_code: Text | None = Field(
        None, max_length=128, description="The invite code of a private game (people only)."
    )

    @model_validator(mode="after")
    def _name_or_bot(self) -> SeatCreate:
        if self.name is not None and self.bot is not None:
            raise ValueError("give exactly one of 'name' (a human) or 'bot' (a bot level)")
        return self


class SeatCreated(BaseModel):
    seat: int
    token: str | None = Field(
        description="Bearer token of this seat, shown once; null for a bot seat (it has none)."
    )
    version: int
