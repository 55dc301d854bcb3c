"""Request and response schemas of the REST API (separate from domain objects and tables)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from api.game_schemas import refs as game_schema_refs
from api.validation import INT32_MAX, MAX_SEED_LENGTH, Text, check_json_depth
from domain.catalog import all_catalogs, bot_levels, describe, prompt_text
from domain.engine import Decision, GameEngine
from domain.i18n import DEFAULT_LANGUAGE
from domain.lobby import GamePage, GameSummary
from domain.match import Match
from domain.players import PlayerGame
from domain.presence import PresenceService
from domain.replay import Replayed
from domain.services import Created, GameService, Viewer, describe_decision
from domain.webhook_model import Attempt, Delivery, Endpoint


class FieldProblem(BaseModel):
    loc: list[str] = Field(description="Where: `body`, `query`, `header` or `path`, then the field.")
    msg: str


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str
    title: str
    status: int
    code: str = Field(description="Stable machine-readable error code (see the README's table).")
    detail: str
    errors: list[FieldProblem] | None = Field(
        None, description="`invalid_request` (422) from request validation: one entry per field."
    )


class OptionPublic(BaseModel):
    name: str
    label: str = Field(description="A short name for people, in the answer's language.")
    type: Literal["bool", "enum", "int"]
    default: Any
    allowed: list[Any] | None = Field(description="Allowed values; null when any value of the type is.")
    description: str
    verified: bool = Field(description="False when the rule behind the option is reconstructed.")


class PlayerLimitPublic(BaseModel):
    option: str
    value: Any
    max_players: int


class GameTypePublic(BaseModel):
    slug: str
    name: str
    description: str
    min_players: int
    max_players: int
    options: list[OptionPublic]
    player_limits: list[PlayerLimitPublic]

    @classmethod
    def of(cls, engine: GameEngine[Any], lang: str = DEFAULT_LANGUAGE) -> GameTypePublic:
        meta = engine.meta
        catalog = all_catalogs().get(meta.slug)
        texts = describe(catalog, meta, lang) if catalog is not None else None
        option_texts: dict[str, str] = texts["options"] if texts else {}
        option_labels: dict[str, str] = texts["option_labels"] if texts else {}
        return cls(
            slug=meta.slug,
            name=texts["name"] if texts else meta.name,
            description=texts["description"] if texts else meta.description,
            min_players=meta.min_players,
            max_players=meta.max_players,
            options=[
                OptionPublic(
                    name=o.name,
                    label=option_labels.get(o.name, o.name),
                    type=o.kind,
                    default=o.default,
                    allowed=list(o.allowed) or None,
                    description=option_texts.get(o.name, o.description),
                    verified=o.verified,
                )
                for o in meta.options
            ],
            player_limits=[
                PlayerLimitPublic(option=p.option, value=p.value, max_players=p.max_players)
                for p in meta.player_limits
            ],
        )


class BotLevelPublic(BaseModel):
    level: str = Field(description="What to send as `bot` when seating a bot.")
    name: str
    description: str


class GameTypeDetail(GameTypePublic):
    """A game type with everything printed on its components, in one language."""

    language: str = Field(description="The language of every text here (also in Content-Language).")
    bot_levels: list[BotLevelPublic] = Field(
        description="The bots a host can seat (`{\"bot\": level}`), weakest first."
    )
    prompts: dict[str, str] = Field(
        description="The prompt of each decision kind (`decision.kind` in games and choices)."
    )
    log_templates: dict[str, str] = Field(
        description="A log-line template per event type; `{field}` stands for a field of the "
        "event's `data` (ids and numbers: name them with `data`)."
    )
    data: dict[str, Any] | None = Field(
        description="The game's static data: every card, building, tile and board element with "
        "the ids views, choices and events use (schema: `schemas.StaticData`). Values marked "
        "`verified: false` are reconstructed: `unverified` names the fields not taken from the "
        "printed game."
    )
    schemas: dict[str, str] = Field(
        description="Where this game's JSON Schemas are in /openapi.json: `View` (a game's "
        "`state`), `Decision` (by kind), `Choices` (by decision kind), `Choice`, `Event` (by "
        "type), `EventType` (every event type), `StaticData`."
    )

    @classmethod
    def detail(cls, engine: GameEngine[Any], lang: str) -> GameTypeDetail:
        base = GameTypePublic.of(engine, lang)
        catalog = all_catalogs().get(engine.meta.slug)
        texts = describe(catalog, engine.meta, lang) if catalog is not None else None
        return cls(
            **base.model_dump(),
            language=lang,
            bot_levels=[BotLevelPublic(**level) for level in bot_levels(lang)],
            prompts=texts["prompts"] if texts else {},
            log_templates=texts["log_templates"] if texts else {},
            data=texts["data"] if texts else None,
            schemas=game_schema_refs(engine.meta.slug),
        )


def decision_public(
    decision: Decision, match: Match, seat: int | None, lang: str = DEFAULT_LANGUAGE
) -> DecisionPublic:
    """The decision as a seat sees it, its prompt in ``lang``."""
    translated = translated_decision(describe_decision(decision, match, seat), match.game_type, lang)
    assert translated is not None
    return translated


def translated_decision(
    described: dict[str, Any] | None, game_type: str, lang: str
) -> DecisionPublic | None:
    """A described decision (``describe_decision``) with its prompt in ``lang``."""
    if described is None:
        return None
    prompt = prompt_text(all_catalogs().get(game_type), described["kind"], lang, described["prompt"])
    return DecisionPublic(**{**described, "prompt": prompt})
class ClockOptions(BaseModel):
    """A turn clock, the same for every game type (seconds)."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["none", "per_decision", "fischer"] = Field(
        "none", description="none; per_decision: each decision gets `seconds`; fischer: a bank."
    )
    seconds: float | None = Field(
        None, description="per_decision: the limit of one decision; fischer: each seat's bank."
    )
    increment: float | None = Field(None, description="fischer: added after each decision.")
    on_expiry: Literal["bot", "forfeit"] = Field(
        "bot",
        description="bot: a bot plays for the seat until it acts again; forfeit: for good.",
    )

    def settings(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class GameCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Text = Field(max_length=64, description="A game-type slug from /v1/game-types.")
    options: Annotated[dict[str, Any] | None, AfterValidator(check_json_depth)] = Field(
        None, description="Option values; defaults fill the rest."
    )
    seed: Text | None = Field(
        None,
        min_length=1,
        max_length=MAX_SEED_LENGTH,
        description="A seed chosen by the host, for a reproducible game: selects seed_mode 'host', "
        "which every joiner sees. Absent: the server draws a secret seed.",
    )
    private: bool = Field(
        False, description="Not listed; people join only with the invite code (shown once)."
    )
    seed_mode: Literal["server", "host"] | None = Field(
        None,
        description="'server' (default without a seed): nobody knows the seed until the game ends. "
        "'host' (default with a seed): the host chose it and can foresee every draw.",
    )
    clock: ClockOptions | None = Field(None, description="A turn clock; none by default.")


class GameCreated(BaseModel):
    id: str
    rematch_of: str | None = Field(None, description="For a rematch: the finished game.")
    type: str
    status: str
    version: int
    options: dict[str, Any]
    seed_commitment: str = Field(
        description="SHA-256 (hex) of '<seed_salt>:<seed>'; both are revealed when the game ends."
    )
    seed_mode: Literal["server", "host"]
    private: bool
    host_token: str = Field(description="Bearer token that may start or abort the game. Shown once.")
    invite_code: str | None = Field(
        description="Private games: the code people join with (pass it as `invite_code` when "
        "taking a seat). Shown once."
    )
    created_at: datetime

    @classmethod
    def of(cls, created: Created) -> GameCreated:
        match = created.match
        return cls(
            id=match.id,
            type=match.game_type,
            status=match.status.value,
            version=match.version,
            options=match.options,
            seed_commitment=match.seed_commitment,
            seed_mode=match.seed_mode,
            private=match.private,
            rematch_of=match.rematch_of,
            host_token=created.host_token,
            invite_code=created.invite_code,
            created_at=match.created_at,
        )


class SeatCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Text | None = Field(None, min_length=1, max_length=64)
    bot: Text | None = Field(
        None, max_length=32, description="A bot level, to seat a bot (host token required)."
    )
    invite_code: Text | None = Field(
        None, max_length=128, description="The invite code of a private game (people only)."
    )

    @model_validator(mode="after")
    def _name_or_bot(self) -> SeatCreate:
        if self.name is not None and self.bot is not None:
            raise ValueError("give exactly one of 'name' (a human) or 'bot' (a bot level)")
        return self


class SeatCreated(BaseModel):
    seat: int
    token: str | None = Field(
        description="Bearer token of this seat, shown once; null for a bot seat (it has none)."
    )
    version: int


class SeatPublic(BaseModel):
    seat: int
    name: str
    bot: str | None
    stand_in: str | None = Field(
        None,
        description="Why a bot plays this human seat now: resigned, forfeited (both for good) "
        "or timeout (until the seat acts again).",
    )
    confirmed: bool = Field(
        True, description="False for a rematch seat its player has not taken yet."
    )
    connected: bool = Field(
        False,
        description="The seat follows the game now: a live subscription with its own token is "
        "open (on any instance). Always false for a bot seat.",
    )


class SeatClockPublic(BaseModel):
    seat: int
    waiting_since: datetime | None = Field(description="Since when the game waits for it.")
    deadline: datetime | None = Field(description="When its clock runs out.")
    remaining_seconds: float | None = Field(
        description="Seconds left now (running clock), or the bank (stopped Fischer clock)."
    )
    used_seconds: float = Field(description="Total thinking time so far.")


class ClockPublic(BaseModel):
    mode: str
    seconds: float
    increment: float
    on_expiry: str
    seats: list[SeatClockPublic]


class DecisionPublic(BaseModel):
    kind: str
    prompt: str
    seats: list[int]
    simultaneous: bool
    sealed: list[int] = Field(description="Seats that have sealed a simultaneous choice.")
    your_sealed_choice: dict[str, Any] | None = None
    decision_version: int | None = Field(
        None,
        description="Your seat's concurrency token for this decision: send it back as `decision_version` "
        "when you submit. It changes only when your own decision or choices change (a new "
        "decision, or you seal or replace your choice), never when another seat seals. Null when "
        "the viewer is not asked.",
    )
    data: dict[str, Any]


class ResultPublic(BaseModel):
    scores: list[int]
    winners: list[int] = Field(description="A seat that resigned or forfeited never wins.")
    details: dict[str, Any]
    resigned: list[int] = Field(default_factory=list, description="Seats that resigned.")
    forfeited: list[int] = Field(
        default_factory=list, description="Seats that forfeited when their clock ran out."
    )


class ViewerPublic(BaseModel):
    seat: int | None
    host: bool


class GamePublic(BaseModel):
    id: str
    type: str
    status: str
    version: int
    options: dict[str, Any]
    seats: list[SeatPublic]
    max_players: int
    state: dict[str, Any] | None = Field(
        description="The game as the viewer may see it; its shape per game type is the "
        "component schema `<Game>View` (e.g. `CarcassonneView`, see `GET /v1/game-types/{slug}`)."
    )
    decision: DecisionPublic | None
    result: ResultPublic | None
    seed: str | None = Field(description="Null until the game is over.")
    seed_salt: str | None = Field(
        description="Null until the game is over; sha256('<seed_salt>:<seed>') = seed_commitment."
    )
    seed_commitment: str
    seed_mode: Literal["server", "host"] = Field(
        description="'host': the host chose the seed and can foresee every draw of the game."
    )
    private: bool = Field(description="Not listed; joined only with the invite code.")
    created_at: datetime
    viewer: ViewerPublic
    clock: ClockPublic = Field(description="Turn clocks: who is waited for, deadlines, time used.")
    rematch_of: str | None = Field(None, description="The game this one is the rematch of.")
    rematch_id: str | None = Field(None, description="This game's rematch, once created.")

    @classmethod
    def of(
        cls,
        match: Match,
        viewer: Viewer,
        connected: frozenset[int],
        lang: str = DEFAULT_LANGUAGE,
    ) -> GamePublic:
        """``connected``: the seats with an open subscription now (``PresenceService``)."""
        decision = match.decision()
        return cls(
            id=match.id,
            type=match.game_type,
            status=match.status.value,
            version=match.version,
            options=match.options,
            seats=[
                SeatPublic(
                    seat=s.index,
                    name=s.name,
                    bot=s.bot,
                    stand_in=s.stand_in,
                    confirmed=s.confirmed,
                    connected=s.index in connected,
                )
                for s in match.seats
            ],
            max_players=match.max_players,
            state=match.view(viewer.seat),
            decision=decision_public(decision, match, viewer.seat, lang) if decision else None,
            result=ResultPublic(**match.result) if match.result else None,
            seed=match.seed_revealed(),
            seed_salt=match.salt_revealed(),
            seed_commitment=match.seed_commitment,
            seed_mode=match.seed_mode,
            private=match.private,
            created_at=match.created_at,
            viewer=ViewerPublic(seat=viewer.seat, host=viewer.is_host),
            clock=ClockPublic.model_validate(match.timing.public(datetime.now(UTC))),
            rematch_of=match.rematch_of,
            rematch_id=match.rematch_id,
        )


def changed_game(
    service: GameService,
    presence: PresenceService,
    match: Match,
    token: str | None,
    lang: str = DEFAULT_LANGUAGE,
) -> GamePublic:
    """The game a change returns: as the token sees it now (a seat that just left sees what a
    spectator sees), with the seats connected now."""
    return GamePublic.of(match, service.viewer_or_spectator(match, token), presence.connected(match.id), lang)


class SeatSummaryPublic(BaseModel):
    seat: int
    name: str
    bot: str | None


class GameSummaryPublic(BaseModel):
    id: str
    type: str
    status: str
    players: int = Field(description="Seats taken.")
    max_players: int = Field(description="Seats this game can have (with its options).")
    seats: list[SeatSummaryPublic]
    awaiting: list[int] = Field(
        description="Whose turn it is: the seats the game waits for now (empty unless in progress)."
    )
    version: int
    created_at: datetime
    updated_at: datetime
    seed_mode: Literal["server", "host"] = Field(
        description="'host': the host chose the seed and can foresee every draw of the game."
    )

    @classmethod
    def of(cls, summary: GameSummary) -> GameSummaryPublic:
        return cls(
            id=summary.id,
            type=summary.game_type,
            status=summary.status,
            players=summary.players,
            max_players=summary.max_players,
            seats=[SeatSummaryPublic(seat=s.seat, name=s.name, bot=s.bot) for s in summary.seats],
            awaiting=list(summary.awaiting),
            version=summary.version,
            created_at=summary.created_at,
            updated_at=summary.updated_at or summary.created_at,
            seed_mode=summary.seed_mode,
        )


class GamePagePublic(BaseModel):
    items: list[GameSummaryPublic] = Field(description="Newest first.")
    total: int = Field(description="Games matching the filters, on every page.")
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )

    @classmethod
    def of(cls, page: GamePage) -> GamePagePublic:
        return cls(
            items=[GameSummaryPublic.of(s) for s in page.items],
            total=page.total,
            next_cursor=page.next_cursor,
        )


