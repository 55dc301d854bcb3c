"""The schema, as SQLModel table classes. They never leave ``persistence/``: see ``mapping``.

JSON columns use the plain ``JSON`` type (``json`` on PostgreSQL, text on SQLite) rather than
``JSONB``: we never query inside them, and ``json`` keeps the engine's key order and skips the
parse on every write of the hot ``games`` row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    false,
)
from sqlmodel import Field, SQLModel

metadata: MetaData = SQLModel.metadata
"""The metadata Alembic migrations are checked against."""

GAME_ID_LENGTH = 64
PERSON_LENGTH = 96
"""``player:<id>``, ``address:<sha256>`` or ``token:<sha256>``: who a chat mute or hide names."""


def _json(nullable: bool = False) -> Any:
    return Field(sa_column=Column(JSON(none_as_null=True), nullable=nullable))


def _timestamp() -> Any:
    return Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class GameRow(SQLModel, table=True):
    """One match: its current state in a single row, so loading never replays history."""

    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_created_at", "created_at"),
        Index("ix_games_creator_status", "creator_id", "status"),
        Index("ix_games_creator_address_status", "creator_address", "status"),
    )

    id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), primary_key=True))
    game_type: str = Field(sa_column=Column(String(64), nullable=False))
    options: dict[str, Any] = _json()
    seed: str = Field(sa_column=Column(String(128), nullable=False))
    seed_commitment: str = Field(sa_column=Column(String(128), nullable=False))
    seed_salt: str | None = Field(sa_column=Column(String(64), nullable=True))
    seed_mode: str = Field(sa_column=Column(String(16), nullable=False))
    private: bool = Field(sa_column=Column(Boolean, nullable=False))
    invite_code_hash: str | None = Field(sa_column=Column(String(128), nullable=True))
    host_token_hash: str = Field(sa_column=Column(String(128), nullable=False))
    status: str = Field(sa_column=Column(String(32), nullable=False, index=True))
    seats: list[dict[str, Any]] = _json()
    bot_seats: int = Field(sa_column=Column(Integer, nullable=False))
    human_seats: int = Field(sa_column=Column(Integer, nullable=False))
    version: int = Field(sa_column=Column(Integer, nullable=False))
    decision_version: int = Field(sa_column=Column(Integer, nullable=False))
    sealed_versions: dict[str, Any] | None = _json(nullable=True)
    max_players: int = Field(sa_column=Column(Integer, nullable=False))
    awaited_seats: list[int] | None = _json(nullable=True)
    state: dict[str, Any] | None = _json(nullable=True)
    sealed: dict[str, Any] = _json()
    last_seq: int = Field(sa_column=Column(Integer, nullable=False))
    result: dict[str, Any] | None = _json(nullable=True)
    timing: dict[str, Any] | None = _json(nullable=True)
    next_deadline: datetime | None = Field(
        sa_column=Column(DateTime(timezone=True), nullable=True, index=True)
    )
    rematch_of: str | None = Field(sa_column=Column(String(GAME_ID_LENGTH), nullable=True))
    rematch_id: str | None = Field(sa_column=Column(String(GAME_ID_LENGTH), nullable=True))
    creator_id: str | None = Field(sa_column=Column(String(GAME_ID_LENGTH), nullable=True))
    """The creating player identity: only games with one are listed in the lobby."""
    creator_address: str | None = Field(sa_column=Column(String(64), nullable=True))
    """SHA-256 of the creating client's address: its open listed games are bounded."""
    clock_mode: str = Field(sa_column=Column(String(16), nullable=False, server_default="none"))
    """The clock's mode, a column so that the lobby filters by it."""
    blocked: list[str] | None = _json(nullable=True)
    """Identities the host removed and blocked (``player:<id>``, ``address:<hash>``)."""
    takebacks: dict[str, Any] | None = _json(nullable=True)
    """Take-backs allowed, the decisions that may be taken back and the open request; None: off."""
    created_at: datetime = _timestamp()
    updated_at: datetime = _timestamp()


