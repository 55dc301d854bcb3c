"""Examples for the OpenAPI document: one per request and response schema, taken from a real
Im Schutze der Burg game (states trimmed). A test validates each against its schema, so an
example cannot drift from the shape it illustrates."""

from __future__ import annotations

from typing import Any

from api.openapi.chat_examples import CHAT_EXAMPLES
from api.openapi.notice_examples import NOTICE_EXAMPLES
from api.openapi.social_examples import SOCIAL_EXAMPLES
from api.openapi.takeback_examples import TAKEBACK_EXAMPLES, TAKEBACKS_OFF
from api.openapi.tournament_examples import TOURNAMENT_EXAMPLES
from api.openapi.webhooks import SCHEMAS_ADDED as WEBHOOK_PAYLOADS
from domain.catalog import describe
from domain.model.seeding import rng_for_seed
from domain.registry import default_registry

GAME_ID = "7f45cbf378cd4603930a96c6041f05c2"
PLAYER_ID = "62cffe19492b40b0ac51f5a3fd4619a7"
WEBHOOK_ID = "9f21c74b444d4532be89a8d73ce7a009"
CREATED_AT = "2026-11-23T15:17:10.611186Z"
TOKEN = "MQjI8DCG0K9YS-9-snKkOrYdn_---xdkv3j3BDV8y4I"
COMMITMENT = "ed577aa4369c709d41ae58e8b277958d81ce200d27dccf9a0716269d984fd3e2"

SEATS = [
    {"seat": 0, "name": "Ann", "bot": None, "stand_in": None, "confirmed": True, "connected": True},
    {
        "seat": 1,
        "name": "greedy bot",
        "bot": "greedy",
        "stand_in": None,
        "confirmed": True,
        "connected": False,
    },
]
PICK = {"cards": ["messenger", "trader"]}
DECISION = {
    "kind": "pick_cards",
    "prompt": "Choose your character card(s) for this round.",
    "seats": [0, 1],
    "simultaneous": True,
    "sealed": [],
    "your_sealed_choice": None,
    "decision_version": 3,
    "data": {"round": 1, "cards_to_choose": 2},
}
SUMMARY_SEAT = {"seat": 0, "name": "Ann", "bot": None}
SUMMARY = {
    "id": GAME_ID,
    "type": "im-schutze-der-burg",
    "status": "lobby",
    "players": 1,
    "max_players": 4,
    "seats": [SUMMARY_SEAT],
    "awaiting": [],
    "version": 1,
    "created_at": CREATED_AT,
    "updated_at": CREATED_AT,
    "seed_mode": "server",
    "open_seats": 3,
    "age_seconds": 95,
    "clock": {
        "mode": "per_decision",
        "seconds": 60,
        "increment": 0,
        "on_expiry": "bot",
        "stand_in": "greedy",
    },
    "creator": {
        "id": "3f6c2a8e9b1d4c7a8e5f0b2d6a9c1e47",
        "name": "Ann",
        "finished_games": 12,
        "finishing_rate": 0.92,
    },
    "rated": False,
    "unrated_reasons": [{"code": "anonymous_seat", "text": "A seat is taken without a player identity."}],
}
CHOICES = {
    "version": 3,
    "decision_version": 3,
    "decision": DECISION,
    "choices": [PICK, {"cards": ["messenger", "bricklayer"]}, {"cards": ["trader", "bricklayer"]}],
}


def _example_state() -> dict[str, Any]:
    """Seat 0's real view of a new two-player game (an abridged one would not match the schema)."""
    engine = default_registry().get("im-schutze-der-burg")
    state, _ = engine.setup(2, {"winter": False}, rng_for_seed("example"))
    return dict(engine.view(state, 0))


STATE = _example_state()


def _example_static_data() -> dict[str, Any]:
    """The game's real static data, each list cut to its first entry (the schema's shape kept)."""
    game = default_registry().game("im-schutze-der-burg")
    assert game.catalog is not None
    data = describe(game.catalog, game.engine.meta, "en")["data"]
    return {key: value[:1] if isinstance(value, list) else value for key, value in data.items()}


