"""Examples of the notices' schemas for the OpenAPI document (validated by the contract tests)."""

from __future__ import annotations

from typing import Any

AT = "2026-11-23T15:20:04.5Z"
SUBSCRIPTION = {
    "id": "5d0c3b9e8f4a4e21a1c7d2f0b6e9a813",
    "endpoint": "https://push.example.net/wpush/v2/gAAAAABl3",
    "language": "de",
    "created_at": AT,
}

NOTICE_EXAMPLES: dict[str, Any] = {
    "NoticeChannelsPublic": {
        "push": True,
        "email": True,
        "vapid_public_key": (
            "BNgPj3l4m3az72b664njHd5o3q_xDEPnmNc6jzQGbHGdjFhnnQrKvKzfNfR9fL0bdFFYHb1YClqhsDpbt2Ogd4U"
        ),
        "kinds": ["your_turn", "game_over", "rematch_offered", "tournament_round"],
    },
    "PushSubscriptionCreate": {
        "endpoint": SUBSCRIPTION["endpoint"],
        "keys": {
            "p256dh": (
                "BOr0sEqz3xZ2b2tqQm4vU6r6x1mJ0m8x7aYbK3q8f1y0dJ5m5G2k4Qy8fUe9c1lXbA8o3H2wq9zR1s7tP0vX4dE"
            ),
            "auth": "c2VjcmV0LWF1dGgtMTZiIQ",
        },
        "language": "de",
    },
    "PushSubscriptionPublic": SUBSCRIPTION,
    "NoticeEmailUpdate": {"email": "bea@example.org", "language": "de"},
    "NoticeEmailPublic": {"email": "bea@example.org", "language": "de", "enabled": True},
}
