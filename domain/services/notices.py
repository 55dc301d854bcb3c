"""Notices for a closed page: players register their browsers' push subscriptions and an e-mail
address; each change writes the notices it causes in its own transaction (``enqueue_notices``),
and an adapter sends them (``persistence.outbound.notice_sender``).

A notice goes to a seat's player only when that seat has no open page at that moment (an open
page tells the person itself: title, favicon, a notification while hidden)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import uuid
from collections.abc import Callable
from urllib.parse import urlsplit

from domain.errors import (
    InvalidEmail,
    InvalidPushSubscription,
    NoticesOff,
    PushSubscriptionNotFound,
    WebhookTargetRefused,
)
from domain.model.notice_texts import language_of
from domain.model.notices import (
    MAX_ENDPOINT_LENGTH,
    MAX_SUBSCRIPTIONS_PER_PLAYER,
    EmailContact,
    PushSubscription,
    valid_email,
)
from domain.model.players import Player
from domain.services.core import ServiceCore

TargetCheck = Callable[[str], None]
"""Raises for a push endpoint the server must not call (``domain.errors.WebhookTargetRefused``)."""


def _b64url(value: str, size: int) -> bool:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == size


def opt_out_signature(contact: EmailContact) -> str:
    """The signature of the opt-out link of this address (HMAC-SHA256 under its own key)."""
    message = f"email-opt-out:{contact.player_id}:{contact.email}".encode()
    digest = hmac.new(contact.opt_out_key.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode().rstrip("=")


def opt_out_token(contact: EmailContact) -> str:
    """The token of the opt-out link: the player's id and the signature (no sign-in needed)."""
    return f"{contact.player_id}.{opt_out_signature(contact)}"


class NoticeService:
    """Push subscriptions and the e-mail address of a player, and the e-mail opt-out."""

    def __init__(
        self,
        core: ServiceCore,
        authenticate: Callable[[str | None], Player],
        channels: frozenset[str],
        check_endpoint: TargetCheck,
    ) -> None:
        self.core = core
        self.authenticate = authenticate
        self.channels = channels
        """The channels this server sends on: ``push`` once VAPID keys are set, ``email`` once an
        SMTP server is."""
        self.check_endpoint = check_endpoint

    def _require(self, channel: str) -> None:
        if channel not in self.channels:
            raise NoticesOff(
                "this server sends no {what} notices: its operator has not configured them",
                what="push" if channel == "push" else "e-mail",
            )

    # -- push --------------------------------------------------------------------------------------

    def subscribe(
        self, token: str | None, endpoint: str, p256dh: str, auth: str, language: str
    ) -> PushSubscription:
        """Register a browser's push subscription for the player's notices; the same endpoint
        registered again replaces the earlier one (its keys may have changed)."""
        player = self.authenticate(token)
        self._require("push")
        parts = urlsplit(endpoint)
        if len(endpoint) > MAX_ENDPOINT_LENGTH or parts.scheme not in ("https", "http") or not parts.hostname:
            raise InvalidPushSubscription(
                "{field} must be the absolute URL of a push service (at most {max_characters} characters)",
                field="endpoint",
                max_characters=MAX_ENDPOINT_LENGTH,
            )
        if not _b64url(p256dh, 65) or not p256dh.startswith("B"):
            raise InvalidPushSubscription(
                "{field} must be an uncompressed P-256 public key (65 bytes, base64url)", field="keys.p256dh"
            )
        if not _b64url(auth, 16):
            raise InvalidPushSubscription("{field} must be 16 bytes in base64url", field="keys.auth")
        try:
            self.check_endpoint(endpoint)
        except WebhookTargetRefused:
            raise InvalidPushSubscription(
                "{field} must be a push service on a public address", field="endpoint"
            ) from None
        subscription = PushSubscription(
            id=uuid.uuid4().hex,
            player_id=player.id,
            endpoint=endpoint,
            p256dh=p256dh,
            auth=auth,
            language=language_of(language),
            created_at=self.core.clock.now(),
        )
        with self.core.uow() as uow:
            uow.notices.add_subscription(subscription)
            kept = uow.notices.subscriptions_of(player.id)
            for old in kept[: max(0, len(kept) - MAX_SUBSCRIPTIONS_PER_PLAYER)]:
                uow.notices.remove_subscription(old.id)
            uow.commit()
        return subscription

    def subscriptions(self, token: str | None) -> list[PushSubscription]:
        player = self.authenticate(token)
        with self.core.uow() as uow:
            return uow.notices.subscriptions_of(player.id)

    def unsubscribe(self, token: str | None, subscription_id: str) -> None:
        player = self.authenticate(token)
        with self.core.uow() as uow:
            if not any(s.id == subscription_id for s in uow.notices.subscriptions_of(player.id)):
                raise PushSubscriptionNotFound(
                    "this player has no push subscription {endpoint!q}", endpoint=subscription_id
                )
            uow.notices.remove_subscription(subscription_id)
            uow.commit()

    # -- e-mail ------------------------------------------------------------------------------------

    def set_email(self, token: str | None, email: str, language: str) -> EmailContact:
        """The player's address for notices (e-mail notices on); a new address gets new opt-out
        links."""
        player = self.authenticate(token)
        self._require("email")
        address = email.strip()
        if not valid_email(address):
            raise InvalidEmail("{field} is not an e-mail address a mail server takes", field="email")
        contact = EmailContact(
            player_id=player.id,
            email=address,
            language=language_of(language),
            enabled=True,
            opt_out_key=secrets.token_urlsafe(32),
            created_at=self.core.clock.now(),
        )
        with self.core.uow() as uow:
            uow.notices.set_email(contact)
            uow.commit()
        return contact

    def email(self, token: str | None) -> EmailContact | None:
        player = self.authenticate(token)
        with self.core.uow() as uow:
            return uow.notices.email_of(player.id)

    def remove_email(self, token: str | None) -> None:
        player = self.authenticate(token)
        with self.core.uow() as uow:
            uow.notices.remove_email(player.id)
            uow.commit()

    def opt_out_contact(self, token: str) -> EmailContact | None:
        """The address an opt-out link names, or None for a link that is not (or no longer) valid."""
        player_id, _, signature = token.partition(".")
        if not player_id or not signature or len(token) > 200:
            return None
        with self.core.uow() as uow:
            contact = uow.notices.email_of(player_id)
        if contact is None or not hmac.compare_digest(opt_out_signature(contact), signature):
            return None
        return contact

    def opt_out(self, token: str) -> EmailContact | None:
        """Follow an opt-out link: the address gets no more notices (until its player sets one
        again). None for a link that is not valid."""
        contact = self.opt_out_contact(token)
        if contact is None:
            return None
        with self.core.uow() as uow:
            uow.notices.set_email_enabled(contact.player_id, False)
            uow.commit()
        return contact
