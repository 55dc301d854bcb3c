"""Players: an identity that carries seats across games, and its games."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from domain.services.players import PlayerGame


class PlayerCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)


class PlayerCreatedPublic(BaseModel):
    id: str
    name: str
    token: str = Field(description="Bearer token of this player, for every game. Shown once.")
    created_at: datetime


class PlayerGamePublic(BaseModel):
    game_id: str
    type: str
    status: str
    seat: int
    version: int
    decision_version: int | None = Field(
        description="This seat's concurrency token for its current decision, as the game and its "
        "choices give it: send it back as `decision_version` with a choice (null: nothing to decide)."
    )
    your_turn: bool = Field(description="The game is waiting for this seat's decision now.")
    waiting_since: datetime | None = Field(description="Since when the game has waited for it.")
    deadline: datetime | None = Field(description="When its clock runs out (null: no clock).")
    joined_at: datetime
    stand_in: str | None = Field(
        description="Why a bot plays this seat for now (resigned, forfeited, timeout), or null."
    )

    @classmethod
    def of(cls, game: PlayerGame) -> PlayerGamePublic:
        return cls(
            game_id=game.game_id,
            type=game.game_type,
            status=game.status,
            seat=game.seat,
            version=game.version,
            decision_version=game.decision_version,
            your_turn=game.your_turn,
            waiting_since=game.waiting_since,
            deadline=game.deadline,
            joined_at=game.joined_at,
            stand_in=game.stand_in,
        )
