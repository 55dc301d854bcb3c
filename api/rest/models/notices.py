"""Notices for a closed page: the channels a server sends on, push subscriptions, the e-mail address."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from domain.i18n import LANGUAGES
from domain.model.notices import MAX_EMAIL_LENGTH, MAX_ENDPOINT_LENGTH, EmailContact, PushSubscription

LANGUAGE_FIELD = Field(
    None,
    description=f"The language of the notices: one of {', '.join(LANGUAGES)}; absent: the "
    "request's language (?lang=, else Accept-Language).",
    json_schema_extra={"enum": list(LANGUAGES)},
)


class NoticeChannelsPublic(BaseModel):
    push: bool = Field(description="Web Push notices are sent (the server has VAPID keys).")
    email: bool = Field(description="E-mail notices are sent (the server has an SMTP server).")
    vapid_public_key: str | None = Field(
        description="The application server key to subscribe with (pushManager.subscribe's "
        "applicationServerKey): the uncompressed P-256 point, base64url; null while push is off."
    )
    kinds: list[str] = Field(
        description="What notices say: your_turn, game_over, rematch_offered, tournament_round."
    )


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")

    p256dh: str = Field(max_length=128, description="The browser's P-256 public key, base64url.")
    auth: str = Field(max_length=64, description="The browser's 16-byte authentication secret, base64url.")


class PushSubscriptionCreate(BaseModel):
    """A browser's subscription (``endpoint``, ``keys`` of ``PushSubscription.toJSON()``), a language."""

    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(
        max_length=MAX_ENDPOINT_LENGTH, description="The push service's URL for this browser."
    )
    keys: PushKeys
    language: str | None = LANGUAGE_FIELD


class PushSubscriptionPublic(BaseModel):
    id: str
    endpoint: str
    language: str
    created_at: datetime

    @classmethod
    def of(cls, subscription: PushSubscription) -> PushSubscriptionPublic:
        return cls(
            id=subscription.id,
            endpoint=subscription.endpoint,
            language=subscription.language,
            created_at=subscription.created_at,
        )


class NoticeEmailUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: str = Field(
        max_length=MAX_EMAIL_LENGTH, description="Where e-mail notices go; shown to nobody else."
    )
    language: str | None = LANGUAGE_FIELD


class NoticeEmailPublic(BaseModel):
    email: str | None = Field(description="The player's address; null when none is set.")
    language: str | None
    enabled: bool = Field(
        description="False once the address's opt-out link was followed (set it again to resume)."
    )

    @classmethod
    def of(cls, contact: EmailContact | None) -> NoticeEmailPublic:
        if contact is None:
            return cls(email=None, language=None, enabled=False)
        return cls(email=contact.email, language=contact.language, enabled=contact.enabled)
