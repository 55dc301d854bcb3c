"""GraphQL tournaments: one tournament with its standings and its rounds' pairings (each table's
seats and game), read through the same ``TournamentService`` and REST mappings as
``/v1/tournaments/{id}``, so both APIs show the same numbers; the life cycle's mutations (create,
register, unregister, start, withdraw, cancel) with the same problems as REST; and the
``tournamentEvents`` subscription, the same events as the SSE stream
(``api.live.tournament_events``)."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime
from typing import Annotated

import strawberry
from strawberry import ID
from strawberry.scalars import JSON
from strawberry.types import Info

from api.graphql.common import (
    IDEMPOTENCY_KEY_ADAPTER,
    Problem,
    attempt,
    caller_of_info,
    container_of,
    token_of,
)
from api.graphql.game_data import GameOptionsArgument, UntypedOptionsArgument, given_options
from api.graphql.games import ClockInput
from api.live.tournament_events import tournament_event_stream, tournament_follower
from api.rest.models.tournament_events import EVENT_TYPES
from api.rest.models.tournaments import TournamentCreate, TournamentPublic, rounds_of, standings_of
from domain.tournaments.tournament import Tournament as TournamentAggregate


@strawberry.type(description="A registered player (its rating in the game type when registering).")
class TournamentEntrant:
    player_id: ID
    name: str
    rating: float
    withdrawn: bool


@strawberry.type(description="A standings line: points, Buchholz, Sonneborn-Berger, then rating.")
class TournamentStanding:
    rank: int
    player_id: ID
    name: str
    points: float
    games: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    rating: float
    withdrawn: bool
    reached: int = strawberry.field(description="Elimination: the last round played (else 0).")
    eliminated: bool


@strawberry.type(description="A seat of a round game: who sits there, and its place once it ended.")
class PairingSeat:
    seat: int
    player_id: ID
    name: str
    rank: int | None


@strawberry.type(description="One game of a round: its seats in order and the game to follow.")
class Pairing:
    number: int
    game_id: ID
    seats: list[PairingSeat]
    finished: bool


@strawberry.type(description="A round: its pairings and the players with a bye.")
class TournamentRound:
    round: int
    pairings: list[Pairing]
    byes: list[ID]


@strawberry.type(description="A tournament: settings, status, entrants, standings and rounds.")
class Tournament:
    id: ID
    name: str
    game_type: str
    format: str = strawberry.field(description="round_robin, swiss or single_elimination")
    status: str = strawberry.field(description="registering, running, finished or cancelled")
    rounds_planned: int
    current_round: int
    table_size: int
    starts_at: datetime | None
    next_round_at: datetime | None
    rated: bool
    entrants: list[TournamentEntrant]
    standings: list[TournamentStanding]
    rounds: list[TournamentRound]


TournamentResult = Annotated[Tournament | Problem, strawberry.union("TournamentResult")]


@strawberry.type(
    description="A created tournament: its host token (and a private one's invite code), shown once."
)
class TournamentCreated:
    tournament: Tournament
    host_token: str
    invite_code: str | None


TournamentCreatedResult = Annotated[TournamentCreated | Problem, strawberry.union("TournamentCreatedResult")]


@strawberry.type(
    description="An event of a tournament: `seq` is its position (the tournament's version after "
    "it), `data` is typed by `type` as the REST schema it names ("
    + ", ".join(f"{k}: {v}" for k, v in EVENT_TYPES.items())
    + ")."
)
class TournamentEvent:
    seq: int
    type: str
    tournament_id: ID
    data: JSON
    data_player: TournamentPlayerData | None = strawberry.field(
        default=None, description="`data` of `player_registered`, `player_unregistered`, `player_withdrew`."
    )
    data_started: TournamentStartedData | None = strawberry.field(
        default=None, description="`data` of `tournament_started`."
    )
    data_cancelled: TournamentCancelledData | None = strawberry.field(
        default=None, description="`data` of `tournament_cancelled`."
    )
    data_round_started: TournamentRoundStartedData | None = strawberry.field(
        default=None, description="`data` of `round_started`."
    )
    data_game_finished: TournamentGameFinishedData | None = strawberry.field(
        default=None, description="`data` of `game_finished` (a table of a round)."
    )
    data_round_finished: TournamentRoundFinishedData | None = strawberry.field(
        default=None, description="`data` of `round_finished`."
    )
    data_finished: TournamentFinishedData | None = strawberry.field(
        default=None, description="`data` of `tournament_finished`."
    )


@strawberry.type(description="A player who registered, unregistered or withdrew.")
class TournamentPlayerData:
    player: str
    name: str


@strawberry.type(description="A tournament's start.")
class TournamentStartedData:
    players: int
    rounds: int


@strawberry.type(
    description="`host`: its host cancelled it; `not_enough_players`: too few at the start time."
)
class TournamentCancelledData:
    reason: str


@strawberry.type(description="A round paired and its games created.")
class TournamentRoundStartedData:
    round: int
    tables: list[list[str]]
    byes: list[str]
    games: list[str]


@strawberry.type(description="A table's game of a round ended: each seat's finishing place.")
class TournamentGameFinishedData:
    round: int
    table: int
    game_id: str
    ranks: list[int]


@strawberry.type(description="A round's last game ended.")
class TournamentRoundFinishedData:
    round: int


@strawberry.type(description="The tournament ended: the first of the final standings.")
class TournamentFinishedData:
    winner: str | None


TYPED_DATA: dict[str, tuple[str, type]] = {
    "player_registered": ("data_player", TournamentPlayerData),
    "player_unregistered": ("data_player", TournamentPlayerData),
    "player_withdrew": ("data_player", TournamentPlayerData),
    "tournament_started": ("data_started", TournamentStartedData),
    "tournament_cancelled": ("data_cancelled", TournamentCancelledData),
    "round_started": ("data_round_started", TournamentRoundStartedData),
    "game_finished": ("data_game_finished", TournamentGameFinishedData),
    "round_finished": ("data_round_finished", TournamentRoundFinishedData),
    "tournament_finished": ("data_finished", TournamentFinishedData),
}
"""Each event type's typed sibling of ``data`` (the REST schema's fields, as GraphQL types)."""


def typed_data(kind: str, data: dict[str, object]) -> dict[str, object]:
    """The keyword giving ``data`` its typed sibling (none for a type this server does not know)."""
    if kind not in TYPED_DATA:
        return {}
    name, cls = TYPED_DATA[kind]
    fields = cls.__annotations__
    return {name: cls(**{key: data.get(key, [] if "list" in str(fields[key]) else None) for key in fields})}


def tournament_of(t: TournamentAggregate) -> Tournament:
    public = TournamentPublic.of(t)
    return Tournament(
        id=ID(public.id),
        name=public.name,
        game_type=public.game_type,
        format=public.format,
        status=public.status,
        rounds_planned=public.rounds,
        current_round=public.current_round,
        table_size=public.table_size,
        starts_at=public.starts_at,
        next_round_at=public.next_round_at,
        rated=public.rated,
        entrants=[
            TournamentEntrant(player_id=ID(e.player_id), name=e.name, rating=e.rating, withdrawn=e.withdrawn)
            for e in public.entrants
        ],
        standings=[
            TournamentStanding(**{**row.model_dump(), "player_id": ID(row.player_id)})
            for row in standings_of(t)
        ],
        rounds=[
            TournamentRound(
                round=r.round,
                pairings=[
                    Pairing(
                        number=table.number,
                        game_id=ID(table.game_id),
                        seats=[
                            PairingSeat(seat=s.seat, player_id=ID(s.player_id), name=s.name, rank=s.rank)
                            for s in table.seats
                        ],
                        finished=table.finished,
                    )
                    for table in r.tables
                ],
                byes=[ID(b) for b in r.byes],
            )
            for r in rounds_of(t)
        ],
    )


@strawberry.type
class TournamentQuery:
    @strawberry.field(description="A tournament with its standings and every round's pairings.")
    async def tournament(self, info: Info, id: ID) -> TournamentResult:
        tournaments = container_of(info).tournaments
        return await attempt(lambda: tournament_of(tournaments.get(id)))


@strawberry.type
class TournamentMutation:
    @strawberry.mutation(
        description="Create a tournament (as `POST /v1/tournaments`): returns its host token (and "
        "a private one's invite code), shown once. With `idempotencyKey`, a retry with the same "
        "arguments answers the same tournament and tokens; with other arguments, "
        "`idempotency_key_reused`."
    )
    async def create_tournament(
        self,
        info: Info,
        name: str,
        game_type: str,
        format: Annotated[str, strawberry.argument(description="round_robin, swiss or single_elimination")],
        options: UntypedOptionsArgument = None,
        game_options: GameOptionsArgument = None,
        clock: ClockInput | None = None,
        rounds: int | None = None,
        table_size: int | None = None,
        min_table_size: int | None = None,
        max_players: int = 64,
        starts_at: datetime | None = None,
        private: bool = False,
        rated: bool = True,
        pause_seconds: int = 0,
        idempotency_key: str | None = None,
    ) -> TournamentCreatedResult:
        tournaments, caller = container_of(info).tournaments, caller_of_info(info)

        def create() -> TournamentCreated:
            body = TournamentCreate.model_validate(
                {
                    "name": name,
                    "game_type": game_type,
                    "format": format,
                    "options": given_options(options, game_options, game_type),
                    "clock": vars(clock) if clock is not None else None,
                    "rounds": rounds,
                    "table_size": table_size,
                    "min_table_size": min_table_size,
                    "max_players": max_players,
                    "starts_at": starts_at,
                    "private": private,
                    "rated": rated,
                    "pause_seconds": pause_seconds,
                }
            )
            created = tournaments.create(
                body.settings(),
                idempotency_key=IDEMPOTENCY_KEY_ADAPTER.validate_python(idempotency_key),
                caller=caller,
            )
            return TournamentCreated(
                tournament=tournament_of(created.tournament),
                host_token=created.host_token,
                invite_code=created.invite_code,
            )

        return await attempt(create)

    @strawberry.mutation(description="Register the calling player (a player token) before the start.")
    async def register_for_tournament(
        self, info: Info, tournament_id: ID, invite_code: str | None = None
    ) -> TournamentResult:
        tournaments, token = container_of(info).tournaments, token_of(info)
        return await attempt(lambda: tournament_of(tournaments.register(tournament_id, token, invite_code)))

    @strawberry.mutation(description="Take back the calling player's registration before the start.")
    async def unregister_from_tournament(self, info: Info, tournament_id: ID) -> TournamentResult:
        tournaments, token = container_of(info).tournaments, token_of(info)
        return await attempt(lambda: tournament_of(tournaments.unregister(tournament_id, token)))

    @strawberry.mutation(description="Leave a running tournament for good (the running game is resigned).")
    async def withdraw_from_tournament(self, info: Info, tournament_id: ID) -> TournamentResult:
        tournaments, token = container_of(info).tournaments, token_of(info)
        return await attempt(lambda: tournament_of(tournaments.withdraw(tournament_id, token)))

    @strawberry.mutation(description="Close registration and start round 1 now (host token).")
    async def start_tournament(self, info: Info, tournament_id: ID) -> TournamentResult:
        tournaments, token = container_of(info).tournaments, token_of(info)
        return await attempt(lambda: tournament_of(tournaments.start(tournament_id, token)))

    @strawberry.mutation(description="Cancel a tournament that has not started (host token).")
    async def cancel_tournament(self, info: Info, tournament_id: ID) -> TournamentResult:
        tournaments, token = container_of(info).tournaments, token_of(info)
        return await attempt(lambda: tournament_of(tournaments.cancel(tournament_id, token)))


@strawberry.type
class TournamentSubscription:
    @strawberry.subscription(
        description="A tournament's events (public, as its standings are): the stored ones after "
        "`after` (a `seq`), then live, no gap and nothing twice; resume with the last `seq` "
        "received. Ends after `tournament_finished` or `tournament_cancelled`."
    )
    async def tournament_events(
        self, info: Info, tournament_id: ID, after: int = 0
    ) -> AsyncGenerator[TournamentEvent, None]:
        container = container_of(info)
        follower = await tournament_follower(container, tournament_id)
        container.metrics.active_subscriptions.inc()
        try:
            stream = tournament_event_stream(
                container, follower.tournament_id, max(0, after), follower.final_seq
            )
            async for event, _ in stream:
                yield TournamentEvent(
                    seq=event.seq,
                    type=event.event.type,
                    tournament_id=ID(follower.tournament_id),
                    data=dict(event.event.data),  # type: ignore[arg-type]
                    **typed_data(event.event.type, dict(event.event.data)),  # type: ignore[arg-type]
                )
        finally:
            container.metrics.active_subscriptions.dec()
