"""Games: create, list, read, seat players, start, abort, choices and event history."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Path, Query, Response

from api.deps import (
    AddressDep,
    CallerDep,
    CoreDep,
    LanguageDep,
    LobbyDep,
    PlayDep,
    PlayersDep,
    PresenceDep,
    ReadsDep,
    RematchesDep,
    ReplaysDep,
    SeatsDep,
    StandingDep,
    TokenDep,
)
from api.edge.input_limits import IDEMPOTENCY_KEY, INT32_MAX
from api.openapi.contract import problems
from api.rest.conditional import CACHE_CONTROL, NOT_MODIFIED, VARY, IfNoneMatch, game_etag, matches
from api.rest.models.games import (
    GameCreate,
    GameCreated,
    GamePagePublic,
    GamePublic,
    changed_game,
    translated_decision,
)
from api.rest.models.play import (
    ChoicesPublic,
    ChoiceSubmit,
    EventPublic,
    EventsPage,
    ReplayPublic,
    SubmitResultPublic,
)
from api.rest.models.seats import SeatCreate, SeatCreated
from domain.model.clocks import CLOCK_MODES
from domain.model.idempotency import (
    MAX_KEY_LENGTH,
    MIN_TOKEN_KEY_LENGTH,
    TOKEN_KEY_PATTERN,
    TOKEN_KEY_RULE,
)
from domain.model.lobby import CURSOR_PATTERN, MAX_FILTER_SEATS, LobbyFilter
from domain.services.core import Viewer
from domain.services.seating import creator_of, take_seat

router = APIRouter(prefix="/v1/games", tags=["games"])


TokenKeyHeader = Annotated[
    str | None,
    Header(
        max_length=MAX_KEY_LENGTH,
        description="Repeat the request safely: its retry answers with the same token, so the key "
        f"is {TOKEN_KEY_RULE} Reused with another body: 422.",
        json_schema_extra={"minLength": MIN_TOKEN_KEY_LENGTH, "pattern": TOKEN_KEY_PATTERN},
    ),
]
"""Checked by the service (``invalid_idempotency_key``), which the schema describes exactly."""


@router.post(
    "",
    status_code=201,
    operation_id="createGame",
    openapi_extra=problems(
        ("unknown_game_type", 422),
        "invalid_options",
        "invalid_seed",
        "invalid_idempotency_key",
        "idempotency_key_reused",
        "too_many_listed_games",
    ),
)
def create_game(
    body: GameCreate,
    lobby: LobbyDep,
    players: PlayersDep,
    token: TokenDep,
    response: Response,
    caller: CallerDep,
    address: AddressDep,
    idempotency_key: TokenKeyHeader = None,
) -> GameCreated:
    """Create a game of a type with options; returns the host token and the seed commitment.

    With a player token (``Authorization: Bearer``) a public game is listed in the lobby under
    that player's name (a bounded number of open ones per player and per client address);
    without one it is reached by its link only."""
    clock = body.clock.settings() if body.clock is not None else None
    created = lobby.create_game(
        body.type,
        body.options,
        body.seed,
        body.seed_mode,
        body.private,
        idempotency_key,
        clock,
        caller=caller,
        creator_id=creator_of(players, token),
        address=address,
        takebacks=body.takebacks,
    )
    return located(response, GameCreated.of(created))


def located(response: Response, created: GameCreated) -> GameCreated:
    """A 201 names the created game in ``Location``."""
    response.headers["Location"] = f"{router.prefix}/{created.id}"
    return created


@router.get("", operation_id="listGames", openapi_extra=problems(("unknown_game_type", 422)))
def list_games(
    lobby: LobbyDep,
    lang: LanguageDep,
    response: Response,
    status: Annotated[str | None, Query(pattern="^(lobby|in_progress|finished|aborted)$")] = None,
    type: Annotated[str | None, Query(max_length=64, description="A game-type slug.")] = None,
    joinable: Annotated[
        bool | None,
        Query(description="true: lobbies with a free seat; false: every other game."),
    ] = None,
    open_seats: Annotated[
        int | None,
        Query(ge=1, le=MAX_FILTER_SEATS, description="Lobbies with at least this many free seats."),
    ] = None,
    players: Annotated[
        int | None,
        Query(
            ge=1,
            le=MAX_FILTER_SEATS,
            description="Games for exactly this many players (seats, with the game's options).",
        ),
    ] = None,
    clock: Annotated[
        str | None,
        Query(
            pattern=f"^({'|'.join(CLOCK_MODES)})$",
            description="The turn clock's mode; `none`: games without a clock.",
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    cursor: Annotated[
        str | None,
        Query(
            max_length=512,
            pattern=CURSOR_PATTERN,
            description="`next_cursor` of the previous page, verbatim (opaque, URL-safe base64); "
            "leave it out for the first page. A value of this form the service did not issue is "
            "refused with 422 `invalid_request`.",
        ),
    ] = None,
) -> GamePagePublic:
    """List public games, newest first, by status, type, joinability, free seats, player count
    and clock: one page at a time. Lobbies are listed only when a player identity created them."""
    where = LobbyFilter(status, type, joinable, open_seats, players, clock)
    response.headers["Content-Language"] = lang
    return GamePagePublic.of(lobby.list_games(where, limit, cursor), lang)


@router.get(
    "/{game_id}",
    operation_id="getGame",
    response_model=GamePublic,
    responses=NOT_MODIFIED,
    openapi_extra=problems("game_not_found"),
)
def get_game(
    game_id: str,
    core: CoreDep,
    presence: PresenceDep,
    standing: StandingDep,
    token: TokenDep,
    lang: LanguageDep,
    response: Response,
    if_none_match: IfNoneMatch = None,
) -> GamePublic | Response:
    """Read a game as the token's seat sees it (no token: as a spectator).

    The answer's weak ``ETag`` changes with the game's version and the connected seats, and
    differs per viewer; send it back in ``If-None-Match`` to get ``304 Not Modified`` while
    nothing happened."""
    match = core.load(game_id)
    viewer = core.viewer(match, token)
    connected = presence.connected(match.id)
    etag = game_etag(match.id, match.version, viewer, lang, connected=connected)
    headers = {"ETag": etag, "Vary": VARY, "Cache-Control": CACHE_CONTROL, "Content-Language": lang}
    if matches(if_none_match, etag):
        return Response(status_code=304, headers=headers)
    response.headers.update(headers)
    catalog = core.registry.catalog(match.game_type)
    return GamePublic.of(match, catalog, viewer, connected, lang, *standing.rating_facts(match))


@router.post(
    "/{game_id}/seats",
    status_code=201,
    operation_id="joinGame",
    openapi_extra=problems(
        "game_not_found",
        "forbidden",
        "invite_required",
        "game_not_in_lobby",
        "game_full",
        "seat_blocked",
        "unknown_bot_level",
        "invalid_name",
        "invalid_idempotency_key",
        "idempotency_key_reused",
    ),
)
def join_game(
    game_id: str,
    body: SeatCreate,
    seats: SeatsDep,
    players: PlayersDep,
    rematches: RematchesDep,
    token: TokenDep,
    response: Response,
    caller: CallerDep,
    address: AddressDep,
    idempotency_key: TokenKeyHeader = None,
) -> SeatCreated:
    """Take the next free seat as a named human (returns the seat token), or seat a bot (host token).

    With a player token (``Authorization: Bearer``) the seat is tied to that player; with the
    seat token of the previous game, a rematch seat held for it is taken."""
    joined = take_seat(
        seats,
        players,
        rematches,
        game_id,
        name=body.name,
        bot=body.bot,
        token=token,
        invite_code=body.invite_code,
        idempotency_key=idempotency_key,
        caller=caller,
        address=address,
    )
    response.headers["Location"] = f"{router.prefix}/{game_id}/seats/{joined.seat}"
    return SeatCreated(seat=joined.seat, token=joined.token, version=joined.version)


@router.delete(
    "/{game_id}/seats/{seat}",
    operation_id="removeSeat",
    openapi_extra=problems("game_not_found", "forbidden", "seat_not_found", "game_not_in_lobby"),
)
def remove_seat(
    game_id: str,
    seat: Annotated[int, Path(ge=0, le=64)],
    seats: SeatsDep,
    presence: PresenceDep,
    token: TokenDep,
    block: Annotated[
        bool,
        Query(
            description="Host only: whoever took the seat (its player identity and the client "
            "address it sat down from) cannot sit down in this game again (403 seat_blocked)."
        ),
    ] = False,
) -> GamePublic:
    """Free a lobby seat: the host removes any seat (and may block its taker), a seat (its own
    token) leaves. Later seats move up one place."""
    match = seats.remove_seat(game_id, seat, token, block)
    return changed_game(seats.core, presence, match, token)


@router.post(
    "/{game_id}/start",
    operation_id="startGame",
    openapi_extra=problems(
        "game_not_found", "forbidden", "game_not_in_lobby", "not_enough_players", "too_many_bot_only_games"
    ),
)
def start_game(
    game_id: str,
    seats: SeatsDep,
    presence: PresenceDep,
    token: TokenDep,
    lang: LanguageDep,
    response: Response,
) -> GamePublic:
    """Start the game (host token)."""
    match = seats.start(game_id, token)
    response.headers["Content-Language"] = lang
    return changed_game(seats.core, presence, match, token, lang)


@router.post(
    "/{game_id}/abort",
    operation_id="abortGame",
    openapi_extra=problems("game_not_found", "forbidden", "game_over"),
)
def abort_game(
    game_id: str,
    seats: SeatsDep,
    presence: PresenceDep,
    token: TokenDep,
    lang: LanguageDep,
    response: Response,
) -> GamePublic:
    """Abort the game (host token); its seed is revealed."""
    match = seats.abort(game_id, token)
    response.headers["Content-Language"] = lang
    return changed_game(seats.core, presence, match, token, lang)


@router.post(
    "/{game_id}/rematch",
    status_code=201,
    operation_id="rematchGame",
    openapi_extra=problems("game_not_found", "game_not_finished", "rematch_exists"),
)
def rematch_game(game_id: str, rematches: RematchesDep, token: TokenDep, response: Response) -> GameCreated:
    """Create the next game of a finished one: same type, options, clock and seats.

    Host or seat token. Bots sit down at once; each person takes their seat by joining it with
    their previous seat token (or player token). Both games link to each other."""
    return located(response, GameCreated.of(rematches.create(game_id, token)))


@router.post(
    "/{game_id}/resign",
    operation_id="resignSeat",
    openapi_extra=problems(
        "game_not_found", "forbidden", "game_not_in_progress", "game_over", "seat_resigned"
    ),
)
def resign_seat(game_id: str, seats: SeatsDep, presence: PresenceDep, token: TokenDep) -> GamePublic:
    """Resign the token's seat: a bot plays it to the end, and the result says who resigned."""
    match = seats.resign(game_id, token)
    return changed_game(seats.core, presence, match, token)


