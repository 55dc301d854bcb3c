"""Webhooks: endpoints of players (all their games) or hosts (one game), deliveries and attempts."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from api.deps import TokenDep, WebhooksDep
from api.openapi.contract import problems
from api.rest.models.webhooks import WebhookCreate, WebhookCreated, WebhookDeliveryPublic, WebhookPublic

router = APIRouter(prefix="/v1/webhooks", tags=["webhooks"])


@router.post(
    "",
    status_code=201,
    operation_id="createWebhook",
    openapi_extra=problems("game_not_found", "forbidden", "webhook_target_refused"),
)
def create_webhook(
    body: WebhookCreate, webhooks: WebhooksDep, token: TokenDep, response: Response
) -> WebhookCreated:
    """Register an endpoint: player token (all its games) or host token with ``game_id``.

    The answer carries the signing secret, shown once."""
    endpoint = webhooks.register(token, body.url, body.filters, body.game_id)
    response.headers["Location"] = f"{router.prefix}/{endpoint.id}"
    return WebhookCreated(**WebhookPublic.of(endpoint).model_dump(), secret=endpoint.secret)


@router.get("", operation_id="listWebhooks", openapi_extra=problems("game_not_found", "forbidden"))
def list_webhooks(
    webhooks: WebhooksDep,
    token: TokenDep,
    game_id: Annotated[str | None, Query(max_length=64)] = None,
) -> list[WebhookPublic]:
    """The bearer player's endpoints, or (host token and ``game_id``) the game's."""
    return [WebhookPublic.of(e) for e in webhooks.endpoints(token, game_id)]


@router.get(
    "/{webhook_id}/deliveries",
    operation_id="listWebhookDeliveries",
    openapi_extra=problems("webhook_not_found", "forbidden"),
)
def list_deliveries(
    webhook_id: str,
    webhooks: WebhooksDep,
    token: TokenDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[WebhookDeliveryPublic]:
    """An endpoint's deliveries, newest first, each with every attempt (owner's token)."""
    return [WebhookDeliveryPublic.of(d) for d in webhooks.deliveries(token, webhook_id, limit)]


@router.post(
    "/{webhook_id}/enable",
    operation_id="enableWebhook",
    openapi_extra=problems("webhook_not_found", "forbidden"),
)
def enable_webhook(webhook_id: str, webhooks: WebhooksDep, token: TokenDep) -> WebhookPublic:
    """Make a failing endpoint active again; its failed deliveries are sent again."""
    return WebhookPublic.of(webhooks.enable(token, webhook_id))


@router.delete(
    "/{webhook_id}",
    status_code=204,
    operation_id="deleteWebhook",
    openapi_extra=problems("webhook_not_found", "forbidden"),
)
def delete_webhook(webhook_id: str, webhooks: WebhooksDep, token: TokenDep) -> Response:
    """Stop sending to an endpoint; its deliveries are no longer listed."""
    webhooks.delete(token, webhook_id)
    return Response(status_code=204)