class GameEventRow(SQLModel, table=True):
    """An append-only history entry; ``private`` maps a seat (as a string) to its secret data."""

    __tablename__ = "game_events"

    game_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH),
            ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        )
    )
    seq: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    type: str = Field(sa_column=Column(String(64), nullable=False))
    data: dict[str, Any] = _json()
    private: dict[str, Any] = _json()


class GameChoicesRow(SQLModel, table=True):
    """The choices each decision applied, in order: with the seed, they replay the game."""

    __tablename__ = "game_choices"

    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    )
    version: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    seq: int = Field(sa_column=Column(Integer, nullable=False))
    choices: dict[str, Any] = _json()
    undoes: list[int] | None = _json(nullable=True)
    """A take-back's entry (``choices`` empty): the versions of the decisions it took back."""


class PresenceRow(SQLModel, table=True):
    """One open live subscription of a seat; its instance extends ``expires_at`` while it lives."""

    __tablename__ = "presence"
    __table_args__ = (Index("ix_presence_game_expiry", "game_id", "expires_at"),)

    id: str = Field(sa_column=Column(String(32), primary_key=True))
    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    )
    seat: int = Field(sa_column=Column(Integer, nullable=False))
    instance: str = Field(sa_column=Column(String(32), nullable=False, index=True))
    expires_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class IdempotencyRow(SQLModel, table=True):
    """The first response to a retried submit, keyed by ``"<seat>:<client key>"``."""

    __tablename__ = "idempotency"

    game_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH),
            ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        )
    )
    key: str = Field(sa_column=Column(String(255), primary_key=True))
    response: dict[str, Any] = _json()
    fingerprint: str | None = Field(sa_column=Column(String(64), nullable=True))
    created_at: datetime = _timestamp()


class CreateRequestRow(SQLModel, table=True):
    """A create made with an idempotency key: the key's SHA-256 (the key itself, which tokens are
    derived from, is never stored), the body's fingerprint and the nonce of the game's tokens."""

    __tablename__ = "create_requests"

    key_hash: str = Field(sa_column=Column(String(64), primary_key=True))
    game_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH),
            ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        )
    )
    fingerprint: str = Field(sa_column=Column(String(64), nullable=False))
    response: dict[str, Any] = _json()
    created_at: datetime = _timestamp()


class PlayerRow(SQLModel, table=True):
    """An optional identity across games; only the hash of its token is stored."""

    __tablename__ = "players"

    id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), primary_key=True))
    name: str = Field(sa_column=Column(String(64), nullable=False))
    token_hash: str = Field(sa_column=Column(String(128), nullable=False, unique=True))
    created_at: datetime = _timestamp()


class PlayerSeatRow(SQLModel, table=True):
    """Which seat of which game a player holds: the index behind "my games"."""

    __tablename__ = "player_seats"
    __table_args__ = (Index("ix_player_seats_player_joined", "player_id", "joined_at"),)

    player_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
        )
    )
    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    )
    seat: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    joined_at: datetime = _timestamp()


class WebhookEndpointRow(SQLModel, table=True):
    """A player's (all its games) or a host's (one game) webhook endpoint.

    The secret is kept as given out: the sender needs it to sign every delivery."""

    __tablename__ = "webhook_endpoints"

    id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), primary_key=True))
    player_id: str | None = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("players.id", ondelete="CASCADE"), index=True)
    )
    game_id: str | None = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), index=True)
    )
    url: str = Field(sa_column=Column(String(2048), nullable=False))
    secret: str = Field(sa_column=Column(String(128), nullable=False))
    filters: list[str] = _json()
    status: str = Field(sa_column=Column(String(16), nullable=False))
    created_at: datetime = _timestamp()


