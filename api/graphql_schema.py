"""The GraphQL API: the same queries and mutations as REST, plus the ``gameEvents`` subscription.

Expected failures are union results carrying a ``Problem`` with the same ``code`` as REST.
Resolvers call the same use cases and reuse the REST mappings, so both APIs say the same thing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar, cast

import strawberry
from pydantic import AfterValidator, TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool
from strawberry import ID
from strawberry.scalars import JSON
from strawberry.types import Info

from api.container import Container
from api.deps import bearer_from_connection_params, parse_bearer
from api.live import game_event_stream
from api.schemas import (
    ChoiceSubmit,
    GameCreate,
    GamePagePublic,
    GamePublic,
    GameTypePublic,
    PlayerCreate,
    PlayerGamePublic,
    ReplayPublic,
    SeatCreate,
    WebhookCreate,
    WebhookDeliveryPublic,
    WebhookPublic,
    changed_game,
    translated_decision,
)
from api.schemas import GameCreated as GameCreatedPublic
from api.schemas import (
    GameTypeDetail as GameTypeDetailPublic,
)
from api.validation import INT32_MAX, check_idempotency_key
from domain.errors import DomainError, GameTypeNotFound, InvalidRequest, UnknownGameType
from domain.i18n import negotiate
from domain.lobby import LobbyFilter
from domain.seating import take_seat

T = TypeVar("T")
IDEMPOTENCY_KEY_ADAPTER: TypeAdapter[str | None] = TypeAdapter(
    Annotated[str | None, AfterValidator(check_idempotency_key)]
)


@strawberry.type(
    description="An expected failure: the REST problem's `code`, its HTTP status and why. "
    "`httpStatus` (not `status`) so that a union query may also select `Game.status`."
)
class Problem:
    code: str
    http_status: int
    detail: str


@strawberry.type
class GameOption:
    name: str
    label: str
    type: str
    default: JSON
    allowed: JSON | None
    description: str
    verified: bool


@strawberry.type(description="An option value that lowers the most seats a game can have.")
class PlayerLimit:
    option: str
    value: JSON
    max_players: int


@strawberry.type
class GameType:
    slug: str
    name: str
    description: str
    min_players: int
    max_players: int
    options: list[GameOption]
    player_limits: list[PlayerLimit]


@strawberry.type(description="A bot a host can seat: send `level` as `bot` when joining.")
class BotLevel:
    level: str
    name: str
    description: str


@strawberry.type(description="A game type with all its static data, in one language.")
class GameTypeDetail(GameType):
    language: str
    bot_levels: list[BotLevel]
    prompts: JSON
    log_templates: JSON
    data: JSON | None
    schemas: JSON


@strawberry.type
class Seat:
    seat: int
    name: str
    bot: str | None
    stand_in: str | None
    confirmed: bool
    connected: bool = strawberry.field(
        description="The seat follows the game now: a live subscription with its own token is "
        "open (on any instance). Always false for a bot seat."
    )


@strawberry.type
class SeatClock:
    seat: int
    waiting_since: datetime | None
    deadline: datetime | None
    remaining_seconds: float | None
    used_seconds: float


@strawberry.type
class GameClock:
    mode: str
    seconds: float
    increment: float
    on_expiry: str
    seats: list[SeatClock]


@strawberry.input
class ClockInput:
    mode: str = "none"
    seconds: float | None = None
    increment: float | None = None
    on_expiry: str = "bot"


@strawberry.type
class Decision:
    kind: str
    prompt: str
    seats: list[int]
    simultaneous: bool
    sealed: list[int]
    your_sealed_choice: JSON | None
    data: JSON
    decision_version: int | None = strawberry.field(
        default=None,
        description="Your seat's concurrency token for this decision (send it as "
        "`decisionVersion`); it changes only when your own decision or choices change.",
    )


@strawberry.type
class GameResult:
    scores: list[int]
    winners: list[int]
    details: JSON
    resigned: list[int]
    forfeited: list[int]


@strawberry.type(description="Who is reading: a seat, the host, or (neither) a spectator.")
class Viewer:
    seat: int | None
    host: bool


@strawberry.type
class Game:
    id: ID
    type: str
    status: str
    version: int
    options: JSON
    seats: list[Seat]
    max_players: int
    state: JSON | None
    decision: Decision | None
    result: GameResult | None
    seed: str | None
    seed_salt: str | None
    seed_commitment: str
    seed_mode: str
    private: bool
    created_at: datetime
    viewer: Viewer
    clock: GameClock
    rematch_of: ID | None
    rematch_id: ID | None


@strawberry.type
class SeatSummary:
    seat: int
    name: str
    bot: str | None


@strawberry.type
class GameSummary:
    id: ID
    type: str
    status: str
    players: int
    max_players: int
    seats: list[SeatSummary]
    awaiting: list[int] = strawberry.field(
        description="Whose turn it is: the seats the game waits for now."
    )
    version: int
    created_at: datetime
    updated_at: datetime
    seed_mode: str


@strawberry.type(description="One page of the lobby: pass `nextCursor` as `cursor` for the next.")
class GamePage:
    items: list[GameSummary]
    total: int
    next_cursor: str | None


@strawberry.type
class GameCreated:
    id: ID
    rematch_of: ID | None
    type: str
    status: str
    version: int
    options: JSON
    seed_commitment: str
    seed_mode: str
    private: bool
    host_token: str
    invite_code: str | None
    created_at: datetime


@strawberry.type
class SeatJoined:
    seat: int
    token: str | None
    version: int


@strawberry.type
class Choices:
    version: int
    decision_version: int | None
    decision: Decision | None
    choices: list[JSON]


@strawberry.type
class Event:
    seq: int
    type: str
    data: JSON
    next: Choices | None = strawberry.field(
        default=None,
        description="On a live event: what the subscribing seat must decide right after it (null "
        "if nothing). Answer it by submitting one of its choices with its version: no need to "
        "query the choices.",
    )


@strawberry.type
class SubmitResult:
    status: str
    version: int
    decision_version: int | None
    events: list[Event]
    next: Choices | None = strawberry.field(
        default=None, description="What the submitting seat must decide next (null if nothing)."
    )


@strawberry.type
class EventPage:
    events: list[Event]
    last_seq: int


GameTypeOrProblem = Annotated[GameTypeDetail | Problem, strawberry.union("GameTypeOrProblem")]
@strawberry.type
class PlayerCreated:
    id: ID
    name: str
    token: str
    created_at: datetime


@strawberry.type
class PlayerGame:
    game_id: ID
    type: str
    status: str
    seat: int
    version: int
    your_turn: bool
    waiting_since: datetime | None
    deadline: datetime | None
    joined_at: datetime
    stand_in: str | None


@strawberry.type
class PlayerGames:
    games: list[PlayerGame]


@strawberry.type
class Webhook:
    id: ID
    url: str
    filters: list[str]
    status: str
    player_id: ID | None
    game_id: ID | None
    created_at: datetime
    secret: str | None = strawberry.field(
        default=None, description="The whsec_ signing secret: only in the answer to createWebhook."
    )


@strawberry.type
class WebhookAttempt:
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: float


@strawberry.type
class WebhookDelivery:
    webhook_id: ID
    game_id: ID
    kind: str
    payload: JSON
    status: str
    attempts: int
    next_attempt_at: datetime | None
    created_at: datetime
    delivered_at: datetime | None
    history: list[WebhookAttempt]


@strawberry.type
class Webhooks:
    webhooks: list[Webhook]


@strawberry.type
class WebhookDeliveries:
    deliveries: list[WebhookDelivery]


@strawberry.type
class Replay:
    game_id: ID
    at: int
    last_seq: int
    seat: int | None
    phase: str
    state: JSON | None
    events: list[Event]
    used_seconds: list[float] | None
    matches_final_state: bool | None


GameOrProblem = Annotated[Game | Problem, strawberry.union("GameOrProblem")]
CreateGameResult = Annotated[GameCreated | Problem, strawberry.union("CreateGameResult")]
JoinGameResult = Annotated[SeatJoined | Problem, strawberry.union("JoinGameResult")]
ChoicesResult = Annotated[Choices | Problem, strawberry.union("ChoicesResult")]
SubmitChoiceResult = Annotated[SubmitResult | Problem, strawberry.union("SubmitChoiceResult")]
EventsResult = Annotated[EventPage | Problem, strawberry.union("EventsResult")]
CreatePlayerResult = Annotated[PlayerCreated | Problem, strawberry.union("CreatePlayerResult")]
MyGamesResult = Annotated[PlayerGames | Problem, strawberry.union("MyGamesResult")]
ReplayResult = Annotated[Replay | Problem, strawberry.union("ReplayResult")]
WebhookResult = Annotated[Webhook | Problem, strawberry.union("WebhookResult")]
WebhooksResult = Annotated[Webhooks | Problem, strawberry.union("WebhooksResult")]
DeliveriesResult = Annotated[WebhookDeliveries | Problem, strawberry.union("DeliveriesResult")]


def _container(info: Info) -> Container:
    container: Container = info.context["container"]
    return container


def _token(info: Info) -> str | None:
    """The bearer token of the HTTP request, or of the websocket's connection parameters."""
    params = info.context.get("connection_params")
    if params is not None:
        return bearer_from_connection_params(params)
    request = info.context.get("request")
    header = request.headers.get("authorization") if request is not None else None
    return parse_bearer(header)


