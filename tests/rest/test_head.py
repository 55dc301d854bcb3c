"""``HEAD`` on every ``GET`` route of the OpenAPI document answers as ``GET`` does, without a body:
the same status and headers (``Content-Length``, ``ETag``, ``Content-Type``...), the same 304 to
``If-None-Match``; a stream answers its headers and ends."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.support.client import app_with_test_game, make_settings
from tests.support.http import auth
from tests.support.play import play_over_rest

VARYING = {
    "date",
    "x-request-id",
    "ratelimit-remaining",
    "ratelimit-reset",
    "ratelimit-limit",
    "ratelimit-policy",
}
"""Headers that differ between any two requests."""


def without(headers: Any, names: set[str]) -> dict[str, str]:
    return {name: value for name, value in headers.items() if name not in names}


def _values(client: TestClient) -> tuple[dict[str, str], dict[str, str]]:
    """Real path parameters (an ended game, a player seated in it, a webhook) and a token for
    each path prefix."""
    player = client.post("/v1/players", json={"name": "Ann"}).json()
    played = play_over_rest(client, "duel", 2, {"rounds": 1}, seed="head")
    hook = client.post(
        "/v1/webhooks",
        json={"url": "http://127.0.0.1:9/hook", "filters": ["all"]},
        headers=auth(player["token"]),
    )
    assert hook.status_code == 201, hook.text
    cup = {"name": "Cup", "game_type": "duel", "format": "swiss", "rated": False}
    tournament = client.post("/v1/tournaments", json=cup, headers=auth(player["token"]))
    assert tournament.status_code == 201, tournament.text
    # Cancelled, so that its event stream (a GET route too) ends after the stored events.
    created = tournament.json()
    cancelled = client.post(
        f"/v1/tournaments/{created['tournament']['id']}/cancel", headers=auth(created["host_token"])
    )
    assert cancelled.status_code == 200, cancelled.text
    values = {
        "game_id": played.game_id,
        "slug": "duel",
        "game_type": "duel",
        "player_id": player["id"],
        "webhook_id": hook.json()["id"],
        "tournament_id": tournament.json()["tournament"]["id"],
    }
    tokens = {
        "/v1/players/me": player["token"],
        "/v1/webhooks": player["token"],
        "/v1/games/": played.tokens[0],
    }
    return values, tokens


def test_head_answers_every_get_route_like_get_without_a_body(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, webhook_allow_private_targets=True)
    with TestClient(app_with_test_game(settings)) as client:
        document: dict[str, Any] = client.get("/openapi.json").json()
        values, tokens = _values(client)
        paths = [path for path, item in document["paths"].items() if "get" in item]
        assert len(paths) >= 15
        for template in paths:
            path = re.sub(r"\{([^}]+)\}", lambda m: values[m.group(1)], template)
            token = next((t for prefix, t in tokens.items() if path.startswith(prefix)), None)
            headers = auth(token) if token else {}
            query = {  # a required query parameter (the replay's event): its least value
                p["name"]: p["schema"]["minimum"]
                for p in document["paths"][template]["get"].get("parameters", [])
                if p["in"] == "query" and p.get("required")
            }
            got = client.get(path, headers=headers, params=query)
            head = client.head(path, headers=headers, params=query)
            assert got.status_code == 200, (template, got.text)
            assert head.status_code == got.status_code, template
            assert head.content == b"", template
            ignored = VARYING | ({"content-length"} if template == "/metrics" else set())  # counters moved
            assert without(head.headers, ignored) == without(got.headers, ignored), template
            etag = got.headers.get("etag")
            if etag is not None:
                again = client.head(path, headers={**headers, "If-None-Match": etag}, params=query)
                assert (again.status_code, again.content) == (304, b""), template


def test_head_on_a_path_without_get_is_refused_with_its_methods(client: TestClient) -> None:
    answer = client.head("/v1/games/abc/start")
    assert answer.status_code == 405 and answer.content == b""
    assert answer.headers["allow"] == "POST"
    assert client.post("/v1/games", json={"type": "duel"}).status_code == 201  # POST is untouched


def test_head_on_a_live_stream_answers_its_headers_and_ends(client: TestClient) -> None:
    game = client.post("/v1/games", json={"type": "duel"}).json()
    for name in ("a", "b"):
        client.post(f"/v1/games/{game['id']}/seats", json={"name": name})
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    head = client.head(f"/v1/games/{game['id']}/stream")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"].startswith("text/event-stream")
