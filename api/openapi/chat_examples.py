"""Examples of the chat's schemas for the OpenAPI document (validated by the contract tests)."""

from __future__ import annotations

from typing import Any

AT = "2026-11-23T15:20:04.5Z"
MESSAGE = {
    "seq": 3,
    "kind": "message",
    "seat": 1,
    "target": None,
    "text": "Nice move, I did not see the tower coming",
    "phrase": None,
    "created_at": AT,
}
PHRASE = {
    "seq": 4,
    "kind": "message",
    "seat": 0,
    "target": None,
    "text": "Good game!",
    "phrase": "good_game",
    "created_at": AT,
}

CHAT_EXAMPLES: dict[str, Any] = {
    "ChatMessageCreate": {"text": "Nice move, I did not see the tower coming"},
    "ChatEntryPublic": MESSAGE,
    "ChatSettingsPublic": {"muted": [2], "hidden": []},
    "ChatPagePublic": {
        "entries": [MESSAGE, PHRASE],
        "last_seq": 4,
        "muted": [2],
        "hidden": [],
        "seat": 0,
        "can_write": True,
    },
}
