"""GraphQL games: the game as a viewer sees it, the lobby page, and creating, starting, aborting
and rematching games."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import strawberry
from strawberry import ID
from strawberry.scalars import JSON
from strawberry.types import Info

from api.graphql.common import (
    IDEMPOTENCY_KEY_ADAPTER,
    Problem,
    address_of_info,
    attempt,
    caller_of_info,
    container_of,
    in_range,
    lang_of,
    token_of,
)
from api.graphql.game_data import (
    GameOptionsArgument,
    TypedDecision,
    TypedOptions,
    TypedResult,
    TypedSealedChoice,
    TypedState,
    UntypedOptionsArgument,
    given_options,
)
from api.graphql.ratings import UnratedReason
from api.rest.models.games import GameCreate, GamePagePublic, GamePublic, changed_game
from api.rest.models.games import GameCreated as GameCreatedPublic
from domain.model.clocks import MIN_CLOCK_SECONDS
from domain.model.lobby import MAX_FILTER_SEATS, LobbyFilter
from domain.services.seating import creator_of


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
    lapses: int = strawberry.field(
        description="Its clock's lapses in a row (a stand-in bot played the decision); any decision "
        "its player makes resets the count."
    )


@strawberry.type
class GameClock:
    mode: str
    seconds: float
    increment: float
    on_expiry: str
    stand_in: str = strawberry.field(description="The bot level that plays a seat handed to the stand-in.")
    inactivity_days: float | None = strawberry.field(
        description="A clock-less game: days of silence after which a stand-in bot takes a seat "
        "until it acts again (null: the game has a clock, or no limit)."
    )
    lapses_before_stand_in: int | None = strawberry.field(
        description="A clock with onExpiry bot: after this many lapses in a row the stand-in bot "
        "keeps the seat until its player acts again. Null otherwise."
    )
    seats: list[SeatClock]


@strawberry.input
class ClockInput:
    mode: str = "none"
    seconds: float | None = strawberry.field(
        default=None,
        description=f"At least {MIN_CLOCK_SECONDS:g} s (a decision's limit, or a Fischer bank).",
    )
    increment: float | None = None
    on_expiry: str = "bot"
    stand_in: str = strawberry.field(
        default="greedy",
        description="The bot level that plays a seat handed to the stand-in: random, greedy or strong.",
    )


@strawberry.type
class Decision(TypedDecision, TypedSealedChoice):
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
class GameResult(TypedResult):
    game_type: strawberry.Private[str]
    scores: list[int]
    winners: list[int]
    details: JSON
    resigned: list[int]
    forfeited: list[int]


@strawberry.type(description="A take-back request waiting for answers.")
class TakeBackRequest:
    seat: int = strawberry.field(description="The seat that asks to take back its latest decision.")
    waiting: list[int] = strawberry.field(description="Seats that must still accept (or refuse).")
    accepted: list[int] = strawberry.field(description="Seats that accepted.")


@strawberry.type(description="Take-backs: allowed in this game, possible now, the open request.")
class TakeBacks:
    allowed: bool
    can_take_back: bool = strawberry.field(
        description="The viewer's seat has a decision it may take back now (others who decided "
        "since are asked first)."
    )
    request: TakeBackRequest | None


@strawberry.type(description="Who is reading: a seat, the host, or (neither) a spectator.")
class Viewer:
    seat: int | None
    host: bool


@strawberry.type
class Game(TypedState, TypedOptions):
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
    rated: bool = strawberry.field(
        description="Whether the game counts for ratings with its settings and seats as they are "
        "now; a finished game: whether it did."
    )
    unrated_reasons: list[UnratedReason] = strawberry.field(description="Why not (empty when rated).")
    takebacks: TakeBacks


@strawberry.type
class SeatSummary:
    seat: int
    name: str
    bot: str | None


@strawberry.type(description="Who created a listed game, and how often they finish games.")
class Creator:
    id: ID
    name: str
    finished_games: int
    finishing_rate: float | None = strawberry.field(
        description="Share of their ended games they played to the end; null before the first."
    )


@strawberry.type
class ClockSummary:
    mode: str
    seconds: float
    increment: float
    on_expiry: str
    stand_in: str


@strawberry.type
class GameSummary:
    id: ID
    type: str
    status: str
    players: int
    max_players: int
    seats: list[SeatSummary]
    awaiting: list[int] = strawberry.field(description="Whose turn it is: the seats the game waits for now.")
    version: int
    created_at: datetime
    updated_at: datetime
    seed_mode: str
    open_seats: int
    age_seconds: int
    clock: ClockSummary
    creator: Creator | None = strawberry.field(
        description="The player identity that created the game (every listed lobby has one)."
    )
    rated: bool = strawberry.field(description="Rated if its free seats are taken by player identities.")
    unrated_reasons: list[UnratedReason] = strawberry.field(
        description="Why it will not be rated (empty when rated), as in the game view."
    )


@strawberry.type(description="One page of the lobby: pass `nextCursor` as `cursor` for the next.")
class GamePage:
    items: list[GameSummary]
    total: int
    next_cursor: str | None


@strawberry.type
class GameCreated(TypedOptions):
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
    listed: bool = strawberry.field(
        description="Shown in the public lobby: a public game created with a player token."
    )
    takebacks: bool = strawberry.field(description="Whether seats may take back decisions in this game.")


GameOrProblem = Annotated[Game | Problem, strawberry.union("GameOrProblem")]
GamePageOrProblem = Annotated[GamePage | Problem, strawberry.union("GamePageOrProblem")]


CreateGameResult = Annotated[GameCreated | Problem, strawberry.union("CreateGameResult")]


def decision_of(data: dict[str, Any] | None) -> Decision | None:
    return Decision(**data) if data else None


def game_of(public: GamePublic) -> Game:
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
        decision=decision_of(dumped["decision"]),
        result=GameResult(**dumped["result"], game_type=public.type) if dumped["result"] else None,
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
            stand_in=public.clock.stand_in,
            inactivity_days=public.clock.inactivity_days,
            lapses_before_stand_in=public.clock.lapses_before_stand_in,
            seats=[SeatClock(**c.model_dump()) for c in public.clock.seats],
        ),
        rated=public.rated,
        unrated_reasons=[UnratedReason(**r.model_dump()) for r in public.unrated_reasons],
        takebacks=TakeBacks(
            allowed=public.takebacks.allowed,
            can_take_back=public.takebacks.can_take_back,
            request=TakeBackRequest(**public.takebacks.request.model_dump())
            if public.takebacks.request is not None
            else None,
        ),
    )


def page_of(public: GamePagePublic) -> GamePage:
    """A lobby page as GraphQL shows it."""
    return GamePage(
        items=[
            GameSummary(
                **s.model_dump(exclude={"seats", "clock", "creator", "unrated_reasons"}),
                seats=[SeatSummary(**seat.model_dump()) for seat in s.seats],
                unrated_reasons=[UnratedReason(**r.model_dump()) for r in s.unrated_reasons],
                clock=ClockSummary(**s.clock.model_dump()),
                creator=Creator(**s.creator.model_dump()) if s.creator else None,
            )
            for s in public.items
        ],
        total=public.total,
        next_cursor=public.next_cursor,
    )


@strawberry.type
class GameQuery:
    @strawberry.field(
        description="Public games, newest first, by status, type, joinability (true: lobbies "
        "with a free seat), free seats (`openSeats`: at least), player count (`players`) and "
        "clock mode, one page at a time. Lobbies are listed only when a player created them."
    )
    async def games(
        self,
        info: Info,
        status: str | None = None,
        type: str | None = None,
        joinable: bool | None = None,
        limit: int = 50,
        cursor: str | None = None,
        open_seats: int | None = None,
        players: int | None = None,
        clock: str | None = None,
        lang: str | None = None,
    ) -> GamePageOrProblem:
        lobby, language = container_of(info).lobby, lang_of(info, lang)

        def listed() -> GamePage:
            seats = None if open_seats is None else in_range("openSeats", open_seats, 1, MAX_FILTER_SEATS)
            count = None if players is None else in_range("players", players, 1, MAX_FILTER_SEATS)
            where = LobbyFilter(status, type, joinable, seats, count, clock)
            page = lobby.list_games(where, in_range("limit", limit, 1, 200), cursor)
            return page_of(GamePagePublic.of(page, language))

        return await attempt(listed)

    @strawberry.field(description="A game as the token's seat (or a spectator) sees it.")
    async def game(self, info: Info, id: ID, lang: str | None = None) -> GameOrProblem:
        core, token, language = container_of(info).core, token_of(info), lang_of(info, lang)
        presence, standing = container_of(info).presence, container_of(info).standing

        def read() -> Game:
            match = core.load(id)
            return game_of(
                GamePublic.of(
                    match,
                    core.registry.catalog(match.game_type),
                    core.viewer(match, token),
                    presence.connected(match.id),
                    language,
                    *standing.rating_facts(match),
                )
            )

        return await attempt(read)


@strawberry.type
class GameMutation:
    @strawberry.mutation(description="Create a game; returns the host token and seed commitment.")
    async def create_game(
        self,
        info: Info,
        type: str,
        options: UntypedOptionsArgument = None,
        game_options: GameOptionsArgument = None,
        seed: str | None = None,
        seed_mode: str | None = None,
        private: bool = False,
        idempotency_key: str | None = None,
        clock: ClockInput | None = None,
        takebacks: Annotated[
            bool | None,
            strawberry.argument(
                description="Whether a seat may take back a decision that revealed nothing; null: "
                "off for a game that may be rated (a clock and the server's seed), on otherwise."
            ),
        ] = None,
    ) -> CreateGameResult:
        lobby, caller = container_of(info).lobby, caller_of_info(info)
        players, token, address = container_of(info).players, token_of(info), address_of_info(info)

        def create() -> GameCreated:
            body = GameCreate.model_validate(
                {
                    "type": type,
                    "options": given_options(options, game_options, type),
                    "seed": seed,
                    "seed_mode": seed_mode,
                    "private": private,
                    "clock": vars(clock) if clock is not None else None,
                    "takebacks": takebacks,
                }
            )
            public = GameCreatedPublic.of(
                lobby.create_game(
                    body.type,
                    body.options,
                    body.seed,
                    body.seed_mode,
                    body.private,
                    IDEMPOTENCY_KEY_ADAPTER.validate_python(idempotency_key),
                    body.clock.settings() if body.clock is not None else None,
                    caller=caller,
                    creator_id=creator_of(players, token),
                    address=address,
                    takebacks=body.takebacks,
                )
            )
            return GameCreated(**public.model_dump())

        return await attempt(create)

    @strawberry.mutation(description="Start the game (host token).")
    async def start_game(self, info: Info, game_id: ID) -> GameOrProblem:
        seats, token = container_of(info).seats, token_of(info)
        presence = container_of(info).presence

        def start() -> Game:
            match = seats.start(game_id, token)
            return game_of(changed_game(seats.core, presence, match, token))

        return await attempt(start)

    @strawberry.mutation(description="Abort the game (host token).")
    async def abort_game(self, info: Info, game_id: ID) -> GameOrProblem:
        seats, token = container_of(info).seats, token_of(info)
        presence = container_of(info).presence

        def abort() -> Game:
            match = seats.abort(game_id, token)
            return game_of(changed_game(seats.core, presence, match, token))

        return await attempt(abort)

    @strawberry.mutation(
        description="The next game of a finished one (host or seat token): same type, options, "
        "clock and seats; people take their seats by joining with their previous seat token."
    )
    async def rematch_game(self, info: Info, game_id: ID) -> CreateGameResult:
        rematches, token = container_of(info).rematches, token_of(info)

        def rematch() -> GameCreated:
            public = GameCreatedPublic.of(rematches.create(game_id, token))
            return GameCreated(**public.model_dump())

        return await attempt(rematch)