@router.post(
    "/{game_id}/return",
    operation_id="returnToSeat",
    openapi_extra=problems(
        "game_not_found", "forbidden", "game_not_in_progress", "game_over", "seat_resigned"
    ),
)
def return_to_seat(game_id: str, seats: SeatsDep, presence: PresenceDep, token: TokenDep) -> GamePublic:
    """Take the seat back from the bot that played it since its clock ran out."""
    match = seats.return_to_seat(game_id, token)
    return changed_game(seats.core, presence, match, token)


@router.get(
    "/{game_id}/replay",
    operation_id="replayGame",
    openapi_extra=problems("game_not_found", "game_not_finished", "seat_not_found", "forbidden"),
)
def replay_game(
    game_id: str,
    replays: ReplaysDep,
    token: TokenDep,
    at: Annotated[
        int,
        Query(
            ge=0,
            le=INT32_MAX,
            description="Show the game after this event (beyond the last: as it ended).",
        ),
    ],
    seat: Annotated[
        int | None,
        Query(
            ge=0,
            le=MAX_FILTER_SEATS - 1,
            description="As this seat (0 to the game's seats - 1; a seat the game does not have "
            "is 404 seat_not_found); absent: spectator (a game not yet ended: the token's seat).",
        ),
    ] = None,
) -> ReplayPublic:
    """A game as it stood after event ``at``, as a seat or a spectator saw it then: an ended game
    for anyone, as any seat; a game still in progress only for its seats, each with its own token
    and as itself (another seat: 403 forbidden; no token: 409 game_not_finished), so it shows
    nothing that seat did not see. ``moves`` lists the events after which the board changed."""
    return ReplayPublic.of(replays.at(game_id, at, seat, token))