CLOCK = {
    "mode": "per_decision",
    "seconds": 120.0,
    "increment": 0.0,
    "on_expiry": "bot",
    "inactivity_days": None,
    "stand_in": "greedy",
    "lapses_before_stand_in": 3,
    "seats": [
        {
            "seat": 0,
            "waiting_since": "2026-11-23T15:17:11Z",
            "deadline": "2026-11-23T15:19:11Z",
            "remaining_seconds": 118.5,
            "used_seconds": 0.0,
            "lapses": 0,
        },
        {
            "seat": 1,
            "waiting_since": None,
            "deadline": None,
            "remaining_seconds": None,
            "used_seconds": 0.0,
            "lapses": 0,
        },
    ],
}
OPTION = {
    "name": "winter",
    "label": "Winter variant",
    "type": "bool",
    "default": False,
    "allowed": None,
    "allowed_labels": None,
    "description": "Winter variant: some rounds reveal a winter card with a special effect.",
    "verified": False,
}
GAME_TYPE = {
    "slug": "im-schutze-der-burg",
    "name": "Im Schutze der Burg",
    "description": "Build the castle's buildings with resources, helpers and character cards.",
    "min_players": 2,
    "max_players": 4,
    "options": [OPTION],
    "player_limits": [],
}
EVENTS = [
    {"seq": 1, "type": "seat_joined", "data": {"seat": 0, "name": "Ann", "bot": None}},
    {"seq": 2, "type": "seat_joined", "data": {"seat": 1, "name": "greedy bot", "bot": "greedy"}},
    {"seq": 3, "type": "game_started", "data": {"players": 2}},
]
WEBHOOK = {
    "id": WEBHOOK_ID,
    "url": "https://app.example/hooks/tabletop",
    "filters": ["your_turn", "game_over"],
    "status": "active",
    "player_id": PLAYER_ID,
    "game_id": None,
    "created_at": CREATED_AT,
}

SCHEMA_EXAMPLES: dict[str, Any] = {
    "GameCreate": {"type": "im-schutze-der-burg", "options": {"winter": False}},
    "GameCreated": {
        "id": GAME_ID,
        "rematch_of": None,
        "type": "im-schutze-der-burg",
        "status": "lobby",
        "version": 0,
        "options": {"winter": False},
        "seed_commitment": COMMITMENT,
        "seed_mode": "server",
        "private": False,
        "host_token": "X-A9zioGD5j400s6UT4BxKI1px9CRjkmWB6D2APnzTg",
        "invite_code": None,
        "created_at": CREATED_AT,
        "listed": True,
        "takebacks": False,
    },
    "SeatCreate": {"name": "Ann"},
    "SeatCreated": {"seat": 0, "token": TOKEN, "version": 1},
    "GamePublic": {
        "id": GAME_ID,
        "type": "im-schutze-der-burg",
        "status": "in_progress",
        "version": 3,
        "options": {"winter": False},
        "seats": SEATS,
        "max_players": 4,
        "state": STATE,
        "decision": DECISION,
        "result": None,
        "seed": None,
        "seed_salt": None,
        "seed_commitment": COMMITMENT,
        "seed_mode": "server",
        "private": False,
        "created_at": CREATED_AT,
        "viewer": {"seat": 0, "host": False},
        "clock": CLOCK,
        "rematch_of": None,
        "rematch_id": None,
        "rated": False,
        "unrated_reasons": [{"code": "anonymous_seat", "text": "A seat is taken without a player identity."}],
        "takebacks": TAKEBACKS_OFF,
    },
    "GameSummaryPublic": SUMMARY,
    "SeatSummaryPublic": SUMMARY_SEAT,
    "GamePagePublic": {"items": [SUMMARY], "total": 1, "next_cursor": None},
    "GameTypePublic": GAME_TYPE,
    "GameTypeDetail": {
        **GAME_TYPE,
        "language": "en",
        "bot_levels": [
            {"level": "random", "name": "Random", "description": "Picks any legal move at random."},
            {"level": "greedy", "name": "Greedy", "description": "Tries each move and keeps the best."},
        ],
        "prompts": {"pick_cards": "Choose your character card(s) for this round."},
        "log_templates": {"seat_joined": "{name} joins the game."},
        "data": _example_static_data(),
        "schemas": {"View": "/openapi.json#/components/schemas/ImSchutzeDerBurgView"},
    },
    "ChoicesPublic": {"game_type": "im-schutze-der-burg", **CHOICES},
    "ChoiceSubmit": {"choice": PICK, "decision_version": 3},
    "SubmitResultPublic": {
        "game_type": "im-schutze-der-burg",
        "status": "sealed",
        "version": 4,
        "decision_version": 4,
        "events": [
            {
                "seq": 4,
                "type": "choice_sealed",
                "data": {"seat": 0, "sealed": [0], "waiting": [1], "choice": PICK},
            }
        ],
        "next": None,
    },
    "EventsPage": {"game_type": "im-schutze-der-burg", "events": EVENTS, "last_seq": 3},
    "ReplayPublic": {
        "game_id": GAME_ID,
        "game_type": "im-schutze-der-burg",
        "at": 3,
        "seat": None,
        "phase": "in_progress",
        "state": STATE,
        "events": EVENTS,
        "last_seq": 120,
        "used_seconds": None,
        "matches_final_state": None,
        "moves": [3, 9, 14, 120],
    },
    "PlayerCreate": {"name": "Bea"},
    "PlayerCreatedPublic": {
        "id": PLAYER_ID,
        "name": "Bea",
        "token": "K8hjmoh7iBO8ttKGpgj3GFWG84gFfErq4iSNnr5V_jo",
        "created_at": CREATED_AT,
    },
    "PlayerGamePublic": {
        "game_id": GAME_ID,
        "type": "im-schutze-der-burg",
        "status": "in_progress",
        "seat": 0,
        "version": 3,
        "decision_version": 3,
        "your_turn": True,
        "waiting_since": "2026-11-23T15:17:11Z",
        "deadline": None,
        "joined_at": CREATED_AT,
        "stand_in": None,
    },
    "WebhookCreate": {"url": "https://app.example/hooks/tabletop", "filters": ["your_turn", "game_over"]},
    "WebhookPublic": WEBHOOK,
    "WebhookCreated": {**WEBHOOK, "secret": "whsec_/A4HAhhvgh+7KtwifB0gjqaz/+1nrspeIPMBICLmD+0="},
    "WebhookDeliveryPublic": {
        "webhook_id": "msg_2b8c4f0e6a1d4e7f9c3b5a7d1e0f2c4b",
        "game_id": GAME_ID,
        "kind": "your_turn",
        "payload": {**WEBHOOK_PAYLOADS["WebhookYourTurnPayload"]["examples"][0], "game_id": GAME_ID},
        "status": "delivered",
        "attempts": 1,
        "next_attempt_at": None,
        "created_at": CREATED_AT,
        "delivered_at": "2026-11-23T15:17:11.2Z",
        "history": [
            {
                "attempted_at": "2026-11-23T15:17:11.1Z",
                "status_code": 204,
                "error": None,
                "duration_ms": 41.7,
            }
        ],
    },
    **SOCIAL_EXAMPLES,
    **CHAT_EXAMPLES,
    **TAKEBACK_EXAMPLES,
    **TOURNAMENT_EXAMPLES,
    **NOTICE_EXAMPLES,
}
"""Keyed by component schema name; every operation using the schema shows the example."""