class WebhookDeliveryRow(SQLModel, table=True):
    """The outbox: one message to one endpoint, written with the game change that caused it.

    ``id`` orders a game's deliveries per endpoint; ``lease_*`` keeps two senders off one row."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index("ix_webhook_deliveries_due", "status", "next_attempt_at"),
        Index("ix_webhook_deliveries_order", "endpoint_id", "game_id", "status", "id"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    message_id: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    endpoint_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH),
            ForeignKey("webhook_endpoints.id", ondelete="CASCADE"),
            nullable=False,
        )
    )
    game_id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), nullable=False))
    kind: str = Field(sa_column=Column(String(64), nullable=False))
    body: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(sa_column=Column(String(16), nullable=False))
    attempts: int = Field(sa_column=Column(Integer, nullable=False))
    next_attempt_at: datetime | None = Field(sa_column=Column(DateTime(timezone=True)))
    lease_until: datetime | None = Field(sa_column=Column(DateTime(timezone=True)))
    lease_owner: str | None = Field(sa_column=Column(String(64)))
    created_at: datetime = _timestamp()
    delivered_at: datetime | None = Field(sa_column=Column(DateTime(timezone=True)))


class WebhookAttemptRow(SQLModel, table=True):
    __tablename__ = "webhook_attempts"

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    delivery_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), nullable=False, index=True
        )
    )
    attempted_at: datetime = _timestamp()
    status_code: int | None = Field(sa_column=Column(Integer))
    error: str | None = Field(sa_column=Column(String(255)))
    duration_ms: float = Field(sa_column=Column(Float, nullable=False))


class RatingRow(SQLModel, table=True):
    """A subject's (player's or bot level's) current rating in one game type."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "game_type", "established", "display", "subject"),)

    subject: str = Field(sa_column=Column(String(80), primary_key=True))
    game_type: str = Field(sa_column=Column(String(64), primary_key=True))
    mu: float = Field(sa_column=Column(Float, nullable=False))
    sigma: float = Field(sa_column=Column(Float, nullable=False))
    display: float = Field(sa_column=Column(Float, nullable=False))
    games: int = Field(sa_column=Column(Integer, nullable=False))
    anchored: int = Field(sa_column=Column(Integer, nullable=False, server_default="0"))
    """Rated games with an established opponent at the table."""
    established: bool = Field(sa_column=Column(Boolean, nullable=False, server_default=false()))
    """Ranked above the others (``domain.model.ratings``): a bot level, or enough anchored games."""
    updated_at: datetime = _timestamp()


class RatingChangeRow(SQLModel, table=True):
    """One rated game's change of one subject: the key refuses counting a game twice."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_subject_at", "subject", "at"),)

    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    )
    subject: str = Field(sa_column=Column(String(80), primary_key=True))
    game_type: str = Field(sa_column=Column(String(64), nullable=False))
    seat: int = Field(sa_column=Column(Integer, nullable=False))
    rank: int = Field(sa_column=Column(Integer, nullable=False))
    mu_before: float = Field(sa_column=Column(Float, nullable=False))
    sigma_before: float = Field(sa_column=Column(Float, nullable=False))
    games_before: int = Field(sa_column=Column(Integer, nullable=False))
    mu: float = Field(sa_column=Column(Float, nullable=False))
    sigma: float = Field(sa_column=Column(Float, nullable=False))
    at: datetime = _timestamp()


class GameResultRow(SQLModel, table=True):
    """How a player's seat ended a finished game (profiles, finishing rate)."""

    __tablename__ = "game_results"
    __table_args__ = (Index("ix_game_results_player_at", "player_id", "at"),)

    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    )
    seat: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    player_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    )
    game_type: str = Field(sa_column=Column(String(64), nullable=False))
    rank: int = Field(sa_column=Column(Integer, nullable=False))
    outcome: str = Field(sa_column=Column(String(16), nullable=False))
    rated: bool = Field(sa_column=Column(Boolean, nullable=False))
    at: datetime = _timestamp()


class ChatEntryRow(SQLModel, table=True):
    """One line of a game's chat (``domain.model.chat``): its own gap-free sequence beside the game's."""

    __tablename__ = "chat_entries"

    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    )
    seq: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    kind: str = Field(sa_column=Column(String(16), nullable=False))
    seat: int | None = Field(sa_column=Column(Integer, nullable=True))
    target: int | None = Field(sa_column=Column(Integer, nullable=True))
    text: str | None = Field(sa_column=Column(Text, nullable=True))
    phrase: str | None = Field(sa_column=Column(String(32), nullable=True))
    created_at: datetime = _timestamp()


