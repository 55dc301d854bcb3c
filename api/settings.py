"""Settings from environment variables prefixed ``TABLETOP_``, with safe defaults."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import SettingsConfigDict

from api.notice_settings import NoticeSettings


class Settings(NoticeSettings):
    model_config = SettingsConfigDict(env_prefix="TABLETOP_", extra="ignore")

    database_url: str = Field(
        "sqlite:///./tabletop.db", description="SQLAlchemy URL; SQLite file by default."
    )
    sqlite_synchronous: str = Field(
        "FULL",
        pattern="^(FULL|NORMAL|EXTRA)$",
        description="SQLite fsync level; FULL makes every committed change survive a power loss.",
    )
    db_pool_size: int = Field(
        20,
        ge=1,
        description="Database connections each instance keeps open, all its worker processes "
        "together (each keeps its share, at least 1).",
    )
    db_max_overflow: int = Field(
        20,
        ge=0,
        description="More connections an instance opens while every pooled one is busy, closed "
        "after use; shared between its worker processes like the pool.",
    )
    worker_processes: int = Field(
        1,
        ge=1,
        description="Worker processes of this instance; set by `python -m api serve --workers N` "
        "for its workers, not by hand (each then sizes its share of the database pool).",
    )
    db_connect_timeout_seconds: float = Field(
        3.0,
        gt=0,
        description="Time to open a database connection, or to wait for a pooled one while all "
        "are busy; beyond it the request is answered 503 database_unavailable.",
    )
    db_statement_timeout_seconds: float = Field(
        5.0,
        gt=0,
        description="Time one PostgreSQL statement may take: the server cancels it, and one whose "
        "answer never comes (a network cut) has its connection cut; answered 503 database_unavailable.",
    )
    db_startup_wait_seconds: float = Field(
        60.0,
        ge=0,
        description="At start-up, wait this long for a database that refuses connections (not yet "
        "up, too many clients), retrying, before giving up.",
    )
    hot_states: int = Field(
        500,
        ge=0,
        description="Games whose last committed engine state is kept in memory so a load skips "
        "rebuilding it (games whose engine can copy a state: Carcassonne); 0 turns it off.",
    )
    group_commit_writers: int | None = Field(
        None,
        ge=1,
        le=32,
        description="Writer threads of the group commit per process (submits and bot turns that "
        "arrive together are written in one transaction, each answered after that commit); games "
        "are spread over them by id. Default: 1 on SQLite (one write lock per file), 4 on "
        "PostgreSQL (one writer mostly waits for the server's answers).",
    )
    gc_young_threshold: int = Field(
        50_000,
        ge=0,
        description="Once started, the heap is frozen (gc.freeze) and the youngest generation "
        "collected after this many allocations (Python's default: 700); 0 leaves the collector "
        "as Python sets it.",
    )
    redis_url: SecretStr | None = Field(
        None, description="Redis URL for cross-instance events; in-process when unset."
    )
    instance_url: str | None = Field(
        None,
        pattern=r"^https?://[^/?#\s]+$",
        description="This instance's own address as the other instances reach it (`http://host:port`). "
        "With Redis, it turns on game ownership between instances: a lease per game in Redis names "
        "the instance that serves its submits, and a submit reaching another instance is forwarded there.",
    )
    owner_lease_seconds: float = Field(
        10.0,
        gt=0,
        description="How long a game's ownership lease lasts without renewal (its owner renews it "
        "every third of it): a dead instance's games move to another within this time.",
    )
    event_hub: str | None = Field(
        None,
        description="Unix socket of the event hub between worker processes without Redis; set by "
        "`python -m api serve --workers N` for its workers, not by hand.",
    )
    limit_hub: str | None = Field(
        None,
        description="Unix socket of the limit hub that counts rate budgets and open websockets for "
        "all the worker processes; set by `python -m api serve --workers N` for its workers, not by hand.",
    )
    auto_migrate: bool = Field(
        False, description="Migrate the database on start-up instead of refusing to start."
    )
    max_body_bytes: int = Field(
        64 * 1024, ge=256, description="Largest accepted request body and websocket message."
    )
    max_subscriptions_per_connection: int = Field(20, ge=1, description="Per GraphQL websocket.")
    stream_heartbeat_seconds: float = Field(
        15.0,
        gt=0,
        description="Period of the comment lines an idle SSE stream (`/v1/games/{id}/stream`) sends, "
        "so proxies and mobile networks keep it open and a closed client is noticed.",
    )
    stream_send_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="Longest an SSE stream may wait for its client to take what was sent (its "
        "send buffer full); then the server closes the stream, so a reader that does not read "
        "costs only itself. An EventSource reconnects with Last-Event-ID and loses nothing.",
    )
    rate_limit_enabled: bool = Field(
        True, description="Apply the rate limit (off only when something in front does it)."
    )
    rate_limit_per_second: float = Field(
        50.0, gt=0, description="Requests (and websocket messages) per token per second."
    )
    rate_limit_burst: int = Field(100, ge=1, description="Requests a token may burst.")
    rate_limit_prefix: str = Field(
        "tabletop",
        max_length=64,
        description="Prefix of the rate-limit keys in Redis (deployments sharing one Redis differ).",
    )
    redis_channel_prefix: str = Field(
        "tabletop:game:",
        min_length=1,
        max_length=64,
        description="Prefix of the live-event channels in Redis. Redis pub/sub ignores the db "
        "number, so deployments sharing one Redis need different prefixes (else each receives "
        "and discards the other's events).",
    )
    trusted_proxies: str = Field(
        "",
        description="Comma-separated addresses or networks (CIDR) of the load balancers whose "
        "X-Forwarded-For is believed; nobody's by default.",
    )
    max_websockets_per_client: int = Field(
        10,
        ge=1,
        description="Open websockets and SSE streams per client address, all worker processes together.",
    )
    max_websockets: int = Field(
        1000,
        ge=1,
        description="Open websockets and SSE streams per server (all its worker processes together).",
    )
    max_chat_entries: int = Field(
        5000, ge=1, description="Entries one game's chat stores at most; then posts answer chat_full."
    )
    websocket_compression: bool = Field(
        False, description="Offer per-message deflate on websockets (CPU for bandwidth; off)."
    )
    graphql_max_depth: int = Field(10, ge=2, description="Deepest selection in a GraphQL operation.")
    graphql_max_aliases: int = Field(15, ge=0, description="Aliases in a GraphQL document.")
    graphql_max_tokens: int = Field(2000, ge=100, description="Lexical tokens in a GraphQL document.")
    graphql_max_cost: int = Field(
        10_000, ge=10, description="Fields a GraphQL operation may resolve, list sizes multiplied in."
    )
    graphql_deadline_seconds: float = Field(
        10.0,
        gt=0,
        description="Wall-clock time one GraphQL document may take: parsing, validation and a "
        "query's execution (a mutation is never cut once it executes); beyond it the operation "
        "is stopped with graphql_deadline_exceeded.",
    )
    header_timeout_seconds: float = Field(
        10.0, gt=0, description="Time a client has to send the request line and headers."
    )
    body_timeout_seconds: float = Field(10.0, gt=0, description="Time a client has to send the body.")
    bot_think_seconds: float = Field(0.0, description="Pause before each bot decision.")
    bot_budget_seconds: float | None = Field(
        1.0,
        gt=0,
        description="Wall-clock time a strong bot may search per decision (at most a quarter of "
        "what is left on its seat's running clock); null: its iterations alone bound it, so its "
        "picks replay exactly from the revealed seed and salt.",
    )
    bot_max_iterations: int = Field(
        20_000, ge=1, description="Search iterations a strong bot may run per decision."
    )
    bot_processes: int = Field(
        1,
        ge=1,
        description="Worker processes this server process keeps for the bots' search (greedy and "
        "strong): the thinking runs there, off the event loop and the commits.",
    )
    bot_niceness: int = Field(
        19,
        ge=0,
        le=19,
        description="Scheduling niceness of the bots' worker processes (each in a session of its "
        "own): 19, the lowest priority, lets every person's request have the cores first on a busy "
        "machine; lower it where a seat the server plays for a person must not wait on others' load.",
    )
    max_bot_only_games: int | None = Field(
        50,
        ge=0,
        description="In-progress games of bots only (no person), across instances; starting one "
        "more answers 429 too_many_bot_only_games. Unset (null): unbounded.",
    )
    max_open_listed_games_per_player: int | None = Field(
        3,
        ge=0,
        description="Listed lobbies (not yet started or aborted) one player identity may hold; "
        "creating one more answers 429 too_many_listed_games. Unset (null): unbounded.",
    )
    max_open_listed_games_per_address: int | None = Field(
        10,
        ge=0,
        description="Listed lobbies created from one client address (any players) that are not "
        "yet started or aborted; one more answers 429 too_many_listed_games. Unset: unbounded.",
    )
    log_level: str = Field("INFO", description="Log level of the JSON logs.")
    cors_origins: str | None = Field(
        None,
        description="Browser origins allowed to call the API (CORS) and to open the GraphQL "
        "websocket: comma-separated (https://app.example), or * for any. Unset: pages on "
        "localhost with the embedded SQLite database, none with any other database.",
    )
    lobby_expiry_seconds: float = Field(
        86400.0,
        ge=0,
        description="A lobby not started this long after creation is aborted (reason "
        "lobby_expired); 0: lobbies never expire.",
    )
    inactivity_days: float = Field(
        7.0,
        ge=0,
        le=365,
        description="A game without a clock hands a seat silent this many days to the stand-in "
        "bot until it acts again (0: never). Fixed for each game when it is created; shown in "
        "the game view as clock.inactivity_days.",
    )
    clock_lapses_before_stand_in: int = Field(
        3,
        ge=1,
        description="With a clock's on_expiry bot, a lapse hands the stand-in only the lapsed "
        "decision; this many lapses in a row hand it the seat until the player acts again.",
    )
    deadline_poll_seconds: float = Field(
        0.5, gt=0, description="How often each instance looks for due deadlines."
    )
    tournament_poll_seconds: float = Field(
        1.0,
        gt=0,
        description="How often each instance looks for tournaments to start and rounds to pair "
        "(a round game's end on this instance rings it at once).",
    )
    presence_ttl_seconds: float = Field(
        30.0,
        gt=0,
        description="A seat's open subscription counts as connected this long after its "
        "instance last said so (each instance renews its own every third of it): the presence "
        "of a crashed instance's subscribers ends within this time.",
    )
    webhook_allow_private_targets: bool = Field(
        False,
        description="Allow webhook URLs on loopback, private, link-local and other non-public "
        "addresses (local development and tests only).",
    )
    webhook_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="Wall-clock deadline of one webhook attempt (check, connect, send, status, body); "
        "an attempt still running then is cut and counts as failed.",
    )
    webhook_sender_concurrency: int = Field(
        8, ge=1, le=256, description="Webhook attempts in flight at once per instance."
    )
    webhook_max_in_flight_per_endpoint: int = Field(
        2, ge=1, description="Of those, at most this many to one endpoint (a slow one cannot take them all)."
    )
    webhook_max_response_bytes: int = Field(
        65536, gt=0, description="At most this much of a webhook response is read."
    )
    webhook_retry_base_seconds: float = Field(5.0, gt=0, description="First retry delay.")
    webhook_retry_max_seconds: float = Field(3600.0, gt=0, description="Longest retry delay.")
    webhook_give_up_seconds: float = Field(
        86400.0, gt=0, description="Retry this long, then mark the endpoint failing."
    )
    webhook_poll_seconds: float = Field(0.5, gt=0, description="Idle sender polling interval.")
