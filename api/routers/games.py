"""Games: create, list, read, seat players, start, abort, choices and event history."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query

from api.deps import ServiceDep, TokenDep
from api.schemas import (
    ChoicesPublic,
    ChoiceSubmit,
    DecisionPublic,
    EventPublic,
    EventsPage,
    GameCreate,
    GameCreated,
    GamePublic,
    GameSummaryPublic,
    Problem,
    SeatCreate,
    SeatCreated,
    SubmitResultPublic,
)

router = APIRouter(prefix="/v1/games", tags=["games"])

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": Problem} for status in (400, 401, 403, 404, 409, 413, 422, 429)
}



@router.post("", status_code=201, operation_id="createGame", responses=ERRORS)
def create_game(body: GameCreate, service: ServiceDep) -> GameCreated:
    """Create a game of a type with options; returns the host token and the seed commitment."""
    return GameCreated.of(service.create_game(body.type, body.options, body.seed))


@router.get("", operation_id="listGames", responses=ERRORS)
def list_games(
    service: ServiceDep,
    status: Annotated[
        str | None, Query(pattern="^(lobby|in_progress|finished|aborted)$")
    ] = None,
    type: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> list[GameSummaryPublic]:
    """List games, newest first, optionally by status and type."""
    return [GameSummaryPublic.of(s) for s in service.list_games(status, type, limit, offset)]


@router.get("/{game_id}", operation_id="getGame", responses=ERRORS)
def get_game(game_id: str, service: ServiceDep, token: TokenDep) -> GamePublic:
    """Read a game as the token's seat sees it (no token: as a spectator)."""
    match = service.load(game_id)
    return GamePublic.of(match, service.viewer(match, token))


@router.post("/{game_id}/seats", status_code=201, operation_id="joinGame", responses=ERRORS)
def join_game(game_id: str, body: SeatCreate, service: ServiceDep) -> SeatCreated:
    """Take the next free seat, as a named human or as a bot; returns the seat token."""
    joined = service.join(game_id, body.name or f"{body.bot} bot", body.bot)
    return SeatCreated(seat=joined.seat, token=joined.token, version=joined.version)


@router.post("/{game_id}/start", operation_id="startGame", responses=ERRORS)
def start_game(game_id: str, service: ServiceDep, token: TokenDep) -> GamePublic:
    """Start the game (host token)."""
    match = service.start(game_id, token)
    return GamePublic.of(match, service.viewer(match, token))


@router.post("/{game_id}/abort", operation_id="abortGame", responses=ERRORS)
def abort_game(game_id: str, service: ServiceDep, token: TokenDep) -> GamePublic:
    """Abort the game (host token); its seed is revealed."""
    match = service.abort(game_id, token)
    return GamePublic.of(match, service.viewer(match, token))


@router.get("/{game_id}/choices", operation_id="getChoices", responses=ERRORS)
def get_choices(game_id: str, service: ServiceDep, token: TokenDep) -> ChoicesPublic:
    """What the token's seat must decide now, with every legal choice."""
    pending = service.pending(game_id, token)
    return ChoicesPublic(
        version=pending.version,
        decision=DecisionPublic(**pending.decision) if pending.decision else None,
        choices=pending.choices,
    )


@router.post("/{game_id}/choices", operation_id="submitChoice", responses=ERRORS)
def submit_choice(
    game_id: str,
    body: ChoiceSubmit,
    service: ServiceDep,
    token: TokenDep,
    idempotency_key: Annotated[
        str | None, Header(max_length=128, description="Repeat a submit safely.")
    ] = None,
) -> SubmitResultPublic:
    """Submit one of the listed choices: sealed (others still choosing) or applied."""
    result = service.submit(game_id, token, body.choice, body.version, idempotency_key)
    return SubmitResultPublic.model_validate(result)


@router.get("/{game_id}/events", operation_id="listEvents", responses=ERRORS)
def list_events(
    game_id: str,
    service: ServiceDep,
    token: TokenDep,
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 500,
) -> EventsPage:
    """The game's events after sequence number ``after``, as the token's seat may see them."""
    _, events = service.events(game_id, token, after, limit)
    last = events[-1]["seq"] if events else after
    return EventsPage(events=[EventPublic.model_validate(e) for e in events], last_seq=last)