class ChatMuteRow(SQLModel, table=True):
    """A person the host muted in a game's chat (``domain.model.chat.person``: ``player:<id>``,
    ``address:<hash>`` or ``token:<hash>``), whatever seat it holds."""

    __tablename__ = "chat_mutes"

    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    )
    person: str = Field(sa_column=Column(String(PERSON_LENGTH), primary_key=True))


class ChatHideRow(SQLModel, table=True):
    """A person (``hider``) who hides another person's chat messages for itself."""

    __tablename__ = "chat_hides"

    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    )
    hider: str = Field(sa_column=Column(String(PERSON_LENGTH), primary_key=True))
    target: str = Field(sa_column=Column(String(PERSON_LENGTH), primary_key=True))


class TournamentRow(SQLModel, table=True):
    """A tournament (``domain.tournaments.tournament``): what is queried as columns, the rest
    (settings, entrants, byes, round counters) as one document; ``version`` guards every write."""

    __tablename__ = "tournaments"
    __table_args__ = (
        Index("ix_tournaments_next_action_at", "next_action_at"),
        Index("ix_tournaments_listed", "private", "status", "created_at"),
    )

    id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), primary_key=True))
    version: int = Field(sa_column=Column(Integer, nullable=False))
    status: str = Field(sa_column=Column(String(16), nullable=False))
    game_type: str = Field(sa_column=Column(String(64), nullable=False))
    private: bool = Field(sa_column=Column(Boolean, nullable=False))
    starts_at: datetime | None = Field(sa_column=Column(DateTime(timezone=True), nullable=True))
    next_action_at: datetime | None = Field(sa_column=Column(DateTime(timezone=True), nullable=True))
    """When the runner has something to do: the start time while registering, the next round's
    time once a round is over; NULL otherwise."""
    created_at: datetime = _timestamp()
    host_token_hash: str = Field(sa_column=Column(String(128), nullable=False))
    document: dict[str, Any] = _json()


class TournamentTableRow(SQLModel, table=True):
    """One game of a round: the key (tournament, round, number) and the unique game make a
    round's creation happen once, whoever tries it twice; ``ranks`` is set once, at the end."""

    __tablename__ = "tournament_tables"
    __table_args__ = (Index("ux_tournament_tables_game", "game_id", unique=True),)

    tournament_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
        )
    )
    round: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    number: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    game_id: str = Field(
        sa_column=Column(String(GAME_ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    )
    players: list[str] = _json()
    ranks: list[int] | None = _json(nullable=True)


class TournamentEventRow(SQLModel, table=True):
    """An event a tournament recorded: ``seq`` is the aggregate's version after it, so a
    tournament's stream resumes from here with no gap and nothing twice."""

    __tablename__ = "tournament_events"

    tournament_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
        )
    )
    seq: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    type: str = Field(sa_column=Column(String(64), nullable=False))
    data: dict[str, Any] = _json()
    created_at: datetime = _timestamp()


class TournamentCreateRequestRow(SQLModel, table=True):
    """A tournament created with an idempotency key, as ``create_requests`` for games."""

    __tablename__ = "tournament_create_requests"

    key_hash: str = Field(sa_column=Column(String(64), primary_key=True))
    tournament_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH), ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False
        )
    )
    fingerprint: str = Field(sa_column=Column(String(64), nullable=False))
    response: dict[str, Any] = _json()
    created_at: datetime = _timestamp()


games = GameRow.__table__  # type: ignore[attr-defined]
game_events = GameEventRow.__table__  # type: ignore[attr-defined]
idempotency = IdempotencyRow.__table__  # type: ignore[attr-defined]
create_requests = CreateRequestRow.__table__  # type: ignore[attr-defined]
players = PlayerRow.__table__  # type: ignore[attr-defined]
player_seats = PlayerSeatRow.__table__  # type: ignore[attr-defined]
webhook_endpoints = WebhookEndpointRow.__table__  # type: ignore[attr-defined]
webhook_deliveries = WebhookDeliveryRow.__table__  # type: ignore[attr-defined]
webhook_attempts = WebhookAttemptRow.__table__  # type: ignore[attr-defined]
game_choices = GameChoicesRow.__table__  # type: ignore[attr-defined]
presence = PresenceRow.__table__  # type: ignore[attr-defined]

