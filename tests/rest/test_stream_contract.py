"""``GET /v1/games/{id}/stream`` against its published schema: each line carries ``game_type``
and the strict check of a line against ``StreamEvent`` is not vacuous (a field too many, one
missing, or another game's type fail). Live streams of whole games of each type are checked in
``tests/e2e/test_stream_schema.py``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.contract import StrictChecker
from tests.support.http import auth
from tests.support.play import play_over_rest

STREAM_EVENT = "#/components/schemas/StreamEvent"


def stream_lines(client: TestClient, game_id: str, token: str | None) -> list[dict[str, Any]]:
    """The ``data`` of every event of an ended game's stream, read to its end."""
    headers = auth(token) if token else {}
    lines: list[dict[str, Any]] = []
    with client.stream("GET", f"/v1/games/{game_id}/stream", headers=headers) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("data: "):
                lines.append(json.loads(line.removeprefix("data: ")))
    return lines


def test_the_stream_check_refuses_a_line_without_its_game_type_or_with_a_field_too_many(
    client: TestClient,
) -> None:
    checker = StrictChecker(client.get("/openapi.json").json())  # with the test game's members
    played = play_over_rest(client, "duel", 2, {"rounds": 1}, seed="stream-duel")
    lines = stream_lines(client, played.game_id, played.tokens[0])
    assert {line["game_type"] for line in lines} == {"duel"}
    for line in lines:
        checker.validate(line, STREAM_EVENT, f"duel stream {line['seq']}")
    line = lines[-1]
    with pytest.raises(AssertionError):
        checker.validate({**line, "surprise": 1}, STREAM_EVENT, "extra")
    with pytest.raises(AssertionError):
        checker.validate({k: v for k, v in line.items() if k != "next"}, STREAM_EVENT, "missing")
    with pytest.raises(AssertionError):
        checker.validate({**line, "game_type": "keythedral"}, STREAM_EVENT, "another game's")
