"""The SQL rating repository: current ratings, their history, and players' game results."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.orm import Session

from domain.model.ratings import Finishing, Rating, RatingChange, SeatResult
from persistence.mapping import as_utc
from persistence.tables import game_results, players, rating_changes, ratings


class SqlRatingRepository:
    """``domain.ports.ratings.RatingRepository`` on the unit of work's session."""

    def __init__(self, session: Session, before_write: Callable[[], None]) -> None:
        self.session = session
        self._before_write = before_write

    def ratings(self, game_type: str, subjects: Sequence[str]) -> dict[str, Rating]:
        rows = self.session.execute(
            select(ratings).where(ratings.c.game_type == game_type, ratings.c.subject.in_(subjects))
        ).mappings()
        return {row["subject"]: _rating(row) for row in rows}

    def record(self, changes: Sequence[RatingChange], results: Sequence[SeatResult]) -> None:
        """The history rows go in first: their primary key (game, subject) makes a second count
        of one game fail the whole transaction before any rating moves."""
        if not changes and not results:
            return
        self._before_write()
        if changes:
            self.session.execute(insert(rating_changes), [_change_values(c) for c in changes])
        for change in changes:
            after = change.after
            values = {
                "mu": after.mu,
                "sigma": after.sigma,
                "display": after.display,
                "games": after.games,
                "anchored": after.anchored,
                "established": after.established,
                "updated_at": as_utc(change.at),
            }
            if change.before.games == 0:
                self.session.execute(
                    insert(ratings).values(subject=after.subject, game_type=after.game_type, **values)
                )
            else:
                self.session.execute(
                    update(ratings)
                    .where(ratings.c.subject == after.subject, ratings.c.game_type == after.game_type)
                    .values(**values)
                )
        if results:
            self.session.execute(insert(game_results), [_result_values(r) for r in results])

    def rated_together(self, a: str, b: str, game_type: str, since: datetime) -> int:
        first, second = rating_changes.alias("first"), rating_changes.alias("second")
        count = self.session.execute(
            select(func.count())
            .select_from(first.join(second, first.c.game_id == second.c.game_id))
            .where(
                first.c.subject == a,
                second.c.subject == b,
                first.c.game_type == game_type,
                first.c.at >= as_utc(since),
            )
        ).scalar_one()
        return int(count)

    def finishing(self, player_ids: Sequence[str]) -> dict[str, Finishing]:
        rows = self.session.execute(
            select(game_results.c.player_id, game_results.c.outcome, func.count())
            .where(game_results.c.player_id.in_(player_ids))
            .group_by(game_results.c.player_id, game_results.c.outcome)
        ).all()
        counts: dict[str, dict[str, int]] = {}
        for player_id, outcome, count in rows:
            counts.setdefault(player_id, {})[outcome] = int(count)
        return {player_id: Finishing(**by_outcome) for player_id, by_outcome in counts.items()}

    def leaderboard(
        self, game_type: str, min_games: int, limit: int, after: tuple[bool, float, str] | None
    ) -> builtins.list[Rating]:
        query = select(ratings).where(ratings.c.game_type == game_type, ratings.c.games >= min_games)
        if after is not None:
            established, display, subject = after
            same_tier = or_(
                ratings.c.display < display,
                and_(ratings.c.display == display, ratings.c.subject > subject),
            )
            tier = ratings.c.established == established
            # After an established line: the rest of its tier, then every line that is not.
            below = ratings.c.established == False  # noqa: E712 (a column, not a bool)
            query = query.where(or_(and_(tier, same_tier), below) if established else and_(tier, same_tier))
        query = query.order_by(
            ratings.c.established.desc(), ratings.c.display.desc(), ratings.c.subject
        ).limit(limit)
        return [_rating(row) for row in self.session.execute(query).mappings()]

    def history(self, subject: str, game_type: str | None, limit: int) -> builtins.list[RatingChange]:
        query = select(rating_changes).where(rating_changes.c.subject == subject)
        if game_type is not None:
            query = query.where(rating_changes.c.game_type == game_type)
        query = query.order_by(rating_changes.c.at.desc(), rating_changes.c.game_id).limit(limit)
        return [_change(row) for row in self.session.execute(query).mappings()]

    def results(self, player_id: str, limit: int) -> builtins.list[SeatResult]:
        rows = self.session.execute(
            select(game_results)
            .where(game_results.c.player_id == player_id)
            .order_by(game_results.c.at.desc(), game_results.c.game_id)
            .limit(limit)
        ).mappings()
        return [
            SeatResult(
                r["player_id"],
                r["game_id"],
                r["game_type"],
                r["seat"],
                r["rank"],
                r["outcome"],
                r["rated"],
                as_utc(r["at"]),
            )
            for r in rows
        ]

    def of_subject(self, subject: str) -> builtins.list[Rating]:
        rows = self.session.execute(
            select(ratings).where(ratings.c.subject == subject).order_by(ratings.c.game_type)
        ).mappings()
        return [_rating(row) for row in rows]

    def player_names(self, player_ids: Sequence[str]) -> dict[str, str]:
        rows = self.session.execute(
            select(players.c.id, players.c.name).where(players.c.id.in_(player_ids))
        ).all()
        return {player_id: name for player_id, name in rows}

    def game_rated(self, game_id: str) -> bool | None:
        rated = self.session.execute(
            select(game_results.c.rated).where(game_results.c.game_id == game_id).limit(1)
        ).scalar_one_or_none()
        return None if rated is None else bool(rated)


def _rating(row: Any) -> Rating:
    return Rating(row["subject"], row["game_type"], row["mu"], row["sigma"], row["games"], row["anchored"])


def _change(row: Any) -> RatingChange:
    subject, game_type = row["subject"], row["game_type"]
    before = Rating(subject, game_type, row["mu_before"], row["sigma_before"], row["games_before"])
    after = Rating(subject, game_type, row["mu"], row["sigma"], row["games_before"] + 1)
    return RatingChange(row["game_id"], row["seat"], row["rank"], before, after, as_utc(row["at"]))


def _change_values(change: RatingChange) -> dict[str, Any]:
    return {
        "game_id": change.game_id,
        "subject": change.after.subject,
        "game_type": change.after.game_type,
        "seat": change.seat,
        "rank": change.rank,
        "mu_before": change.before.mu,
        "sigma_before": change.before.sigma,
        "games_before": change.before.games,
        "mu": change.after.mu,
        "sigma": change.after.sigma,
        "at": as_utc(change.at),
    }


def _result_values(result: SeatResult) -> dict[str, Any]:
    return {
        "game_id": result.game_id,
        "seat": result.seat,
        "player_id": result.player_id,
        "game_type": result.game_type,
        "rank": result.rank,
        "outcome": result.outcome,
        "rated": result.rated,
        "at": as_utc(result.at),
    }