OPERATION_EXAMPLES: dict[str, Any] = {
    "healthz": {"status": "ok"},
    "readyz": {"status": "ready", "checks": {"database": True, "redis": True}},
    "metrics": '# TYPE tabletop_games gauge\ntabletop_games{status="in_progress"} 3.0\n',
}
"""Responses without a component schema, keyed by operation id."""

PROBLEM_DETAILS: dict[str, str] = {
    "takebacks_off": f"game {GAME_ID} was created without take-backs",
    "nothing_to_take_back": "seat 0 has no decision to take back: none since something hidden was "
    "revealed (a card or tile drawn, sealed choices opened)",
    "takeback_pending": "seat 0 already asked to take back a decision; waiting for seat(s) 1",
    "no_takeback_request": "no take-back request waits for seat 1's answer",
    "game_not_found": f"no game '{GAME_ID}'",
    "version_conflict": "seat 0's decision is at decision_version 4, not 3; reload the choices and retry",
    "unauthorized": "the bearer token does not belong to this game",
    "rate_limited": "more than 100 requests in 2 s from this token or address; retry after 1 s",
    "internal_error": "an unexpected error occurred; it has been logged",
    "database_unavailable": "the database did not answer in time or cannot store changes now; retry "
    "after 2 s (a change retried with the same Idempotency-Key is applied at most once)",
}


def problem_example(status: int, code: str) -> dict[str, Any]:
    return {
        "type": f"https://tabletop.example/problems/{code}",
        "title": code.replace("_", " "),
        "status": status,
        "code": code,
        "detail": PROBLEM_DETAILS.get(code, code.replace("_", " ")),
    }
