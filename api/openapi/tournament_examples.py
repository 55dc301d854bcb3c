"""OpenAPI examples of the tournaments' schemas, merged into ``api.openapi.examples``."""

from __future__ import annotations

from typing import Any

TOURNAMENT_ID = "3b1d0c7e5a2f4e0b9c8d7a6b5c4d3e2f"
GAME_ID = "7f45cbf378cd4603930a96c6041f05c2"
ANN = "62cffe19492b40b0ac51f5a3fd4619a7"
BEA = "a41f0c2b9d8e4f7a8b6c5d4e3f2a1b0c"
AT = "2026-11-28T20:00:00Z"
CLOCK = {"mode": "per_decision", "seconds": 120}

CREATE = {
    "name": "Friday Burg night",
    "game_type": "im-schutze-der-burg",
    "format": "swiss",
    "rounds": 3,
    "clock": CLOCK,
    "max_players": 16,
    "starts_at": AT,
    "pause_seconds": 60,
}
TOURNAMENT = {
    "id": TOURNAMENT_ID,
    "name": "Friday Burg night",
    "game_type": "im-schutze-der-burg",
    "format": "swiss",
    "options": {"winter": False},
    "clock": CLOCK,
    "status": "running",
    "rounds": 3,
    "current_round": 1,
    "table_size": 2,
    "min_table_size": 2,
    "max_players": 16,
    "starts_at": AT,
    "next_round_at": None,
    "finished_at": None,
    "private": False,
    "rated": True,
    "pause_seconds": 60,
    "created_at": "2026-11-28T18:12:40Z",
    "version": 4,
    "entrants": [
        {"player_id": ANN, "name": "Ann", "rating": 3.25, "withdrawn": False},
        {"player_id": BEA, "name": "Bea", "rating": 0.0, "withdrawn": False},
    ],
}
STANDING = {
    "rank": 1,
    "player_id": ANN,
    "name": "Ann",
    "points": 1.0,
    "games": 1,
    "byes": 0,
    "buchholz": 0.0,
    "sonneborn_berger": 0.0,
    "rating": 3.25,
    "withdrawn": False,
    "reached": 0,
    "eliminated": False,
}
TABLE = {
    "number": 1,
    "game_id": GAME_ID,
    "game": f"/v1/games/{GAME_ID}",
    "seats": [
        {"seat": 0, "player_id": ANN, "name": "Ann", "rank": 1},
        {"seat": 1, "player_id": BEA, "name": "Bea", "rank": 2},
    ],
    "finished": True,
}

TOURNAMENT_EXAMPLES: dict[str, Any] = {
    "TournamentCreate": CREATE,
    "TournamentPublic": TOURNAMENT,
    "TournamentCreatedPublic": {
        "tournament": {
            **TOURNAMENT,
            "status": "registering",
            "current_round": 0,
            "version": 0,
            "entrants": [],
        },
        "host_token": "tt_host_5QbXyE0m8N2r6K1v",
        "invite_code": None,
    },
    "RegistrationCreate": {"invite_code": None},
    "EntrantPublic": TOURNAMENT["entrants"][0],  # type: ignore[index]
    "StandingRowPublic": STANDING,
    "TableSeatPublic": TABLE["seats"][0],  # type: ignore[index]
    "RoundTablePublic": TABLE,
    "RoundPublic": {"round": 1, "tables": [TABLE], "byes": []},
    "TournamentEventsPage": {
        "events": [
            {
                "seq": 5,
                "type": "round_started",
                "tournament_id": TOURNAMENT_ID,
                "data": {"round": 1, "tables": [[ANN, BEA]], "byes": [], "games": [GAME_ID]},
            },
            {
                "seq": 6,
                "type": "game_finished",
                "tournament_id": TOURNAMENT_ID,
                "data": {"round": 1, "table": 1, "game_id": GAME_ID, "ranks": [1, 2]},
            },
        ],
        "last_seq": 6,
    },
}