class ChoicesPublic(BaseModel):
    version: int
    decision_version: int | None = Field(
        None,
        description="Your seat's concurrency token for this decision: send it back as `decision_version` "
        "when you submit. It changes only when your own decision or choices change (a new "
        "decision, or you seal or replace your choice), never when another seat seals. Null when "
        "the viewer is not asked.",
    )
    decision: DecisionPublic | None
    choices: list[dict[str, Any]] = Field(description="Every legal choice; post one back verbatim.")


class ChoiceSubmit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    choice: Annotated[dict[str, Any], AfterValidator(check_json_depth)]
    decision_version: int | None = Field(
        None,
        ge=0,
        le=INT32_MAX,
        description="The `decision_version` of the decision you answer (from the choices, the "
        "game's `decision` or an event's `next`): 409 `version_conflict` only if your seat's "
        "decision has moved on since. Recommended.",
    )
    version: int | None = Field(
        None,
        ge=0,
        le=INT32_MAX,
        description="The game `version` you decided on (older clients): 409 only if your seat's "
        "decision changed after it (other seats sealing do not count).",
    )


class EventPublic(BaseModel):
    seq: int
    type: str
    data: dict[str, Any]


class SubmitResultPublic(BaseModel):
    status: Literal["sealed", "applied"]
    version: int
    decision_version: int | None = Field(
        None,
        description="Your seat's concurrency token now (null when your seat has nothing to "
        "decide): send it to replace a sealed choice.",
    )
    events: list[EventPublic]
    next: ChoicesPublic | None = Field(
        None,
        description="What the submitting seat must decide next (null if nothing), as GET choices "
        "answers it: submit one of its choices with its version, no need to ask again.",
    )


