"""Ratings: leaderboards and player profiles."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from domain.i18n import DEFAULT_LANGUAGE, platform_texts
from domain.model.ratings import WHY_UNRATED, Finishing, Rating, RatingChange, SeatResult
from domain.services.standing import Leaderboard, Profile, Standing, TableSeat


class UnratedReasonPublic(BaseModel):
    """Why a game does not count for ratings."""

    code: str = Field(description="One of: " + ", ".join(WHY_UNRATED) + ".")
    text: str = Field(description="The reason in the asked language (?lang=, Accept-Language).")


def unrated_public(reasons: list[str], lang: str = DEFAULT_LANGUAGE) -> list[UnratedReasonPublic]:
    texts = platform_texts(lang)
    return [UnratedReasonPublic(code=code, text=texts[f"unrated.{code}"]) for code in reasons]


class RatingPublic(BaseModel):
    game_type: str
    rating: float = Field(description="The conservative display value: mu - 3 sigma.")
    mu: float = Field(description="Estimated skill (OpenSkill Plackett-Luce; starts at 25).")
    sigma: float = Field(description="Uncertainty of mu (starts at 25/3, shrinks with games).")
    games: int = Field(description="Rated games played.")
    provisional: bool = Field(description="Fewer than 5 rated games: the value is still moving fast.")

    @classmethod
    def of(cls, rating: Rating) -> RatingPublic:
        return cls(
            game_type=rating.game_type,
            rating=rating.display,
            mu=rating.mu,
            sigma=rating.sigma,
            games=rating.games,
            provisional=rating.provisional,
        )


class StandingPublic(RatingPublic):
    rank: int = Field(description="Place on the leaderboard (1 is best).")
    subject: str = Field(description="A player id, or bot:<level> for a bot level.")
    kind: str = Field(description="player or bot")
    name: str
    established: bool = Field(
        description="A bot level, or a player with 3 rated games against established opponents "
        "(bot levels or established players): established lines rank above every line that is "
        "not, whatever their rating."
    )
    finishing: FinishingPublic | None = Field(
        description="A player's finishing rate (games played to the end); null for a bot level."
    )

    @classmethod
    def of_standing(cls, standing: Standing) -> StandingPublic:
        return cls(
            **RatingPublic.of(standing.rating).model_dump(),
            rank=standing.rank,
            subject=standing.rating.subject,
            kind=standing.kind,
            name=standing.name,
            established=standing.established,
            finishing=FinishingPublic.of(standing.finishing) if standing.finishing else None,
        )


class LeaderboardPublic(BaseModel):
    game_type: str
    entries: list[StandingPublic]
    next_cursor: str | None = Field(description="Pass back as cursor for the next page; null: last.")

    @classmethod
    def of(cls, board: Leaderboard) -> LeaderboardPublic:
        return cls(
            game_type=board.game_type,
            entries=[StandingPublic.of_standing(s) for s in board.entries],
            next_cursor=board.next_cursor,
        )


class RatingChangePublic(BaseModel):
    game_id: str
    game_type: str
    at: datetime
    seat: int
    rank: int
    rating_before: float
    rating: float = Field(description="The display value after this game.")
    mu: float
    sigma: float

    @classmethod
    def of(cls, change: RatingChange) -> RatingChangePublic:
        return cls(
            game_id=change.game_id,
            game_type=change.after.game_type,
            at=change.at,
            seat=change.seat,
            rank=change.rank,
            rating_before=change.before.display,
            rating=change.after.display,
            mu=change.after.mu,
            sigma=change.after.sigma,
        )


class GameResultPublic(BaseModel):
    game_id: str
    game_type: str
    seat: int
    rank: int = Field(description="1 is best; a seat that resigned or forfeited ranks last.")
    outcome: str = Field(description="finished, resigned or timed_out")
    rated: bool
    at: datetime
    replay: str = Field(description="Path of the game's replay.")

    @classmethod
    def of(cls, result: SeatResult) -> GameResultPublic:
        return cls(
            game_id=result.game_id,
            game_type=result.game_type,
            seat=result.seat,
            rank=result.rank,
            outcome=result.outcome,
            rated=result.rated,
            at=result.at,
            replay=f"/v1/games/{result.game_id}/replay",
        )


class FinishingPublic(BaseModel):
    finished: int
    resigned: int
    timed_out: int
    rate: float | None = Field(description="Share of finished games played to the end; null: none yet.")

    @classmethod
    def of(cls, finishing: Finishing) -> FinishingPublic:
        return cls(
            finished=finishing.finished,
            resigned=finishing.resigned,
            timed_out=finishing.timed_out,
            rate=finishing.rate,
        )


class ProfilePublic(BaseModel):
    id: str
    name: str
    ratings: list[RatingPublic]
    history: list[RatingChangePublic] = Field(description="Rating after each rated game, newest first.")
    recent_games: list[GameResultPublic]
    finishing: FinishingPublic

    @classmethod
    def of(cls, profile: Profile) -> ProfilePublic:
        return cls(
            id=profile.player_id,
            name=profile.name,
            ratings=[RatingPublic.of(r) for r in profile.ratings],
            history=[RatingChangePublic.of(c) for c in profile.history],
            recent_games=[GameResultPublic.of(r) for r in profile.recent],
            finishing=FinishingPublic.of(profile.finishing),
        )


class TableSeatPublic(BaseModel):
    seat: int
    name: str
    subject: str | None = Field(
        description="The player id, bot:<level> for a bot seat, or null for an anonymous seat."
    )
    rating: RatingPublic | None = Field(description="In this game's type; null: none yet.")
    finishing: FinishingPublic | None = Field(description="A player's finishing rate; null: not a player.")

    @classmethod
    def of(cls, seat: TableSeat) -> TableSeatPublic:
        return cls(
            seat=seat.seat,
            name=seat.name,
            subject=seat.subject,
            rating=RatingPublic.of(seat.rating) if seat.rating else None,
            finishing=FinishingPublic.of(seat.finishing) if seat.finishing else None,
        )


class TableRatingsPublic(BaseModel):
    game_id: str
    seats: list[TableSeatPublic]