ratings = RatingRow.__table__  # type: ignore[attr-defined]
rating_changes = RatingChangeRow.__table__  # type: ignore[attr-defined]
game_results = GameResultRow.__table__  # type: ignore[attr-defined]
chat_entries = ChatEntryRow.__table__  # type: ignore[attr-defined]
chat_mutes = ChatMuteRow.__table__  # type: ignore[attr-defined]
chat_hides = ChatHideRow.__table__  # type: ignore[attr-defined]
tournaments = TournamentRow.__table__  # type: ignore[attr-defined]
tournament_tables = TournamentTableRow.__table__  # type: ignore[attr-defined]
tournament_events = TournamentEventRow.__table__  # type: ignore[attr-defined]
tournament_create_requests = TournamentCreateRequestRow.__table__  # type: ignore[attr-defined]


class PushSubscriptionRow(SQLModel, table=True):
    """A player's browser that receives push notices (``domain.model.notices``)."""

    __tablename__ = "push_subscriptions"

    id: str = Field(sa_column=Column(String(32), primary_key=True))
    player_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH), ForeignKey("players.id", ondelete="CASCADE"), nullable=False, index=True
        )
    )
    endpoint: str = Field(sa_column=Column(String(2048), nullable=False, unique=True))
    p256dh: str = Field(sa_column=Column(String(128), nullable=False))
    auth: str = Field(sa_column=Column(String(64), nullable=False))
    language: str = Field(sa_column=Column(String(8), nullable=False))
    created_at: datetime = _timestamp()


class NoticeEmailRow(SQLModel, table=True):
    """A player's address for e-mail notices; read only by that player and the sender."""

    __tablename__ = "notice_emails"

    player_id: str = Field(
        sa_column=Column(
            String(GAME_ID_LENGTH), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
        )
    )
    email: str = Field(sa_column=Column(String(254), nullable=False))
    language: str = Field(sa_column=Column(String(8), nullable=False))
    enabled: bool = Field(sa_column=Column(Boolean, nullable=False))
    opt_out_key: str = Field(sa_column=Column(String(64), nullable=False))
    created_at: datetime = _timestamp()


class NoticeDeliveryRow(SQLModel, table=True):
    """The notices' outbox: one notice to one target (a push subscription, or the player's
    address), written with the change that caused it; ``lease_*`` keeps two senders off one row."""

    __tablename__ = "notice_deliveries"
    __table_args__ = (Index("ix_notice_deliveries_due", "status", "next_attempt_at"),)

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    channel: str = Field(sa_column=Column(String(8), nullable=False))
    target_id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), nullable=False, index=True))
    player_id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), nullable=False))
    kind: str = Field(sa_column=Column(String(32), nullable=False))
    game_id: str = Field(sa_column=Column(String(GAME_ID_LENGTH), nullable=False))
    seat: int = Field(sa_column=Column(Integer, nullable=False))
    language: str = Field(sa_column=Column(String(8), nullable=False))
    body: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(sa_column=Column(String(16), nullable=False))
    attempts: int = Field(sa_column=Column(Integer, nullable=False))
    next_attempt_at: datetime | None = Field(sa_column=Column(DateTime(timezone=True)))
    lease_until: datetime | None = Field(sa_column=Column(DateTime(timezone=True)))
    lease_owner: str | None = Field(sa_column=Column(String(64)))
    last_error: str | None = Field(sa_column=Column(String(255)))
    created_at: datetime = _timestamp()
    sent_at: datetime | None = Field(sa_column=Column(DateTime(timezone=True)))


push_subscriptions = PushSubscriptionRow.__table__  # type: ignore[attr-defined]
notice_emails = NoticeEmailRow.__table__  # type: ignore[attr-defined]
notice_deliveries = NoticeDeliveryRow.__table__  # type: ignore[attr-defined]
