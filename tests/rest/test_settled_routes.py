"""Routes resolved once (``api.rest.resolved_routes``): no per-request walk of the routers, same routing."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import APIRouter
from fastapi.testclient import TestClient

from tests.support.client import app_with_test_game, make_settings


def test_a_request_never_walks_the_routers_for_their_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_with_test_game(make_settings(tmp_path))
    walks: list[int] = []
    walk = APIRouter._get_routes_version

    def counted(self: APIRouter, seen: set[int] | None = None) -> int:
        walks.append(id(self))
        return walk(self, seen)

    monkeypatch.setattr(APIRouter, "_get_routes_version", counted)
    with TestClient(app) as client:
        assert client.get("/v1/game-types").status_code == 200
        assert client.get("/v1/games/nope").status_code == 404
    assert walks == []


def test_a_route_added_after_start_up_is_still_served(tmp_path: Path) -> None:
    app = app_with_test_game(make_settings(tmp_path))
    before = app.router._get_routes_version()

    @app.get("/late")
    def late() -> dict[str, bool]:
        return {"late": True}

    assert app.router._get_routes_version() == before + 1
    with TestClient(app) as client:
        assert client.get("/late").json() == {"late": True}
