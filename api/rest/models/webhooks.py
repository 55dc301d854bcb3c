"""Webhooks: registering an endpoint, and its deliveries with every attempt."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from domain.model.webhooks import FILTERS, Attempt, Delivery, Endpoint


class WebhookCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(max_length=2048, description="Where to POST; public http(s) addresses only.")
    filters: list[str] = Field(
        min_length=1,
        max_length=5,
        description="your_turn, game_started, game_over, reveal, takeback, "
        "tournament_round_ready (a player's game in a tournament's new round is ready), or all "
        "(every event the owner's seat may see, and every notice; a host's endpoint sees what a "
        "spectator sees).",
        json_schema_extra={"items": {"type": "string", "enum": list(FILTERS)}},
    )
    game_id: str | None = Field(
        None,
        max_length=64,
        description="With the host token: this game's endpoint. Without: the bearer player's "
        "endpoint for all its games.",
    )


class WebhookPublic(BaseModel):
    id: str
    url: str
    filters: list[str]
    status: str = Field(description="active, or failing after retries ran out (enable again).")
    player_id: str | None
    game_id: str | None
    created_at: datetime

    @classmethod
    def of(cls, endpoint: Endpoint) -> WebhookPublic:
        return cls(
            id=endpoint.id,
            url=endpoint.url,
            filters=list(endpoint.filters),
            status=endpoint.status,
            player_id=endpoint.player_id,
            game_id=endpoint.game_id,
            created_at=endpoint.created_at,
        )


class WebhookCreated(WebhookPublic):
    secret: str = Field(
        description="whsec_… signing secret (Standard Webhooks). Shown once: verify every delivery with it."
    )


class WebhookAttemptPublic(BaseModel):
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: float


class WebhookDeliveryPublic(BaseModel):
    webhook_id: str = Field(description="The webhook-id header: de-duplicate by it.")
    game_id: str
    kind: str
    payload: dict[str, Any]
    status: str = Field(description="pending, delivered or failed.")
    attempts: int
    next_attempt_at: datetime | None
    created_at: datetime
    delivered_at: datetime | None
    history: list[WebhookAttemptPublic]

    @classmethod
    def of(cls, delivery: Delivery) -> WebhookDeliveryPublic:
        return cls(
            webhook_id=delivery.message_id,
            game_id=delivery.game_id,
            kind=delivery.kind,
            payload=delivery.payload,
            status=delivery.status,
            attempts=delivery.attempts,
            next_attempt_at=delivery.next_attempt_at,
            created_at=delivery.created_at,
            delivered_at=delivery.delivered_at,
            history=[WebhookAttemptPublic(**vars_of(a)) for a in delivery.history],
        )


def vars_of(attempt: Attempt) -> dict[str, Any]:
    return {
        "attempted_at": attempt.attempted_at,
        "status_code": attempt.status_code,
        "error": attempt.error,
        "duration_ms": attempt.duration_ms,
    }