class EventsPage(BaseModel):
    events: list[EventPublic]
    last_seq: int = Field(description="Pass as `after` to continue.")


class PlayerCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)


class PlayerCreatedPublic(BaseModel):
    id: str
    name: str
    token: str = Field(description="Bearer token of this player, for every game. Shown once.")
    created_at: datetime


class PlayerGamePublic(BaseModel):
    game_id: str
    type: str
    status: str
    seat: int
    version: int
    your_turn: bool = Field(description="The game is waiting for this seat's decision now.")
    waiting_since: datetime | None = Field(description="Since when the game has waited for it.")
    deadline: datetime | None = Field(description="When its clock runs out (null: no clock).")
    joined_at: datetime
    stand_in: str | None = Field(
        description="Why a bot plays this seat for now (resigned, forfeited, timeout), or null."
    )

    @classmethod
    def of(cls, game: PlayerGame) -> PlayerGamePublic:
        return cls(
            game_id=game.game_id,
            type=game.game_type,
            status=game.status,
            seat=game.seat,
            version=game.version,
            your_turn=game.your_turn,
            waiting_since=game.waiting_since,
            deadline=game.deadline,
            joined_at=game.joined_at,
            stand_in=game.stand_in,
        )


class WebhookCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(max_length=2048, description="Where to POST; public http(s) addresses only.")
    filters: list[str] = Field(
        min_length=1,
        max_length=5,
        description="your_turn, game_started, game_over, reveal, or all (every event the "
        "owner's seat may see; a host's endpoint sees what a spectator sees).",
    )
    game_id: str | None = Field(
        None,
        max_length=64,
        description="With the host token: this game's endpoint. Without: the bearer player's "
        "endpoint for all its games.",
    )


