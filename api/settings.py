"""Settings from environment variables prefixed ``TABLETOP_``, with safe defaults."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TABLETOP_", extra="ignore")

    database_url: str = Field(
        "sqlite:///./tabletop.db", description="SQLAlchemy URL; SQLite file by default."
    )
    sqlite_synchronous: str = Field(
        "FULL",
        pattern="^(FULL|NORMAL|EXTRA)$",
        description="SQLite fsync level; FULL makes every committed change survive a power loss.",
    )
    redis_url: SecretStr | None = Field(
        None, description="Redis URL for cross-instance events; in-process when unset."
    )
    auto_migrate: bool = Field(
        False, description="Migrate the database on start-up instead of refusing to start."
    )
    max_body_bytes: int = Field(64 * 1024, description="Largest accepted request body.")
    max_subscriptions_per_connection: int = Field(20, description="Per GraphQL websocket.")
    rate_limit_per_second: float = Field(50.0, description="Requests per token per second.")
    rate_limit_burst: int = Field(100, description="Requests a token may burst.")
    bot_think_seconds: float = Field(0.0, description="Pause before each bot decision.")
    log_level: str = Field("INFO", description="Log level of the JSON logs.")
