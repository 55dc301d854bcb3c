"""The real app in process behind Starlette's ``TestClient``, on a fresh SQLite file with the test
game registered, and the game set-ups the REST and GraphQL tests share on it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.registry import EngineRegistry, default_registry
from tests.support.duel_game import DuelEngine
from tests.support.http import auth
from tests.support.waiting import eventually

CLOCK = {"mode": "per_decision", "seconds": 600}
"""A per-decision clock, which makes a game rated."""


def make_settings(tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": f"sqlite:///{tmp_path / 'tabletop.db'}",
        "auto_migrate": True,
        "rate_limit_per_second": 10_000.0,
        "rate_limit_burst": 10_000,
        "log_level": "WARNING",
        # The collector's start-up freeze is for a server process (tests/unit/test_heap.py checks
        # it): here hundreds of apps start in one process, each full collection walking its heap.
        "gc_young_threshold": 0,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def registry_with_test_game() -> EngineRegistry:
    registry = default_registry()
    registry.register(DuelEngine())
    return registry


def app_with_test_game(settings: Settings) -> FastAPI:
    """The app on ``settings`` with the test game (Duel) beside the hosted ones."""
    return create_app(settings, registry=registry_with_test_game())


def new_game(client: TestClient, listed: bool = False, **body: Any) -> dict[str, Any]:
    """A duel; ``listed``: created by a new player identity, so that the lobby lists it."""
    headers = {}
    if listed:
        headers = auth(player(client, "Host")["token"])
    response = client.post("/v1/games", json={"type": "duel", **body}, headers=headers)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def seated_game(
    client: TestClient, players: int = 2, identities: bool = False, **body: Any
) -> tuple[dict[str, Any], list[str]]:
    """A started duel of ``players`` people (each with a player identity of its own if
    ``identities``; test clients share one address): its creation answer and the seat tokens."""
    game = new_game(client, **body)
    tokens = []
    for i in range(players):
        headers = auth(player(client, f"p{i}")["token"]) if identities else {}
        joined = client.post(f"/v1/games/{game['id']}/seats", json={"name": f"p{i}"}, headers=headers)
        assert joined.status_code == 201, joined.text
        assert joined.json()["seat"] == i
        tokens.append(joined.json()["token"])
    started = client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    assert started.status_code == 200, started.text
    return game, tokens


def stored(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game's view without the seconds that tick by themselves (every game has at least the
    inactivity deadline): two reads compare equal when nothing happened."""
    view: dict[str, Any] = client.get(f"/v1/games/{game_id}").json()
    for seat in view["clock"]["seats"]:
        seat.pop("remaining_seconds")
    return view


def player(client: TestClient, name: str) -> dict[str, Any]:
    """A new player identity (its ``id`` and ``token``)."""
    created = client.post("/v1/players", json={"name": name})
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return body


def choose(client: TestClient, game_id: str, token: str, choice: dict[str, Any]) -> Any:
    return client.post(f"/v1/games/{game_id}/choices", json={"choice": choice}, headers=auth(token))


def board(client: TestClient, **params: Any) -> dict[str, Any]:
    """The Duel leaderboard."""
    response = client.get("/v1/leaderboards/duel", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def reached(client: TestClient, game_id: str, status: str, timeout: float = 90.0) -> dict[str, Any]:
    """The game's view once its status is ``status`` (bots and clocks move it on their own)."""

    def view() -> dict[str, Any] | None:
        game: dict[str, Any] = client.get(f"/v1/games/{game_id}").json()
        return game if game["status"] == status else None

    return eventually(view, timeout, f"game {game_id} {status}")


def play_until_finished(
    client: TestClient,
    game_id: str,
    token: str,
    pick: Callable[[list[Any]], Any] = lambda choices: choices[0],
    timeout: float = 90.0,
) -> dict[str, Any]:
    """Play ``token``'s seat (``pick`` chooses among its choices) whenever it is asked, while bots
    or stand-ins play the others, until the game is over; its final view."""

    def step() -> dict[str, Any] | None:
        view: dict[str, Any] = client.get(f"/v1/games/{game_id}").json()
        if view["status"] == "finished":
            return view
        pending = client.get(f"/v1/games/{game_id}/choices", headers=auth(token)).json()
        if pending["choices"] and not (pending["decision"] or {}).get("your_sealed_choice"):
            choose(client, game_id, token, pick(pending["choices"]))
        return None

    return eventually(step, timeout, f"game {game_id} finished")


def play_one_round(client: TestClient, seat_tokens: list[str | None], cards: list[int], **body: Any) -> str:
    """A one-round Duel: each token joins (a player token ties the seat to that player; None is
    an anonymous seat), each seat plays its card, then the banker passes. Returns the game id."""
    created = client.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}, **body})
    assert created.status_code == 201, created.text
    game = created.json()
    seats = []
    for n, token in enumerate(seat_tokens):
        joined = client.post(
            f"/v1/games/{game['id']}/seats",
            json={} if token else {"name": f"anon {n}"},
            headers=auth(token) if token else {},
        )
        assert joined.status_code == 201, joined.text
        seats.append(joined.json()["token"])
    assert client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])).status_code == 200
    for token, card in zip(seats, cards, strict=True):
        sent = choose(client, game["id"], token, {"card": card})
        assert sent.status_code == 200, sent.text
    for token in seats:
        if client.get(f"/v1/games/{game['id']}/choices", headers=auth(token)).json()["choices"]:
            choose(client, game["id"], token, {"action": "pass"})
            break
    assert reached(client, game["id"], "finished")["status"] == "finished"
    game_id: str = game["id"]
    return game_id


def finished_duel(client: TestClient) -> tuple[dict[str, Any], str]:
    """A one-round duel of a person (Ann) and a random bot, played to the end: the creation
    answer and Ann's seat token."""
    game = new_game(client, options={"rounds": 1})
    token = client.post(f"/v1/games/{game['id']}/seats", json={"name": "Ann"}).json()["token"]
    client.post(f"/v1/games/{game['id']}/seats", json={"bot": "random"}, headers=auth(game["host_token"]))
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    play_until_finished(client, game["id"], token)
    return game, token