def _lang(info: Info, lang: str | None) -> str:
    """The ``lang`` argument, else the request's Accept-Language, else English."""
    request = info.context.get("request")
    header = request.headers.get("accept-language") if request is not None else None
    return negotiate(lang, header)


def _game_type(t: GameTypePublic) -> dict[str, Any]:
    return {
        "slug": t.slug,
        "name": t.name,
        "description": t.description,
        "min_players": t.min_players,
        "max_players": t.max_players,
        "options": [GameOption(**o.model_dump()) for o in t.options],
        "player_limits": [PlayerLimit(**p.model_dump()) for p in t.player_limits],
    }


def _decision(data: dict[str, Any] | None) -> Decision | None:
    return Decision(**data) if data else None


def _offer(offer: Any, game_type: str | None = None, lang: str = "en") -> Choices | None:
    """A seat's pending decision (as the service describes it) as a GraphQL ``Choices``, its
    prompt in ``lang`` when the game type is known."""
    if offer is None:
        return None
    decision = offer["decision"]
    if game_type is not None and decision is not None:
        translated = translated_decision(decision, game_type, lang)
        decision = translated.model_dump(mode="json") if translated is not None else None
    return Choices(
        version=offer["version"],
        decision_version=offer["decision_version"],
        decision=_decision(decision),
        choices=[cast(JSON, c) for c in offer["choices"]],
    )


