"""The data of events a random game to its end never records, written by hand for the published
``<Game>Event`` and ``<Game>EventType`` schemas.

The platform's own events (a resignation, a lapsed clock, a seat left in the lobby, an abort) have
one shape in every game; a few engine events are rare enough that drafting from random games
misses them (a tile nobody can place). Without them a typed client fails on the first such event.
A test collects every type the engines and the platform can record and fails when one is missing.
"""

from __future__ import annotations

from typing import Any

from domain.model.clocks import EXPIRY_ACTIONS

SEAT = {"type": "integer", "minimum": 0}
SEED_SALT = {"type": ["string", "null"], "description": "Null for a game seeded without a salt."}


def _object(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": list(required),
        "additionalProperties": False,
    }


PLATFORM_EVENTS: dict[str, dict[str, Any]] = {
    "seat_joined": _object(
        {
            "seat": SEAT,
            "name": {"type": "string"},
            "bot": {"type": ["string", "null"], "description": "The bot level of a bot's seat."},
        }
    ),
    "seat_left": _object(
        {"seat": SEAT, "name": {"type": "string"}, "removed_by": {"enum": ["host", "self"]}}
    ),
    "game_started": _object({"players": {"type": "integer", "minimum": 1}}),
    "game_aborted": _object(
        {"seed": {"type": "string"}, "seed_salt": SEED_SALT},
        {"reason": {"enum": ["lobby_expired"], "description": "Absent when the host aborted."}},
    ),
    "seat_resigned": _object({"seat": SEAT}),
    "clock_expired": _object(
        {"seat": SEAT, "action": {"enum": list(EXPIRY_ACTIONS)}},
        {
            "until": {
                "enum": ["decision", "return"],
                "description": "With action bot: the stand-in plays this decision only, or the "
                "seat until its player acts again (after repeated lapses).",
            },
            "lapses": {"type": "integer", "minimum": 1, "description": "Lapses in a row so far."},
        },
    ),
    "seat_returned": _object({"seat": SEAT}),
    "takeback_requested": _object(
        {
            "seat": {**SEAT, "description": "The seat that asks to take back its latest decision."},
            "waiting": {"type": "array", "items": SEAT, "description": "Seats that must still answer."},
            "accepted": {"type": "array", "items": SEAT, "description": "Seats the server plays: accepted."},
        }
    ),
    "takeback_accepted": _object(
        {"seat": SEAT, "by": SEAT, "waiting": {"type": "array", "items": SEAT}},
    ),
    "takeback_refused": _object({"seat": SEAT, "by": SEAT}),
    "takeback_cancelled": _object(
        {
            "seat": SEAT,
            "reason": {
                "enum": ["game_moved", "seat_quit"],
                "description": "A choice was made before the last answer, or a seat left the game.",
            },
        }
    ),
    "taken_back": _object(
        {
            "seat": SEAT,
            "undone": {
                "type": "array",
                "items": {"type": "integer"},
                "description": "The versions of the decisions taken back (the seat's and any after it).",
            },
            "accepted": {"type": "array", "items": SEAT, "description": "The seats that consented."},
            "view": {"type": "object", "description": "The game as this viewer sees it now."},
        }
    ),
}
"""Platform events of one shape in every game (``game_over``, ``choice_applied`` and
``choice_sealed`` carry game-specific data and are drafted per game, then completed here)."""

CHOICE_SEALED = _object(
    {"seat": SEAT, "sealed": {"type": "array", "items": SEAT}, "waiting": {"type": "array", "items": SEAT}},
    {
        "replaced": {"type": "boolean"},
        "choice": {"type": "object", "description": "The sealed choice: only in its own seat's view."},
    },
)
"""``choice_sealed`` of a game without simultaneous decisions (never recorded; listed for
completeness, so every game's enum holds every platform event)."""

GAME_OVER_FIELDS = {
    "seed_salt": SEED_SALT,
    "resigned": {"type": "array", "items": SEAT},
    "forfeited": {"type": "array", "items": SEAT},
}
"""Fields of ``game_over`` that random games show only in one form (no salt, nobody quitting)."""

RARE_EVENTS: dict[str, dict[str, dict[str, Any] | str]] = {
    "carcassonne": {
        "tile_discarded": "tile_drawn",
        "abbey_passed": _object({"seat": SEAT}),
    },
    "im-schutze-der-burg": {
        "payment_narrowed": _object(
            {
                "seat": SEAT,
                "building": {"type": "string"},
                "resource": {"type": "string"},
                "count": {"type": "integer", "minimum": 0},
            }
        ),
        "damsel": _object(
            {
                "bids": {
                    "type": "object",
                    "propertyNames": {"pattern": "^[0-9]+$"},
                    "additionalProperties": {"type": "integer", "minimum": 0},
                },
                "winner": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "Null on a tie (nobody wins the bid).",
                },
                "vp": {"type": "integer", "minimum": 0},
            }
        ),
    },
}
"""Engine events random games rarely reach, by game: a schema, or the drafted event whose data
has the same shape."""


def complete(slug: str, drafted: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every event's data schema of a game: the drafted ones, the platform's own, the rare ones."""
    events = {"choice_sealed": CHOICE_SEALED, **drafted, **PLATFORM_EVENTS}
    over = events.get("game_over")
    if over is not None and "properties" in over:
        over = {**over, "properties": {**over["properties"], **GAME_OVER_FIELDS}}
        events["game_over"] = over
    for kind, shape in RARE_EVENTS.get(slug, {}).items():
        if kind not in events:
            events[kind] = drafted[shape] if isinstance(shape, str) else shape
    return dict(sorted(events.items()))
