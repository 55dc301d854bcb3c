"""Notices that reach a closed page: which channels the server sends on, a player's browsers'
push subscriptions and e-mail address (``domain.services.notices``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response

from api.bootstrap import Container
from api.deps import LanguageDep, TokenDep, get_container
from api.openapi.contract import problems
from api.rest.models.notices import (
    NoticeChannelsPublic,
    NoticeEmailPublic,
    NoticeEmailUpdate,
    PushSubscriptionCreate,
    PushSubscriptionPublic,
)
from domain.model.notices import KINDS
from domain.services.notices import NoticeService

router = APIRouter(tags=["notices"])


async def get_notices(container: Annotated[Container, Depends(get_container)]) -> NoticeService:
    return container.notices


NoticesDep = Annotated[NoticeService, Depends(get_notices)]


@router.get("/v1/notices", operation_id="getNoticeChannels", openapi_extra=problems())
def notice_channels(container: Annotated[Container, Depends(get_container)]) -> NoticeChannelsPublic:
    """The channels this server sends notices on, and the VAPID key browsers subscribe with."""
    sender = container.notice_sender
    push = "push" in container.notices.channels
    key = sender.push.public_key if sender is not None and sender.push is not None else None
    return NoticeChannelsPublic(
        push=push and key is not None,
        email="email" in container.notices.channels,
        vapid_public_key=key,
        kinds=list(KINDS),
    )


@router.post(
    "/v1/players/me/push-subscriptions",
    status_code=201,
    operation_id="createPushSubscription",
    openapi_extra=problems("notices_off", "invalid_push_subscription"),
)
def create_push_subscription(
    body: PushSubscriptionCreate, notices: NoticesDep, token: TokenDep, lang: LanguageDep, response: Response
) -> PushSubscriptionPublic:
    """Register a browser's push subscription (player token): the player's notices reach it
    whenever the seat's page is closed. The same endpoint again replaces the earlier one."""
    subscription = notices.subscribe(
        token, body.endpoint, body.keys.p256dh, body.keys.auth, body.language or lang
    )
    response.headers["Location"] = f"/v1/players/me/push-subscriptions/{subscription.id}"
    return PushSubscriptionPublic.of(subscription)


@router.get(
    "/v1/players/me/push-subscriptions", operation_id="listPushSubscriptions", openapi_extra=problems()
)
def list_push_subscriptions(notices: NoticesDep, token: TokenDep) -> list[PushSubscriptionPublic]:
    """The player's registered browsers, oldest first."""
    return [PushSubscriptionPublic.of(s) for s in notices.subscriptions(token)]


@router.delete(
    "/v1/players/me/push-subscriptions/{subscription_id}",
    status_code=204,
    operation_id="deletePushSubscription",
    openapi_extra=problems("push_subscription_not_found"),
)
def delete_push_subscription(subscription_id: str, notices: NoticesDep, token: TokenDep) -> Response:
    """No more notices to that browser (its undelivered ones are dropped)."""
    notices.unsubscribe(token, subscription_id)
    return Response(status_code=204)


@router.put(
    "/v1/players/me/email",
    operation_id="setNoticeEmail",
    openapi_extra=problems("notices_off", "invalid_email"),
)
def set_notice_email(
    body: NoticeEmailUpdate, notices: NoticesDep, token: TokenDep, lang: LanguageDep
) -> NoticeEmailPublic:
    """The player's address for e-mail notices (on again if it was opted out); only the player
    ever reads it back. Each mail carries a link that turns them off without signing in."""
    return NoticeEmailPublic.of(notices.set_email(token, body.email, body.language or lang))


@router.get("/v1/players/me/email", operation_id="getNoticeEmail", openapi_extra=problems())
def get_notice_email(notices: NoticesDep, token: TokenDep) -> NoticeEmailPublic:
    """The player's address for e-mail notices, and whether they are on."""
    return NoticeEmailPublic.of(notices.email(token))


@router.delete(
    "/v1/players/me/email", status_code=204, operation_id="deleteNoticeEmail", openapi_extra=problems()
)
def delete_notice_email(notices: NoticesDep, token: TokenDep) -> Response:
    """Forget the address: no more e-mail notices."""
    notices.remove_email(token)
    return Response(status_code=204)
