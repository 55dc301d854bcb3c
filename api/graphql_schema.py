"""The GraphQL API: the same queries and mutations as REST, plus the ``gameEvents`` subscription.

Expected failures are union results carrying a ``Problem`` with the same ``code`` as REST.
Resolvers call the same use cases and reuse the REST mappings, so both APIs say the same thing.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar, cast

import strawberry
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON
from strawberry.types import Info

from api.container import Container
from api.deps import parse_bearer
from api.live import game_event_stream
from api.schemas import ChoiceSubmit, GameCreate, GamePublic, GameTypePublic, SeatCreate
from api.schemas import GameCreated as GameCreatedPublic
from domain.errors import DomainError

T = TypeVar("T")


@strawberry.type
class Problem:
    code: str
    status: int
    detail: str


@strawberry.type
class GameOption:
    name: str
    type: str
    default: JSON
    allowed: JSON
    description: str
    verified: bool


@strawberry.type
class GameType:
    slug: str
    name: str
    description: str
    min_players: int
    max_players: int
    options: list[GameOption]
    player_limits: JSON


@strawberry.type
class Seat:
    seat: int
    name: str
    bot: str | None


@strawberry.type
class Decision:
    kind: str
    prompt: str
    seats: list[int]
    simultaneous: bool
    sealed: list[int]
    your_sealed_choice: JSON | None
    data: JSON


@strawberry.type
class GameResult:
    scores: list[int]
    winners: list[int]
    details: JSON


@strawberry.type
class Game:
    id: str
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
    seed_commitment: str
    created_at: datetime
    viewer_seat: int | None


@strawberry.type
class GameSummary:
    id: str
    type: str
    status: str
    players: int
    version: int
    created_at: datetime


@strawberry.type
class GameCreated:
    id: str
    type: str
    status: str
    version: int
    options: JSON
    seed_commitment: str
    host_token: str


@strawberry.type
class SeatJoined:
    seat: int
    token: str
    version: int


@strawberry.type
class Event:
    seq: int
    type: str
    data: JSON


@strawberry.type
class Choices:
    version: int
    decision: Decision | None
    choices: list[JSON]


@strawberry.type
class SubmitResult:
    status: str
    version: int
    events: list[Event]


@strawberry.type
class EventPage:
    events: list[Event]
    last_seq: int


GameOrProblem = Annotated[Game | Problem, strawberry.union("GameOrProblem")]
CreateGameResult = Annotated[GameCreated | Problem, strawberry.union("CreateGameResult")]
JoinGameResult = Annotated[SeatJoined | Problem, strawberry.union("JoinGameResult")]
ChoicesResult = Annotated[Choices | Problem, strawberry.union("ChoicesResult")]
SubmitChoiceResult = Annotated[SubmitResult | Problem, strawberry.union("SubmitChoiceResult")]
EventsResult = Annotated[EventPage | Problem, strawberry.union("EventsResult")]


def _container(info: Info) -> Container:
    container: Container = info.context["container"]
    return container


def _token(info: Info) -> str | None:
    """The bearer token of the HTTP request, or of the websocket's connection parameters."""
    params = info.context.get("connection_params")
    if isinstance(params, dict) and params.get("authorization"):
        return parse_bearer(str(params["authorization"]))
    request = info.context.get("request")
    header = request.headers.get("authorization") if request is not None else None
    return parse_bearer(header)


def _decision(data: dict[str, Any] | None) -> Decision | None:
    return Decision(**data) if data else None


def _game(public: GamePublic) -> Game:
    dumped = public.model_dump(mode="json")
    return Game(
        id=public.id,
        type=public.type,
        status=public.status,
        version=public.version,
        options=dumped["options"],
        seats=[Seat(seat=s.seat, name=s.name, bot=s.bot) for s in public.seats],
        max_players=public.max_players,
        state=dumped["state"],
        decision=_decision(dumped["decision"]),
        result=GameResult(**dumped["result"]) if dumped["result"] else None,
        seed=public.seed,
        seed_commitment=public.seed_commitment,
        created_at=public.created_at,
        viewer_seat=public.viewer.seat,
    )