class WebhookPublic(BaseModel):
    id: str
    url: str
    filters: list[str]
    status: str = Field(description="active, or failing after retries ran out (enable again).")
    player_id: str | None
    game_id: str | None
    created_at: datetime

    @classmethod
    def of(cls, endpoint: Endpoint) -> WebhookPublic:
        return cls(
            id=endpoint.id,
            url=endpoint.url,
            filters=list(endpoint.filters),
            status=endpoint.status,
            player_id=endpoint.player_id,
            game_id=endpoint.game_id,
            created_at=endpoint.created_at,
        )


class WebhookCreated(WebhookPublic):
    secret: str = Field(
        description="whsec_… signing secret (Standard Webhooks). Shown once: verify every "
        "delivery with it."
    )


class WebhookAttemptPublic(BaseModel):
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: float


class WebhookDeliveryPublic(BaseModel):
    webhook_id: str = Field(description="The webhook-id header: de-duplicate by it.")
    game_id: str
    kind: str
    payload: dict[str, Any]
    status: str = Field(description="pending, delivered or failed.")
    attempts: int
    next_attempt_at: datetime | None
    created_at: datetime
    delivered_at: datetime | None
    history: list[WebhookAttemptPublic]

    @classmethod
    def of(cls, delivery: Delivery) -> WebhookDeliveryPublic:
        return cls(
            webhook_id=delivery.message_id,
            game_id=delivery.game_id,
            kind=delivery.kind,
            payload=delivery.payload,
            status=delivery.status,
            attempts=delivery.attempts,
            next_attempt_at=delivery.next_attempt_at,
            created_at=delivery.created_at,
            delivered_at=delivery.delivered_at,
            history=[WebhookAttemptPublic(**vars_of(a)) for a in delivery.history],
        )


