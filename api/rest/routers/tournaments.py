"""Tournaments: create, register, start, follow (standings, rounds and their games)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from api.deps import CallerDep, TokenDep, TournamentsDep
from api.edge.input_limits import INT32_MAX
from api.openapi.contract import problems
from api.rest.models.tournament_events import TournamentEventsPage, event_body
from api.rest.models.tournaments import (
    RegistrationCreate,
    RoundPublic,
    StandingRowPublic,
    StatusName,
    TournamentCreate,
    TournamentCreatedPublic,
    TournamentPublic,
    rounds_of,
    standings_of,
)
from api.rest.routers.games import TokenKeyHeader

router = APIRouter(prefix="/v1/tournaments", tags=["tournaments"])

REGISTRATION = ("tournament_not_found", "registration_closed")


@router.post(
    "",
    status_code=201,
    operation_id="createTournament",
    openapi_extra=problems(
        ("unknown_game_type", 422),
        "invalid_options",
        "invalid_request",
        "invalid_name",
        "invalid_idempotency_key",
        "idempotency_key_reused",
    ),
)
def create_tournament(
    body: TournamentCreate,
    tournaments: TournamentsDep,
    response: Response,
    caller: CallerDep,
    idempotency_key: TokenKeyHeader = None,
) -> TournamentCreatedPublic:
    """Create a tournament; returns its host token (and a private one's invite code), shown once.
    With `Idempotency-Key`, a retry with the same body answers the same tournament and tokens."""
    created = tournaments.create(body.settings(), idempotency_key=idempotency_key, caller=caller)
    response.headers["Location"] = f"{router.prefix}/{created.tournament.id}"
    return TournamentCreatedPublic(
        tournament=TournamentPublic.of(created.tournament),
        host_token=created.host_token,
        invite_code=created.invite_code,
    )


@router.get("", operation_id="listTournaments", openapi_extra=problems())
def list_tournaments(
    tournaments: TournamentsDep,
    status: StatusName | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=INT32_MAX)] = 0,
) -> list[TournamentPublic]:
    """Public tournaments, newest first."""
    return [TournamentPublic.of(t) for t in tournaments.list_public(status, limit, offset)]


@router.get("/{tournament_id}", operation_id="getTournament", openapi_extra=problems("tournament_not_found"))
def get_tournament(tournament_id: str, tournaments: TournamentsDep) -> TournamentPublic:
    """A tournament: its settings, status and entrants."""
    return TournamentPublic.of(tournaments.get(tournament_id))


@router.get(
    "/{tournament_id}/standings",
    operation_id="getTournamentStandings",
    openapi_extra=problems("tournament_not_found"),
)
def get_standings(tournament_id: str, tournaments: TournamentsDep) -> list[StandingRowPublic]:
    """Standings, best first: points, Buchholz, Sonneborn-Berger, rating (elimination: round reached)."""
    return standings_of(tournaments.get(tournament_id))


@router.get(
    "/{tournament_id}/rounds",
    operation_id="listTournamentRounds",
    openapi_extra=problems("tournament_not_found"),
)
def list_rounds(tournament_id: str, tournaments: TournamentsDep) -> list[RoundPublic]:
    """Every round so far: its tables (seats in order, each game's link and result) and byes."""
    return rounds_of(tournaments.get(tournament_id))


@router.get(
    "/{tournament_id}/events",
    operation_id="listTournamentEvents",
    openapi_extra=problems("tournament_not_found"),
)
def list_events(
    tournament_id: str,
    tournaments: TournamentsDep,
    after: Annotated[int, Query(ge=0, le=INT32_MAX, description="Events after this `seq`.")] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> TournamentEventsPage:
    """The tournament's stored events after `after`, oldest first (what its stream resumes from)."""
    tournament = tournaments.get(tournament_id)
    found = tournaments.events(tournament.id, after, limit)
    return TournamentEventsPage.model_validate(
        {"events": [event_body(tournament.id, e) for e in found], "last_seq": tournament.version}
    )


@router.post(
    "/{tournament_id}/registrations",
    operation_id="registerForTournament",
    openapi_extra=problems(*REGISTRATION, "already_registered", "tournament_full", ("invite_required", 403)),
)
def register(
    tournament_id: str, body: RegistrationCreate, tournaments: TournamentsDep, token: TokenDep
) -> TournamentPublic:
    """Register the calling player (a player token) before the tournament starts (body `{}`, or a
    private tournament's `invite_code`)."""
    return TournamentPublic.of(tournaments.register(tournament_id, token, body.invite_code))


@router.delete(
    "/{tournament_id}/registrations/me",
    operation_id="unregisterFromTournament",
    openapi_extra=problems(*REGISTRATION, "not_registered"),
)
def unregister(tournament_id: str, tournaments: TournamentsDep, token: TokenDep) -> TournamentPublic:
    """Take back the calling player's registration before the tournament starts."""
    return TournamentPublic.of(tournaments.unregister(tournament_id, token))


@router.post(
    "/{tournament_id}/withdrawal",
    operation_id="withdrawFromTournament",
    openapi_extra=problems(
        "tournament_not_found",
        "not_registered",
        "already_withdrawn",
        "tournament_over",
        "registration_closed",
    ),
)
def withdraw(tournament_id: str, tournaments: TournamentsDep, token: TokenDep) -> TournamentPublic:
    """Leave a running tournament for good: no more pairings, the running game is resigned."""
    return TournamentPublic.of(tournaments.withdraw(tournament_id, token))


@router.post(
    "/{tournament_id}/start",
    operation_id="startTournament",
    openapi_extra=problems(*REGISTRATION, "forbidden", "not_enough_players"),
)
def start(tournament_id: str, tournaments: TournamentsDep, token: TokenDep) -> TournamentPublic:
    """Close registration and start round 1 now (host token)."""
    return TournamentPublic.of(tournaments.start(tournament_id, token))


@router.post(
    "/{tournament_id}/cancel",
    operation_id="cancelTournament",
    openapi_extra=problems("tournament_not_found", "forbidden", "tournament_over", "tournament_running"),
)
def cancel(tournament_id: str, tournaments: TournamentsDep, token: TokenDep) -> TournamentPublic:
    """Cancel a tournament that has not started (host token)."""
    return TournamentPublic.of(tournaments.cancel(tournament_id, token))
