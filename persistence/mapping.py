"""Explicit mapping between table rows and the domain ``Match`` / ``RecordedEvent``.

Rows travel as plain column mappings (SQLAlchemy Core) because the hot path loads and writes one
row per request: building ORM instances would only add overhead. JSON object keys are strings, so
seat numbers (``sealed``, ``private``) are turned into strings here and back into ints on load.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from domain.engine import Event
from domain.model.clocks import Timing
from domain.model.lobby import GameSummary, SeatSummary
from domain.model.match import Match, MatchStatus, RecordedEvent, Seat
from domain.model.takebacks import TakeBacks
from domain.registry import EngineRegistry
from persistence import fast_json


def game_values(match: Match, updated_at: datetime) -> dict[str, Any]:
    """Every column of the ``games`` row for ``match``."""
    return {
        "id": match.id,
        "game_type": match.game_type,
        "options": dict(match.options),
        "seed": match.seed,
        "seed_commitment": match.seed_commitment,
        "seed_salt": match.seed_salt,
        "seed_mode": match.seed_mode,
        "private": match.private,
        "invite_code_hash": match.invite_code_hash,
        "host_token_hash": match.host_token_hash,
        "status": match.status.value,
        "seats": [_seat_values(seat) for seat in match.seats],
        # Seats the server plays now (bots, stand-ins, people who let their last decision lapse)
        # and seats a person plays: a game whose people all lapsed or resigned counts as a game
        # of bots only (their cap counts it), even between two lapses.
        "bot_seats": sum(1 for seat in match.seats if match.served(seat.index)),
        "human_seats": sum(1 for seat in match.seats if not match.served(seat.index)),
        "version": match.version,
        "decision_version": match.decision_version,
        "sealed_versions": {str(seat): v for seat, v in match.sealed_versions.items()},
        "max_players": match.max_players,
        "awaited_seats": sorted(match.awaited_seats()),
        "state": match.engine.dump(match.state) if match.state is not None else None,
        "sealed": {str(seat): choice for seat, choice in match.sealed.items()},
        "last_seq": match.last_seq,
        "result": match.result,
        "timing": match.timing.dump(),
        "next_deadline": _utc_or_none(match.timing.next_deadline()),
        "rematch_of": match.rematch_of,
        "rematch_id": match.rematch_id,
        "creator_id": match.creator_id,
        "creator_address": match.creator_address,
        "clock_mode": match.timing.settings.mode,
        "blocked": list(match.blocked) or None,
        "takebacks": match.takebacks.dump(),
        "created_at": as_utc(match.created_at),
        "updated_at": as_utc(updated_at),
    }


FIXED_GAME_COLUMNS = frozenset(
    {
        "id",
        "game_type",
        "options",
        "seed",
        "seed_commitment",
        "seed_salt",
        "seed_mode",
        "private",
        "invite_code_hash",
        "host_token_hash",
        "creator_id",
        "creator_address",
        "clock_mode",
        "created_at",
    }
)
"""Columns of the ``games`` row a change never touches (identity, seed, creation): a change's
``UPDATE`` writes the others."""


_NOT_KEPT = frozenset({"state", "updated_at", "next_deadline"})
"""Columns a kept row leaves out: the state is kept apart, ``match_from_row`` reads neither time."""


def kept_row(values: Mapping[str, Any]) -> str:
    """``game_values`` as JSON, for ``row_from_kept``: every JSON column goes through the same
    encoder and decoder as through the database (the engine's ``json_serializer``), so the row
    read back from it equals the row a read would return, for ``match_from_row``."""
    row = {key: value for key, value in values.items() if key not in _NOT_KEPT}
    row["created_at"] = as_utc(row["created_at"]).isoformat()
    return fast_json.dumps(row)


def row_from_kept(text: str) -> dict[str, Any]:
    row: dict[str, Any] = fast_json.loads(text)
    row["created_at"] = datetime.fromisoformat(row["created_at"])
    return row


def match_from_row(row: Mapping[Any, Any], registry: EngineRegistry, live_state: Any | None = None) -> Match:
    """Rebuild the aggregate as stored, ready for a change guarded by ``loaded_version``;
    ``live_state``: an engine state equal to the row's, which then is not loaded again."""
    hosted = registry.game(row["game_type"])
    engine = hosted.engine
    state = live_state
    if state is None and row["state"] is not None:
        state = engine.load(row["state"])
    return Match(
        id=row["id"],
        engine=engine,
        options=dict(row["options"]),
        seed=row["seed"],
        seed_commitment=row["seed_commitment"],
        host_token_hash=row["host_token_hash"],
        created_at=as_utc(row["created_at"]),
        seed_salt=row["seed_salt"],
        seed_mode=row["seed_mode"],
        private=row["private"],
        invite_code_hash=row["invite_code_hash"],
        status=MatchStatus(row["status"]),
        seats=[_seat_from(values) for values in row["seats"]],
        version=row["version"],
        decision_version=row["decision_version"],
        sealed_versions={int(seat): v for seat, v in (row["sealed_versions"] or {}).items()},
        state=state,
        sealed={int(seat): choice for seat, choice in row["sealed"].items()},
        last_seq=row["last_seq"],
        result=row["result"],
        timing=Timing.load(row["timing"]),
        rematch_of=row["rematch_of"],
        rematch_id=row["rematch_id"],
        creator_id=row["creator_id"],
        creator_address=row["creator_address"],
        blocked=list(row["blocked"] or ()),
        takebacks=TakeBacks.load(row["takebacks"]),
        takeback_rules=hosted.takebacks,
        loaded_version=row["version"],
        new_events=[],
    )


def summary_from_row(row: Mapping[Any, Any]) -> GameSummary:
    return GameSummary(
        id=row["id"],
        game_type=row["game_type"],
        status=row["status"],
        players=len(row["seats"]),
        version=row["version"],
        created_at=as_utc(row["created_at"]),
        seed_mode=row["seed_mode"],
        max_players=row["max_players"],
        seats=tuple(
            SeatSummary(s["index"], s["name"], s.get("bot"), s.get("player_id")) for s in row["seats"]
        ),
        updated_at=as_utc(row["updated_at"]),
        awaiting=tuple(row["awaited_seats"] or ()),
        clock=Timing.load(row["timing"]).settings,
        creator_id=row["creator_id"],
    )


def event_values(game_id: str, recorded: RecordedEvent) -> dict[str, Any]:
    event = recorded.event
    return {
        "game_id": game_id,
        "seq": recorded.seq,
        "type": event.type,
        "data": dict(event.data),
        "private": {str(seat): dict(data) for seat, data in event.private.items()},
    }


def event_from_row(row: Mapping[Any, Any]) -> RecordedEvent:
    private = {int(seat): data for seat, data in row["private"].items()}
    return RecordedEvent(row["seq"], Event(row["type"], row["data"], private))


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive timestamps (we only ever store UTC); PostgreSQL aware ones."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _utc_or_none(moment: datetime | None) -> datetime | None:
    return as_utc(moment) if moment is not None else None


def _seat_values(seat: Seat) -> dict[str, Any]:
    """A bot seat is stored without a token hash: no token exists for it."""
    return {
        "index": seat.index,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "bot": seat.bot,
        "player_id": seat.player_id,
        "confirmed": seat.confirmed,
        "stand_in": seat.stand_in,
        "address_hash": seat.address_hash,
        "decisions": seat.decisions,
    }


def _seat_from(values: Mapping[str, Any]) -> Seat:
    return Seat(
        values["index"],
        values["name"],
        values["token_hash"],
        values.get("bot"),
        player_id=values.get("player_id"),
        confirmed=values.get("confirmed", True),
        stand_in=values.get("stand_in"),
        address_hash=values.get("address_hash"),
        decisions=values.get("decisions"),
    )
