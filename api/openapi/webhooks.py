"""The OpenAPI 3.1 ``webhooks`` object: every request the webhook sender makes to a registered
endpoint (a game event, a "your turn" notice, a tournament round's "your game is ready"), with
its body schema, its Standard Webhooks headers and an example, so a generator produces the receiver's types.

The payloads are decided by ``domain/model/outbox.py`` and signed by
``persistence/outbound/webhook_sender.py``; a test validates real deliveries (body and headers)
against what is declared here.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

SCHEMAS = "#/components/schemas/"
MESSAGE_ID_PATTERN = "^msg_[0-9a-f]{32}$"
SIGNATURE_PATTERN = "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$"

HEADERS: list[dict[str, Any]] = [
    {
        "name": "webhook-id",
        "in": "header",
        "required": True,
        "description": "The delivery's id, the same on every retry: de-duplicate by it.",
        "schema": {"type": "string", "pattern": MESSAGE_ID_PATTERN},
        "example": "msg_5f0c1c8a3d3e4b6f9a1b2c3d4e5f6a7b",
    },
    {
        "name": "webhook-timestamp",
        "in": "header",
        "required": True,
        "description": "When this attempt was signed, in Unix seconds: refuse one too far from now.",
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
        "example": "1795795200",
    },
    {
        "name": "webhook-signature",
        "in": "header",
        "required": True,
        "description": "`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed "
        "with the endpoint's secret (the base64 part of `whsec_…`), as Standard Webhooks specifies; "
        "any `standardwebhooks` library verifies it.",
        "schema": {"type": "string", "pattern": SIGNATURE_PATTERN},
        "example": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    },
]

COMMON = {
    "game_id": {"type": "string", "description": "The game the delivery is about."},
    "game_type": {"type": "string", "description": "Its type's slug (which `<Game>Event` applies)."},
}

SCHEMAS_ADDED: dict[str, dict[str, Any]] = {
    "WebhookEventPayload": {
        "type": "object",
        "description": "An event of a game the endpoint follows, as its owner may see it: a "
        "player's endpoint sees what the player's seat sees, a game host's what a spectator sees.",
        "properties": {
            "type": {"const": "event"},
            **COMMON,
            "seat": {
                "type": ["integer", "null"],
                "description": "The player's seat whose view this is; null for a host's endpoint.",
            },
            "event": {
                "description": "`seq`, `type`, `data`: the `<Game>Event` of the `game_type`.",
                "anyOf": [{"$ref": f"{SCHEMAS}EventPublic"}],
            },
        },
        "required": ["type", "game_id", "game_type", "seat", "event"],
        "additionalProperties": False,
        "examples": [
            {
                "type": "event",
                "game_id": "7f45cbf378cd4603930a96c6041f05c2",
                "game_type": "im-schutze-der-burg",
                "seat": 0,
                "event": {"seq": 3, "type": "game_started", "data": {"players": 2}},
            }
        ],
    },
    "WebhookYourTurnPayload": {
        "type": "object",
        "description": "The game started waiting for the player's seat: relay it as a push "
        "notification. Read the choices (or answer with `decision_version`) to play.",
        "properties": {
            "type": {"const": "your_turn"},
            **COMMON,
            "seat": {"type": "integer", "description": "The player's seat that is to decide."},
            "version": {"type": "integer", "description": "The game's version at that moment."},
            "decision_version": {
                "type": ["integer", "null"],
                "description": "Send it back as `decision_version` with the seat's choice.",
            },
            "since": {
                "type": ["string", "null"],
                "format": "date-time",
                "description": "Since when the game waits for the seat.",
            },
            "deadline": {
                "type": ["string", "null"],
                "format": "date-time",
                "description": "When the seat's clock runs out; null without a clock.",
            },
        },
        "required": [
            "type",
            "game_id",
            "game_type",
            "seat",
            "version",
            "decision_version",
            "since",
            "deadline",
        ],
        "additionalProperties": False,
        "examples": [
            {
                "type": "your_turn",
                "game_id": "7f45cbf378cd4603930a96c6041f05c2",
                "game_type": "keythedral",
                "seat": 1,
                "version": 12,
                "decision_version": 12,
                "since": "2026-11-23T15:17:10.611186+00:00",
                "deadline": None,
            }
        ],
    },
    "WebhookTournamentRoundReadyPayload": {
        "type": "object",
        "description": "A tournament's new round is paired and the player's game in it has "
        "started: relay it as a push notification. Take the seat's token with "
        "`seat_token_path` (the player's token) and play. Sent once per seated player and round "
        "(filter `tournament_round_ready`, or `all`).",
        "properties": {
            "type": {"const": "tournament_round_ready"},
            "tournament_id": {"type": "string"},
            "tournament_name": {"type": "string"},
            "round": {"type": "integer", "minimum": 1},
            "table": {"type": "integer", "minimum": 1, "description": "The table's number in the round."},
            **COMMON,
            "seat": {"type": "integer", "minimum": 0, "description": "The player's seat in that game."},
            "player_id": {"type": "string", "description": "The endpoint's player."},
            "seat_token_path": {
                "type": "string",
                "description": "`POST` it with the player's token for the seat's token.",
            },
        },
        "required": [
            "type",
            "tournament_id",
            "tournament_name",
            "round",
            "table",
            "game_id",
            "game_type",
            "seat",
            "player_id",
            "seat_token_path",
        ],
        "additionalProperties": False,
        "examples": [
            {
                "type": "tournament_round_ready",
                "tournament_id": "3b1d0c7e5a2f4e0b9c8d7a6b5c4d3e2f",
                "tournament_name": "Friday Burg night",
                "round": 2,
                "table": 1,
                "game_id": "7f45cbf378cd4603930a96c6041f05c2",
                "game_type": "im-schutze-der-burg",
                "seat": 1,
                "player_id": "62cffe19492b40b0ac51f5a3fd4619a7",
                "seat_token_path": "/v1/players/me/games/7f45cbf378cd4603930a96c6041f05c2/seats/1/token",
            }
        ],
    },
}

RESPONSES = {
    "2XX": {"description": "Delivered: any 2xx within the timeout ends the retries."},
    "default": {
        "description": "Anything else (another status, a redirect, a timeout) is retried with "
        "backoff; the delivery's history keeps every attempt."
    },
}


def _webhook(operation_id: str, summary: str, description: str, schema: str) -> dict[str, Any]:
    return {
        "post": {
            "operationId": operation_id,
            "summary": summary,
            "description": description,
            "tags": ["webhooks"],
            "parameters": HEADERS,
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {"$ref": f"{SCHEMAS}{schema}"},
                        "example": SCHEMAS_ADDED[schema]["examples"][0],
                    }
                },
            },
            "responses": RESPONSES,
        }
    }


WEBHOOKS = {
    "gameEvent": _webhook(
        "onGameEvent",
        "A game event",
        "Sent for each event the endpoint's `filters` select (`game_started`, `game_over`, "
        "`reveal`, `takeback`, or `all`), in order per game, at least once.",
        "WebhookEventPayload",
    ),
    "yourTurn": _webhook(
        "onYourTurn",
        "The player's turn",
        "Sent when a game starts waiting for a seat of the endpoint's player (filter "
        "`your_turn`). A mobile app's backend relays it to the device as a push notification.",
        "WebhookYourTurnPayload",
    ),
    "tournamentRoundReady": _webhook(
        "onTournamentRoundReady",
        "Your game in round N is ready",
        "Sent to a player's endpoint (filter `tournament_round_ready`, or `all`) once for each "
        "round of a tournament in which the player is seated, when the round's games start.",
        "WebhookTournamentRoundReadyPayload",
    ),
}


def add_webhooks(document: dict[str, Any]) -> None:
    """Add the ``webhooks`` object and its payload schemas to an OpenAPI document. An event's
    payload is one schema per game type (``<Game>WebhookEventPayload``, told apart by
    ``game_type``) whose ``event`` is that game's ``<Game>Event``; the games are those of the
    per-game events page (``EventsPage``), a game without schemas keeps ``EventPublic``."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(deepcopy(SCHEMAS_ADDED))
    if "WebhookDeliveryPublic" in schemas:
        schemas["WebhookDeliveryPublic"]["properties"]["payload"] = {
            "description": "The body that is sent (a game event, a turn notice or a tournament "
            "round's notice).",
            "oneOf": [
                {"$ref": f"{SCHEMAS}WebhookEventPayload"},
                {"$ref": f"{SCHEMAS}WebhookYourTurnPayload"},
                {"$ref": f"{SCHEMAS}WebhookTournamentRoundReadyPayload"},
            ],
        }
    pages = schemas.get("EventsPage", {}).get("discriminator", {}).get("mapping", {})
    if pages:
        schemas["WebhookEventPayload"] = _per_game(schemas, pages)
    document["webhooks"] = WEBHOOKS


def _per_game(schemas: dict[str, Any], pages: dict[str, str]) -> dict[str, Any]:
    """``WebhookEventPayload`` as a union of one payload per game type."""
    generic = schemas["WebhookEventPayload"]
    mapping: dict[str, str] = {}
    for slug, page in pages.items():
        game = page.removeprefix(SCHEMAS).removesuffix("EventsPage")
        event = f"{game}Event" if f"{game}Event" in schemas else "EventPublic"
        member = deepcopy(generic)
        member.pop("examples")
        member["title"] = f"{game}WebhookEventPayload"
        member["properties"]["game_type"] = {**COMMON["game_type"], "const": slug}
        member["properties"]["event"] = {
            "$ref": f"{SCHEMAS}{event}",
            "description": "`seq`, `type`, `data` of the event.",
        }
        schemas[member["title"]] = member
        mapping[slug] = f"{SCHEMAS}{member['title']}"
    return {
        "title": "WebhookEventPayload",
        "description": generic["description"] + " One schema per game type, by `game_type`.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game_type", "mapping": mapping},
        "examples": generic["examples"],
    }
