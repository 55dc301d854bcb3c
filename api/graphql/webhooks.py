"""GraphQL webhooks: registering, listing, enabling and deleting endpoints, and their deliveries."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import strawberry
from strawberry import ID
from strawberry.scalars import JSON
from strawberry.types import Info

from api.graphql.common import (
    Problem,
    attempt,
    container_of,
    in_range,
    token_of,
)
from api.graphql.game_data import TypedPayload, named_scalar
from api.rest.models.webhooks import WebhookCreate, WebhookDeliveryPublic, WebhookPublic

if TYPE_CHECKING:
    YourTurnPayload = dict[str, Any]
else:
    YourTurnPayload = named_scalar("WebhookYourTurnPayload")


@strawberry.type
class Webhook:
    id: ID
    url: str
    filters: list[str]
    status: str
    player_id: ID | None
    game_id: ID | None
    created_at: datetime
    secret: str | None = strawberry.field(
        default=None, description="The whsec_ signing secret: only in the answer to createWebhook."
    )


@strawberry.type
class WebhookAttempt:
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: float


@strawberry.type
class WebhookDelivery(TypedPayload):
    webhook_id: ID
    game_id: ID
    kind: str
    payload: JSON
    status: str
    attempts: int
    next_attempt_at: datetime | None
    created_at: datetime
    delivered_at: datetime | None
    history: list[WebhookAttempt]

    @strawberry.field(description="As `WebhookYourTurnPayload`: null unless `kind` is `your_turn`.")
    def your_turn_payload(self) -> YourTurnPayload | None:
        payload = self.payload
        return payload if isinstance(payload, dict) and payload.get("type") == "your_turn" else None


@strawberry.type
class Webhooks:
    webhooks: list[Webhook]


@strawberry.type
class WebhookDeliveries:
    deliveries: list[WebhookDelivery]


WebhookResult = Annotated[Webhook | Problem, strawberry.union("WebhookResult")]


WebhooksResult = Annotated[Webhooks | Problem, strawberry.union("WebhooksResult")]


DeliveriesResult = Annotated[WebhookDeliveries | Problem, strawberry.union("DeliveriesResult")]


def webhook_of(public: WebhookPublic, secret: str | None = None) -> Webhook:
    return Webhook(**public.model_dump(), secret=secret)


def delivery_of(public: WebhookDeliveryPublic) -> WebhookDelivery:
    values = public.model_dump(exclude={"history"})
    return WebhookDelivery(**values, history=[WebhookAttempt(**a.model_dump()) for a in public.history])


@strawberry.type
class WebhookQuery:
    @strawberry.field(description="The bearer player's webhook endpoints, or (host token) a game's.")
    async def webhooks(self, info: Info, game_id: ID | None = None) -> WebhooksResult:
        webhooks, token = container_of(info).webhooks, token_of(info)

        def read() -> Webhooks:
            found = webhooks.endpoints(token, game_id)
            return Webhooks(webhooks=[webhook_of(WebhookPublic.of(e)) for e in found])

        return await attempt(read)

    @strawberry.field(description="An endpoint's deliveries, newest first, with every attempt.")
    async def webhook_deliveries(self, info: Info, webhook_id: ID, limit: int = 100) -> DeliveriesResult:
        webhooks, token = container_of(info).webhooks, token_of(info)

        def read() -> WebhookDeliveries:
            found = webhooks.deliveries(token, webhook_id, in_range("limit", limit, 1, 500))
            return WebhookDeliveries(deliveries=[delivery_of(WebhookDeliveryPublic.of(d)) for d in found])

        return await attempt(read)


@strawberry.type
class WebhookMutation:
    @strawberry.mutation(
        description="Register a webhook endpoint: player token (all its games) or host token "
        "with gameId. The answer carries the signing secret, shown once."
    )
    async def create_webhook(
        self, info: Info, url: str, filters: list[str], game_id: ID | None = None
    ) -> WebhookResult:
        webhooks, token = container_of(info).webhooks, token_of(info)

        def create() -> Webhook:
            body = WebhookCreate(url=url, filters=filters, game_id=game_id)
            endpoint = webhooks.register(token, body.url, body.filters, body.game_id)
            return webhook_of(WebhookPublic.of(endpoint), endpoint.secret)

        return await attempt(create)

    @strawberry.mutation(description="Make a failing endpoint active again (failed deliveries resent).")
    async def enable_webhook(self, info: Info, webhook_id: ID) -> WebhookResult:
        webhooks, token = container_of(info).webhooks, token_of(info)

        def enable() -> Webhook:
            return webhook_of(WebhookPublic.of(webhooks.enable(token, webhook_id)))

        return await attempt(enable)

    @strawberry.mutation(description="Stop sending to an endpoint.")
    async def delete_webhook(self, info: Info, webhook_id: ID) -> WebhookResult:
        webhooks, token = container_of(info).webhooks, token_of(info)

        def delete() -> Webhook:
            return webhook_of(WebhookPublic.of(webhooks.delete(token, webhook_id)))

        return await attempt(delete)