def _game(public: GamePublic) -> Game:
    dumped = public.model_dump(mode="json")
    return Game(
        id=ID(public.id),
        type=public.type,
        status=public.status,
        version=public.version,
        options=dumped["options"],
        seats=[
            Seat(
                seat=s.seat,
                name=s.name,
                bot=s.bot,
                stand_in=s.stand_in,
                confirmed=s.confirmed,
                connected=s.connected,
            )
            for s in public.seats
        ],
        rematch_of=ID(public.rematch_of) if public.rematch_of else None,
        rematch_id=ID(public.rematch_id) if public.rematch_id else None,
        max_players=public.max_players,
        state=dumped["state"],
        decision=_decision(dumped["decision"]),
        result=GameResult(**dumped["result"]) if dumped["result"] else None,
        seed=public.seed,
        seed_salt=public.seed_salt,
        seed_commitment=public.seed_commitment,
        seed_mode=public.seed_mode,
        private=public.private,
        created_at=public.created_at,
        viewer=Viewer(seat=public.viewer.seat, host=public.viewer.host),
        clock=GameClock(
            mode=public.clock.mode,
            seconds=public.clock.seconds,
            increment=public.clock.increment,
            on_expiry=public.clock.on_expiry,
            seats=[SeatClock(**c.model_dump()) for c in public.clock.seats],
        ),
    )


def _problem(exc: Exception) -> Problem:
    if isinstance(exc, DomainError):
        return Problem(code=exc.code, http_status=exc.status, detail=exc.message)
    assert isinstance(exc, ValidationError)
    detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
    return Problem(code="invalid_request", http_status=422, detail=detail)


