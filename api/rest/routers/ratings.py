"""Ratings: leaderboards per game type and player profiles."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import StandingDep
from api.openapi.contract import problems
from api.rest.models.ratings import LeaderboardPublic, ProfilePublic, TableRatingsPublic, TableSeatPublic

router = APIRouter(prefix="/v1", tags=["ratings"])


@router.get(
    "/leaderboards/{game_type}",
    operation_id="getLeaderboard",
    openapi_extra=problems(("unknown_game_type", 404), "invalid_request"),
)
def get_leaderboard(
    game_type: str,
    standing: StandingDep,
    min_games: Annotated[int, Query(ge=0, le=100_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    cursor: str | None = None,
) -> LeaderboardPublic:
    """Players and bot levels by display rating, best first, in cursor pages."""
    return LeaderboardPublic.of(standing.leaderboard(game_type, min_games, limit, cursor))


@router.get(
    "/players/{player_id}/profile",
    operation_id="getPlayerProfile",
    openapi_extra=problems("player_not_found"),
)
def get_profile(player_id: str, standing: StandingDep, game_type: str | None = None) -> ProfilePublic:
    """A player's ratings, rating history, recent games and finishing rate (public)."""
    return ProfilePublic.of(standing.profile(player_id, game_type))


@router.get(
    "/games/{game_id}/ratings",
    operation_id="getTableRatings",
    openapi_extra=problems("game_not_found"),
)
def get_table_ratings(game_id: str, standing: StandingDep) -> TableRatingsPublic:
    """Each seat's rating in the game's type and each player's finishing rate, for the table."""
    seats = [TableSeatPublic.of(seat) for seat in standing.table(game_id)]
    return TableRatingsPublic(game_id=game_id, seats=seats)