def vars_of(attempt: Attempt) -> dict[str, Any]:
    return {
        "attempted_at": attempt.attempted_at,
        "status_code": attempt.status_code,
        "error": attempt.error,
        "duration_ms": attempt.duration_ms,
    }


class ReplayPublic(BaseModel):
    game_id: str
    at: int = Field(description="The event sequence number the game is shown after.")
    last_seq: int
    seat: int | None = Field(description="Whose view (null: a spectator's).")
    phase: str = Field(description="lobby or in_progress at that moment, or the final status.")
    state: dict[str, Any] | None = Field(
        description="The game after the last decision completed by `at`, recomputed from the "
        "revealed seed and the recorded choices."
    )
    events: list[EventPublic] = Field(description="Every event up to `at`, as that viewer saw it.")
    used_seconds: list[float] | None = Field(
        description="Each seat's total thinking time, when a clock ran."
    )
    matches_final_state: bool | None = Field(
        description="At the last event: whether the replay reproduces the stored final state."
    )

    @classmethod
    def of(cls, replayed: Replayed) -> ReplayPublic:
        return cls(
            game_id=replayed.game_id,
            at=replayed.at,
            last_seq=replayed.last_seq,
            seat=replayed.seat,
            phase=replayed.phase,
            state=replayed.state,
            events=[EventPublic.model_validate(e) for e in replayed.events],
            used_seconds=replayed.used_seconds,
            matches_final_state=replayed.matches_final_state,
        )