def _in_range(name: str, value: int, low: int, high: int) -> int:
    """A paging argument, refused out of range as REST refuses the same query parameter (422)."""
    if not low <= value <= high:
        raise InvalidRequest(f"{name} must be between {low} and {high}, not {value}")
    return value


async def _attempt(work: Callable[[], T]) -> T | Problem:
    """Run a blocking use case off the event loop; expected failures become a Problem."""
    try:
        return await run_in_threadpool(work)
    except (DomainError, ValidationError) as exc:
        return _problem(exc)


async def _attempt_async(work: Callable[[], Awaitable[T]]) -> T | Problem:
    try:
        return await work()
    except (DomainError, ValidationError) as exc:
        return _problem(exc)


@strawberry.type
class Query:
    @strawberry.field(description="The hosted game types with player counts and options.")
    def game_types(self, info: Info, lang: str | None = None) -> list[GameType]:
        language = _lang(info, lang)
        types = [GameTypePublic.of(e, language) for e in _container(info).service.registry]
        return [GameType(**_game_type(t)) for t in types]

    @strawberry.field(
        description="One game type with its static data (cards, tiles, board), prompts and log "
        "templates, in `lang` (en, de, fr, es; default: Accept-Language, else en)."
    )
    async def game_type(self, info: Info, slug: str, lang: str | None = None) -> GameTypeOrProblem:
        registry, language = _container(info).service.registry, _lang(info, lang)

        def read() -> GameTypeDetail:
            try:
                engine = registry.get(slug)
            except UnknownGameType as exc:
                raise GameTypeNotFound(exc.message) from None
            detail = GameTypeDetailPublic.detail(engine, language)
            return GameTypeDetail(
                **_game_type(detail),
                language=detail.language,
                bot_levels=[BotLevel(**b.model_dump()) for b in detail.bot_levels],
                prompts=cast(JSON, detail.prompts),
                log_templates=cast(JSON, detail.log_templates),
                data=cast(JSON, detail.data),
                schemas=cast(JSON, detail.schemas),
            )

        return await _attempt(read)

    @strawberry.field(
        description="Public games, newest first, by status, type and joinability (true: lobbies "
        "with a free seat), one page at a time."
    )
    async def games(
        self,
        info: Info,
        status: str | None = None,
        type: str | None = None,
        joinable: bool | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> GamePage:
        service = _container(info).service
        limit = _in_range("limit", limit, 1, 200)
        page = await run_in_threadpool(
            lambda: service.list_games(LobbyFilter(status, type, joinable), limit, cursor)
        )
        public = GamePagePublic.of(page)
        return GamePage(
            items=[
                GameSummary(
                    **s.model_dump(exclude={"seats"}),
                    seats=[SeatSummary(**seat.model_dump()) for seat in s.seats],
                )
                for s in public.items
            ],
            total=public.total,
            next_cursor=public.next_cursor,
        )

    @strawberry.field(description="A game as the token's seat (or a spectator) sees it.")
    async def game(self, info: Info, id: ID, lang: str | None = None) -> GameOrProblem:
        service, token, language = _container(info).service, _token(info), _lang(info, lang)
        presence = _container(info).presence

        def read() -> Game:
            match = service.load(id)
            return _game(
                GamePublic.of(
                    match,
                    service.viewer(match, token),
                    presence.connected(match.id),
                    language,
                )
            )

        return await _attempt(read)

    @strawberry.field(description="What the token's seat must decide now, with every legal choice.")
    async def choices(self, info: Info, game_id: ID, lang: str | None = None) -> ChoicesResult:
        service, token, language = _container(info).service, _token(info), _lang(info, lang)

        def read() -> Choices:
            pending = service.pending(game_id, token)
            decision = translated_decision(pending.decision, pending.game_type, language)
            return Choices(
                version=pending.version,
                decision_version=pending.decision_version,
                decision=_decision(decision.model_dump(mode="json") if decision else None),
                choices=[cast(JSON, c) for c in pending.choices],
            )

        return await _attempt(read)

    @strawberry.field(description="The game's events after a sequence number.")
    async def events(
        self, info: Info, game_id: ID, after: int = 0, limit: int = 500
    ) -> EventsResult:
        service, token = _container(info).service, _token(info)

        def read() -> EventPage:
            _, events = service.events(
                game_id, token, _in_range("after", after, 0, INT32_MAX), _in_range("limit", limit, 1, 1000)
            )
            return EventPage(
                events=[Event(**e) for e in events],
                last_seq=events[-1]["seq"] if events else after,
            )

        return await _attempt(read)

    @strawberry.field(description="The bearer player's games: status, and whether it is their turn.")
    async def my_games(self, info: Info, limit: int = 50, offset: int = 0) -> MyGamesResult:
        players, token = _container(info).players, _token(info)

        def read() -> PlayerGames:
            found = players.games_of(
                token, _in_range("limit", limit, 1, 200), _in_range("offset", offset, 0, INT32_MAX)
            )
            return PlayerGames(
                games=[PlayerGame(**PlayerGamePublic.of(g).model_dump()) for g in found]
            )

        return await _attempt(read)

    @strawberry.field(
        description="An ended game after event `at`, as a seat (or a spectator) saw it then, "
        "recomputed from the revealed seed and the recorded choices."
    )
    async def replay(
        self, info: Info, game_id: ID, at: int, seat: int | None = None
    ) -> ReplayResult:
        replays = _container(info).replays

        def read() -> Replay:
            public = ReplayPublic.of(replays.at(game_id, max(0, at), seat))
            dumped = public.model_dump(mode="json")
            return Replay(
                **{k: v for k, v in dumped.items() if k != "events"},
                events=[Event(**e) for e in dumped["events"]],
            )

        return await _attempt(read)

    @strawberry.field(description="The bearer player's webhook endpoints, or (host token) a game's.")
    async def webhooks(self, info: Info, game_id: ID | None = None) -> WebhooksResult:
        webhooks, token = _container(info).webhooks, _token(info)

        def read() -> Webhooks:
            found = webhooks.endpoints(token, game_id)
            return Webhooks(webhooks=[_webhook(WebhookPublic.of(e)) for e in found])

        return await _attempt(read)

    @strawberry.field(description="An endpoint's deliveries, newest first, with every attempt.")
    async def webhook_deliveries(
        self, info: Info, webhook_id: ID, limit: int = 100
    ) -> DeliveriesResult:
        webhooks, token = _container(info).webhooks, _token(info)

        def read() -> WebhookDeliveries:
            found = webhooks.deliveries(token, webhook_id, _in_range("limit", limit, 1, 500))
            return WebhookDeliveries(deliveries=[_delivery(WebhookDeliveryPublic.of(d)) for d in found])

        return await _attempt(read)


def _webhook(public: WebhookPublic, secret: str | None = None) -> Webhook:
    return Webhook(**public.model_dump(), secret=secret)


def _delivery(public: WebhookDeliveryPublic) -> WebhookDelivery:
    values = public.model_dump(exclude={"history"})
    return WebhookDelivery(
        **values, history=[WebhookAttempt(**a.model_dump()) for a in public.history]
    )


@strawberry.type
class Mutation:
    @strawberry.mutation(
        description="Register a webhook endpoint: player token (all its games) or host token "
        "with gameId. The answer carries the signing secret, shown once."
    )
    async def create_webhook(
        self, info: Info, url: str, filters: list[str], game_id: ID | None = None
    ) -> WebhookResult:
        webhooks, token = _container(info).webhooks, _token(info)

        def create() -> Webhook:
            body = WebhookCreate(url=url, filters=filters, game_id=game_id)
            endpoint = webhooks.register(token, body.url, body.filters, body.game_id)
            return _webhook(WebhookPublic.of(endpoint), endpoint.secret)

        return await _attempt(create)

    @strawberry.mutation(description="Make a failing endpoint active again (failed deliveries resent).")
    async def enable_webhook(self, info: Info, webhook_id: ID) -> WebhookResult:
        webhooks, token = _container(info).webhooks, _token(info)

        def enable() -> Webhook:
            return _webhook(WebhookPublic.of(webhooks.enable(token, webhook_id)))

        return await _attempt(enable)

    @strawberry.mutation(description="Stop sending to an endpoint.")
    async def delete_webhook(self, info: Info, webhook_id: ID) -> WebhookResult:
        webhooks, token = _container(info).webhooks, _token(info)

        def delete() -> Webhook:
            return _webhook(WebhookPublic.of(webhooks.delete(token, webhook_id)))

        return await _attempt(delete)

    @strawberry.mutation(description="Create a player; returns its token (shown once).")
    async def create_player(self, info: Info, name: str) -> CreatePlayerResult:
        players = _container(info).players

        def create() -> PlayerCreated:
            created = players.create(PlayerCreate(name=name).name)
            return PlayerCreated(
                id=ID(created.player.id),
                name=created.player.name,
                token=created.token,
                created_at=created.player.created_at,
            )

        return await _attempt(create)

    @strawberry.mutation(
        description="A new token for one of the bearer player's own seats (the old one stops working)."
    )
    async def reissue_seat_token(self, info: Info, game_id: ID, seat: int) -> JoinGameResult:
        players, token = _container(info).players, _token(info)

        def reissue() -> SeatJoined:
            joined = players.reissue_seat_token(token, game_id, seat)
            return SeatJoined(seat=joined.seat, token=joined.token, version=joined.version)

        return await _attempt(reissue)

    @strawberry.mutation(description="Create a game; returns the host token and seed commitment.")
    async def create_game(
        self,
        info: Info,
        type: str,
        options: JSON | None = None,
        seed: str | None = None,
        seed_mode: str | None = None,
        private: bool = False,
        idempotency_key: str | None = None,
        clock: ClockInput | None = None,
    ) -> CreateGameResult:
        service = _container(info).service

        def create() -> GameCreated:
            body = GameCreate.model_validate(
                {
                    "type": type,
                    "options": options,
                    "seed": seed,
                    "seed_mode": seed_mode,
                    "private": private,
                    "clock": vars(clock) if clock is not None else None,
                }
            )
            public = GameCreatedPublic.of(
                service.create_game(
                    body.type,
                    body.options,
                    body.seed,
                    body.seed_mode,
                    body.private,
                    IDEMPOTENCY_KEY_ADAPTER.validate_python(idempotency_key),
                    body.clock.settings() if body.clock is not None else None,
                )
            )
            return GameCreated(**public.model_dump())

        return await _attempt(create)

    @strawberry.mutation(
        description="Take the next free seat as a human (name), or seat a bot (level, host "
        "token); with a player token as bearer the seat is tied to that player, with the previous "
        "game's seat token a held rematch seat is taken."
    )
    async def join_game(
        self,
        info: Info,
        game_id: ID,
        name: str | None = None,
        bot: str | None = None,
        invite_code: str | None = None,
        idempotency_key: str | None = None,
    ) -> JoinGameResult:
        container, token = _container(info), _token(info)

        def join() -> SeatJoined:
            body = SeatCreate(name=name, bot=bot, invite_code=invite_code)
            joined = take_seat(
                container.service,
                container.players,
                container.rematches,
                game_id,
                name=body.name,
                bot=body.bot,
                token=token,
                invite_code=body.invite_code,
                idempotency_key=IDEMPOTENCY_KEY_ADAPTER.validate_python(idempotency_key),
            )
            return SeatJoined(seat=joined.seat, token=joined.token, version=joined.version)

        return await _attempt(join)

    @strawberry.mutation(
        description="Free a lobby seat: the host removes any seat, a seat (its token) leaves."
    )
    async def remove_seat(self, info: Info, game_id: ID, seat: int) -> GameOrProblem:
        service, token = _container(info).service, _token(info)
        presence = _container(info).presence

        def remove() -> Game:
            match = service.remove_seat(game_id, seat, token)
            return _game(changed_game(service, presence, match, token))

        return await _attempt(remove)

    @strawberry.mutation(description="Start the game (host token).")
    async def start_game(self, info: Info, game_id: ID) -> GameOrProblem:
        service, token = _container(info).service, _token(info)
        presence = _container(info).presence

        def start() -> Game:
            match = service.start(game_id, token)
            return _game(changed_game(service, presence, match, token))

        return await _attempt(start)

    @strawberry.mutation(description="Abort the game (host token).")
    async def abort_game(self, info: Info, game_id: ID) -> GameOrProblem:
        service, token = _container(info).service, _token(info)
        presence = _container(info).presence

        def abort() -> Game:
            match = service.abort(game_id, token)
            return _game(changed_game(service, presence, match, token))

        return await _attempt(abort)

    @strawberry.mutation(
        description="The next game of a finished one (host or seat token): same type, options, "
        "clock and seats; people take their seats by joining with their previous seat token."
    )
    async def rematch_game(self, info: Info, game_id: ID) -> CreateGameResult:
        rematches, token = _container(info).rematches, _token(info)

        def rematch() -> GameCreated:
            public = GameCreatedPublic.of(rematches.create(game_id, token))
            return GameCreated(**public.model_dump())

        return await _attempt(rematch)

    @strawberry.mutation(
        description="Resign the token's seat: a bot plays it to the end; the result says so."
    )
    async def resign_seat(self, info: Info, game_id: ID) -> GameOrProblem:
        service, token = _container(info).service, _token(info)
        presence = _container(info).presence

        def resign() -> Game:
            match = service.resign(game_id, token)
            return _game(changed_game(service, presence, match, token))

        return await _attempt(resign)

    @strawberry.mutation(description="Take the seat back from the bot that played it on timeout.")
    async def return_to_seat(self, info: Info, game_id: ID) -> GameOrProblem:
        service, token = _container(info).service, _token(info)
        presence = _container(info).presence

        def back() -> Game:
            match = service.return_to_seat(game_id, token)
            return _game(changed_game(service, presence, match, token))

        return await _attempt(back)

    @strawberry.mutation(description="Submit one of the listed choices (seat token).")
    async def submit_choice(
        self,
        info: Info,
        game_id: ID,
        choice: JSON,
        version: int | None = None,
        idempotency_key: str | None = None,
        decision_version: int | None = None,
    ) -> SubmitChoiceResult:
        service, token = _container(info).service, _token(info)

        def submit() -> SubmitResult:
            body = ChoiceSubmit(choice=choice, version=version, decision_version=decision_version)
            key = IDEMPOTENCY_KEY_ADAPTER.validate_python(idempotency_key)
            result = service.submit(
                game_id, token, body.choice, body.version, key, body.decision_version
            )
            return SubmitResult(
                status=result["status"],
                version=result["version"],
                decision_version=result.get("decision_version"),
                events=[Event(**e) for e in result["events"]],
                next=_offer(result.get("next")),
            )

        return await _attempt(submit)


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="A game's events as the token's seat may see them: history after `after`, "
        "then live (reveals the moment the last seat seals). Ends with the game. `next` is the "
        "seat's decision right after an event, its prompt in `lang` (else Accept-Language)."
    )
    async def game_events(
        self, info: Info, game_id: ID, after: int = 0, lang: str | None = None
    ) -> AsyncGenerator[Event, None]:
        container, token, language = _container(info), _token(info), _lang(info, lang)
        match = await run_in_threadpool(container.service.load, game_id)
        seat = container.service.viewer(match, token).seat
        final_seq = match.last_seq if match.is_over else None
        metrics = container.metrics
        metrics.active_subscriptions.inc()
        present = (
            await run_in_threadpool(container.presence.connect, game_id, seat)
            if seat is not None and final_seq is None
            else None
        )
        try:
            async for event in game_event_stream(
                container, game_id, seat, max(0, after), final_seq
            ):
                yield Event(
                    seq=event["seq"],
                    type=event["type"],
                    data=event["data"],
                    next=_offer(event["next"], match.game_type, language),
                )
        finally:
            metrics.active_subscriptions.dec()
            if present is not None:
                await _disconnect(container, present)


async def _disconnect(container: Container, connection_id: str) -> None:
    """End a seat's presence, even while the subscription's task is being cancelled (a closed
    socket): shielded, so a second cancellation cannot leave the row behind until it expires."""
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.shield(run_in_threadpool(container.presence.disconnect, connection_id))


schema = strawberry.Schema(query=Query, mutation=Mutation, subscription=Subscription)


