"""The notice sender of this instance, built from the settings (none when no channel is set)."""

from __future__ import annotations

from datetime import timedelta

from api.notice_settings import NoticeSettings
from domain.errors import UnknownGameType
from domain.ports.unit_of_work import UnitOfWorkFactory
from domain.registry import EngineRegistry
from domain.services.webhooks import RetryPolicy
from persistence.outbound.notice_sender import MailChannel, NoticeSender, PushChannel
from persistence.outbound.webhook_sender import TargetGuard

NOTICE_TIMEOUT_SECONDS = 10.0
"""Deadline of one push request (an SMTP conversation has its own setting)."""


class GameNames:
    """A game type's name in a language, from its catalog (its one name for a game without one)."""

    def __init__(self, registry: EngineRegistry) -> None:
        self.registry = registry

    def __call__(self, game_type: str, language: str) -> str:
        catalog = self.registry.catalog(game_type)
        named = catalog.texts(language).get("game.name") if catalog is not None else None
        if named:
            return named
        try:
            return self.registry.get(game_type).meta.name
        except UnknownGameType:
            return game_type


def build_notice_sender(
    settings: NoticeSettings, uow: UnitOfWorkFactory, registry: EngineRegistry
) -> NoticeSender | None:
    channels = settings.notice_channels()
    if not channels:
        return None
    push = None
    if "push" in channels:
        assert settings.vapid_private_key is not None and settings.vapid_subject
        push = PushChannel(
            settings.vapid_private_key.get_secret_value(),
            settings.vapid_subject,
            settings.push_ttl_seconds,
            TargetGuard(settings.push_allow_private_targets),
            NOTICE_TIMEOUT_SECONDS,
        )
    mail = None
    if "email" in channels:
        assert settings.smtp_host is not None
        mail = MailChannel(
            settings.smtp_host,
            settings.smtp_port,
            settings.smtp_tls,
            settings.smtp_username,
            settings.smtp_password.get_secret_value() if settings.smtp_password else None,
            settings.smtp_from,
            settings.smtp_timeout_seconds,
        )
    return NoticeSender(
        uow,
        RetryPolicy(
            settings.notice_retry_base_seconds,
            settings.notice_retry_max_seconds,
            timedelta(seconds=settings.notice_give_up_seconds),
        ),
        GameNames(registry),
        settings.public_url,
        push,
        mail,
        settings.notice_poll_seconds,
        max(NOTICE_TIMEOUT_SECONDS, settings.smtp_timeout_seconds),
    )
