"""OpenAPI examples of the ratings (and chat) schemas, merged into ``api.openapi.examples``."""

from __future__ import annotations

from typing import Any

PLAYER_ID = "62cffe19492b40b0ac51f5a3fd4619a7"
GAME_ID = "7f45cbf378cd4603930a96c6041f05c2"
AT = "2026-11-25T21:40:02.118Z"

RATING = {
    "game_type": "im-schutze-der-burg",
    "rating": 3.25,
    "mu": 27.87,
    "sigma": 8.21,
    "games": 1,
    "provisional": True,
}
FINISHING = {"finished": 9, "resigned": 1, "timed_out": 0, "rate": 0.9}
STANDING = {
    **RATING,
    "rank": 1,
    "subject": PLAYER_ID,
    "kind": "player",
    "name": "Bea",
    "established": True,
    "finishing": FINISHING,
}
RESULT = {
    "game_id": GAME_ID,
    "game_type": "im-schutze-der-burg",
    "seat": 0,
    "rank": 1,
    "outcome": "finished",
    "rated": True,
    "at": AT,
    "replay": f"/v1/games/{GAME_ID}/replay",
}

SOCIAL_EXAMPLES: dict[str, Any] = {
    "RatingPublic": RATING,
    "StandingPublic": STANDING,
    "LeaderboardPublic": {
        "game_type": "im-schutze-der-burg",
        "entries": [
            STANDING,
            {
                **STANDING,
                "rank": 2,
                "subject": "bot:greedy",
                "kind": "bot",
                "name": "bot:greedy",
                "rating": 1.9,
                "mu": 26.1,
                "sigma": 8.07,
                "finishing": None,
            },
        ],
        "next_cursor": None,
    },
    "GameResultPublic": RESULT,
    "FinishingPublic": FINISHING,
    "RatingChangePublic": {
        "game_id": GAME_ID,
        "game_type": "im-schutze-der-burg",
        "at": AT,
        "seat": 0,
        "rank": 1,
        "rating_before": 0.0,
        "rating": 3.25,
        "mu": 27.87,
        "sigma": 8.21,
    },
}
SOCIAL_EXAMPLES["ProfilePublic"] = {
    "id": PLAYER_ID,
    "name": "Bea",
    "ratings": [RATING],
    "history": [SOCIAL_EXAMPLES["RatingChangePublic"]],
    "recent_games": [RESULT],
    "finishing": SOCIAL_EXAMPLES["FinishingPublic"],
}
SOCIAL_EXAMPLES["UnratedReasonPublic"] = {"code": "no_clock", "text": "The game has no turn clock."}
SOCIAL_EXAMPLES["TableSeatPublic"] = {
    "seat": 0,
    "name": "Bea",
    "subject": PLAYER_ID,
    "rating": RATING,
    "finishing": SOCIAL_EXAMPLES["FinishingPublic"],
}
SOCIAL_EXAMPLES["TableRatingsPublic"] = {
    "game_id": GAME_ID,
    "seats": [
        SOCIAL_EXAMPLES["TableSeatPublic"],
        {"seat": 1, "name": "Greedy", "subject": "bot:greedy", "rating": None, "finishing": None},
    ],
}
