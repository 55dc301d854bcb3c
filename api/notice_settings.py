"""Settings of the notices that reach a closed page (Web Push and e-mail), from ``TABLETOP_``
variables; both channels are off until configured. ``api.settings.Settings`` has them all."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class NoticeSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TABLETOP_", extra="ignore")

    public_url: str | None = Field(
        None,
        description="The service's address as people reach it (https://games.example.org): the "
        "links in e-mail notices (the game, the opt-out) start with it. E-mail notices need it.",
    )
    vapid_private_key: SecretStr | None = Field(
        None,
        description="The VAPID private key (P-256) that signs Web Push requests: base64url of its "
        "32 raw bytes, or of its DER; `python -m api vapid-keys` makes a pair. Push notices are "
        "off until it and TABLETOP_VAPID_SUBJECT are set; the public key is derived from it.",
    )
    vapid_subject: str | None = Field(
        None,
        description="Who push services may contact about this server's messages: a mailto: or "
        "https: URL (RFC 8292).",
    )
    push_ttl_seconds: int = Field(
        86400, ge=0, description="How long a push service keeps a notice for a device that is offline."
    )
    push_allow_private_targets: bool = Field(
        False,
        description="Allow push endpoints on loopback, private and other non-public addresses "
        "(local development and tests only).",
    )
    smtp_host: str | None = Field(
        None, description="The SMTP server of e-mail notices; e-mail notices are off until it is set."
    )
    smtp_port: int = Field(587, ge=1, le=65535, description="Its port.")
    smtp_tls: Literal["starttls", "tls", "none"] = Field(
        "starttls",
        description="starttls: upgrade a plain connection (port 587); tls: TLS from the start "
        "(port 465); none: no encryption (a local relay only).",
    )
    smtp_username: str | None = Field(None, description="SMTP login, if the server wants one.")
    smtp_password: SecretStr | None = Field(None, description="Its password.")
    smtp_from: str = Field("Tabletop <tabletop@localhost>", description="The From: of e-mail notices.")
    smtp_timeout_seconds: float = Field(10.0, gt=0, description="Deadline of one SMTP conversation.")
    notice_retry_base_seconds: float = Field(5.0, gt=0, description="First retry delay of a notice.")
    notice_retry_max_seconds: float = Field(1800.0, gt=0, description="Longest retry delay of a notice.")
    notice_give_up_seconds: float = Field(
        21600.0, gt=0, description="Retry a notice this long, then give it up (it is stale by then)."
    )
    notice_poll_seconds: float = Field(0.5, gt=0, description="Idle notice sender polling interval.")

    def notice_channels(self) -> frozenset[str]:
        """The channels configured: ``push`` (VAPID key and subject), ``email`` (SMTP host and
        the public URL its links need)."""
        channels = set()
        if self.vapid_private_key is not None and self.vapid_subject:
            channels.add("push")
        if self.smtp_host and self.public_url:
            channels.add("email")
        return frozenset(channels)