@router.get(
    "/{game_id}/choices",
    operation_id="getChoices",
    response_model=ChoicesPublic,
    responses=NOT_MODIFIED,
    openapi_extra=problems("game_not_found"),
)
def get_choices(
    game_id: str,
    play: PlayDep,
    token: TokenDep,
    lang: LanguageDep,
    response: Response,
    if_none_match: IfNoneMatch = None,
) -> ChoicesPublic | Response:
    """What the token's seat must decide now, with every legal choice (``ETag`` as for the game)."""
    pending = play.pending(game_id, token)
    etag = game_etag(game_id, pending.version, Viewer(seat=pending.seat), lang, "choices")
    headers = {"ETag": etag, "Vary": VARY, "Cache-Control": CACHE_CONTROL, "Content-Language": lang}
    if matches(if_none_match, etag):
        return Response(status_code=304, headers=headers)
    response.headers.update(headers)
    return ChoicesPublic(
        game_type=pending.game_type,
        version=pending.version,
        decision_version=pending.decision_version,
        decision=translated_decision(pending.decision, play.core.registry.catalog(pending.game_type), lang),
        choices=pending.choices,
    )


@router.post(
    "/{game_id}/choices",
    operation_id="submitChoice",
    openapi_extra=problems(
        "game_not_found",
        "forbidden",
        "game_not_in_progress",
        "game_over",
        "seat_resigned",
        "not_your_decision",
        "version_conflict",
        "illegal_choice",
        "idempotency_key_reused",
    ),
)
async def submit_choice(
    game_id: str,
    body: ChoiceSubmit,
    play: PlayDep,
    token: TokenDep,
    lang: LanguageDep,
    response: Response,
    idempotency_key: Annotated[
        str | None,
        Header(
            min_length=1,
            max_length=128,
            pattern=f"^{IDEMPOTENCY_KEY.pattern}$",
            description="Repeat a submit safely: 1 to 128 printable ASCII characters without "
            "spaces, kept per seat. Reused with another body: 422.",
        ),
    ] = None,
) -> SubmitResultPublic:
    """Submit one of the listed choices: sealed (others still choosing) or applied (the next
    decision's prompt in ``lang``)."""
    answer = await play.submit_async(
        game_id, token, body.choice, body.version, idempotency_key, body.decision_version
    )
    response.headers["Content-Language"] = lang
    return SubmitResultPublic.of(answer, play.core.registry.catalog(answer.game_type), lang)


@router.get("/{game_id}/events", operation_id="listEvents", openapi_extra=problems("game_not_found"))
def list_events(
    game_id: str,
    reads: ReadsDep,
    token: TokenDep,
    after: Annotated[int, Query(ge=0, le=INT32_MAX)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 500,
) -> EventsPage:
    """The game's events after sequence number ``after``, as the token's seat may see them."""
    _, game_type, events = reads.events_of_game(game_id, token, after, limit)
    last = events[-1]["seq"] if events else after
    return EventsPage(
        game_type=game_type, events=[EventPublic.model_validate(e) for e in events], last_seq=last
    )