def _problem(exc: Exception) -> Problem:
    if isinstance(exc, DomainError):
        return Problem(code=exc.code, status=exc.status, detail=exc.message)
    assert isinstance(exc, ValidationError)
    detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
    return Problem(code="invalid_request", status=422, detail=detail)


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
    def game_types(self, info: Info) -> list[GameType]:
        types = [GameTypePublic.of(e) for e in _container(info).service.registry]
        return [
            GameType(
                slug=t.slug,
                name=t.name,
                description=t.description,
                min_players=t.min_players,
                max_players=t.max_players,
                options=[GameOption(**o.model_dump()) for o in t.options],
                player_limits=cast(JSON, [p.model_dump() for p in t.player_limits]),
            )
            for t in types
        ]

    @strawberry.field(description="Games, newest first.")
    async def games(
        self,
        info: Info,
        status: str | None = None,
        type: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameSummary]:
        service = _container(info).service
        summaries = await run_in_threadpool(
            service.list_games, status, type, max(1, min(limit, 200)), max(0, offset)
        )
        return [
            GameSummary(
                id=s.id,
                type=s.game_type,
                status=s.status,
                players=s.players,
                version=s.version,
                created_at=s.created_at,
            )
            for s in summaries
        ]

    @strawberry.field(description="A game as the token's seat (or a spectator) sees it.")
    async def game(self, info: Info, id: str) -> GameOrProblem:
        service, token = _container(info).service, _token(info)

        def read() -> Game:
            match = service.load(id)
            return _game(GamePublic.of(match, service.viewer(match, token)))

        return await _attempt(read)

    @strawberry.field(description="What the token's seat must decide now, with every legal choice.")
    async def choices(self, info: Info, game_id: str) -> ChoicesResult:
        service, token = _container(info).service, _token(info)

        def read() -> Choices:
            pending = service.pending(game_id, token)
            return Choices(
                version=pending.version,
                decision=_decision(pending.decision),
                choices=[cast(JSON, c) for c in pending.choices],
            )

        return await _attempt(read)

    @strawberry.field(description="The game's events after a sequence number.")
    async def events(
        self, info: Info, game_id: str, after: int = 0, limit: int = 500
    ) -> EventsResult:
        service, token = _container(info).service, _token(info)

        def read() -> EventPage:
            _, events = service.events(game_id, token, max(0, after), max(1, min(limit, 1000)))
            return EventPage(
                events=[Event(**e) for e in events],
                last_seq=events[-1]["seq"] if events else after,
            )

        return await _attempt(read)


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Create a game; returns the host token and seed commitment.")
    async def create_game(
        self, info: Info, type: str, options: JSON | None = None, seed: str | None = None
    ) -> CreateGameResult:
        service = _container(info).service

        def create() -> GameCreated:
            body = GameCreate(type=type, options=options, seed=seed)
            public = GameCreatedPublic.of(service.create_game(body.type, body.options, body.seed))
            return GameCreated(**public.model_dump(exclude={"created_at"}))

        return await _attempt(create)

    @strawberry.mutation(description="Take the next free seat, as a human (name) or a bot (level).")
    async def join_game(
        self, info: Info, game_id: str, name: str | None = None, bot: str | None = None
    ) -> JoinGameResult:
        service = _container(info).service

        def join() -> SeatJoined:
            body = SeatCreate(name=name, bot=bot)
            joined = service.join(game_id, body.name or f"{body.bot} bot", body.bot)
            return SeatJoined(seat=joined.seat, token=joined.token, version=joined.version)

        return await _attempt(join)

    @strawberry.mutation(description="Start the game (host token).")
    async def start_game(self, info: Info, game_id: str) -> GameOrProblem:
        service, token = _container(info).service, _token(info)

        def start() -> Game:
            match = service.start(game_id, token)
            return _game(GamePublic.of(match, service.viewer(match, token)))

        return await _attempt(start)

    @strawberry.mutation(description="Abort the game (host token).")
    async def abort_game(self, info: Info, game_id: str) -> GameOrProblem:
        service, token = _container(info).service, _token(info)

        def abort() -> Game:
            match = service.abort(game_id, token)
            return _game(GamePublic.of(match, service.viewer(match, token)))

        return await _attempt(abort)

    @strawberry.mutation(description="Submit one of the listed choices (seat token).")
    async def submit_choice(
        self,
        info: Info,
        game_id: str,
        choice: JSON,
        version: int | None = None,
        idempotency_key: str | None = None,
    ) -> SubmitChoiceResult:
        service, token = _container(info).service, _token(info)

        def submit() -> SubmitResult:
            body = ChoiceSubmit(choice=choice, version=version)
            result = service.submit(game_id, token, body.choice, body.version, idempotency_key)
            return SubmitResult(
                status=result["status"],
                version=result["version"],
                events=[Event(**e) for e in result["events"]],
            )

        return await _attempt(submit)


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="A game's events as the token's seat may see them: history after `after`, "
        "then live (reveals the moment the last seat seals). Ends with the game."
    )
    async def game_events(
        self, info: Info, game_id: str, after: int = 0
    ) -> AsyncGenerator[Event, None]:
        container, token = _container(info), _token(info)
        match = await run_in_threadpool(container.service.load, game_id)
        seat = container.service.viewer(match, token).seat
        final_seq = match.last_seq if match.is_over else None
        metrics = container.metrics
        metrics.active_subscriptions.inc()
        try:
            async for event in game_event_stream(
                container, game_id, seat, max(0, after), final_seq
            ):
                yield Event(**event)
        finally:
            metrics.active_subscriptions.dec()


schema = strawberry.Schema(query=Query, mutation=Mutation, subscription=Subscription)


