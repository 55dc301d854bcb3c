"""GraphQL against the in-process app: queries over HTTP, a graphql-transport-ws socket, the
introspected types and the REST models each GraphQL type mirrors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from pydantic import BaseModel
from starlette.testclient import WebSocketTestSession

from api.rest.models.game_types import GameTypeDetail, GameTypePublic, OptionPublic, PlayerLimitPublic
from api.rest.models.games import DecisionPublic, GameCreated, GamePublic, SeatPublic, ViewerPublic
from api.rest.models.play import ChoicesPublic, ReplayPublic, SubmitResultPublic
from api.rest.models.players import PlayerGamePublic
from api.rest.models.seats import SeatCreated
from api.rest.models.takebacks import TakeBackRequestPublic, TakeBacksPublic
from tests.support.http import auth

PROTOCOL = "graphql-transport-ws"
SUBSCRIBE = "subscription($g: ID!) { gameEvents(gameId: $g, after: 0) { seq type next { decisionVersion } } }"

PAIRS: list[tuple[type[BaseModel], str]] = [
    (GamePublic, "Game"),
    (GameCreated, "GameCreated"),
    (GameTypePublic, "GameType"),
    (GameTypeDetail, "GameTypeDetail"),
    (OptionPublic, "GameOption"),
    (PlayerLimitPublic, "PlayerLimit"),
    (SeatPublic, "Seat"),
    (DecisionPublic, "Decision"),
    (ChoicesPublic, "Choices"),
    (SubmitResultPublic, "SubmitResult"),
    (SeatCreated, "SeatJoined"),
    (PlayerGamePublic, "PlayerGame"),
    (ReplayPublic, "Replay"),
    (ViewerPublic, "Viewer"),
    (TakeBacksPublic, "TakeBacks"),
    (TakeBackRequestPublic, "TakeBackRequest"),
]
"""Each REST model and the GraphQL type that exposes the same fields."""


def gql(client: TestClient, query: str, token: str | None = None, **variables: Any) -> dict[str, Any]:
    """The ``data`` of a query that must succeed (HTTP 200, no ``errors``)."""
    answer = client.post(
        "/graphql", json={"query": query, "variables": variables}, headers=auth(token) if token else {}
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


def seated_duel(client: TestClient) -> tuple[str, str]:
    """A started duel of Ann and Ben: its id and Ann's seat token."""
    game = client.post("/v1/games", json={"type": "duel"}).json()
    seat = client.post(f"/v1/games/{game['id']}/seats", json={"name": "Ann"}).json()["token"]
    client.post(f"/v1/games/{game['id']}/seats", json={"name": "Ben"})
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    return game["id"], seat


@contextmanager
def graphql_ws(client: TestClient) -> Iterator[WebSocketTestSession]:
    """A graphql-transport-ws socket, acknowledged."""
    with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as socket:
        socket.send_json({"type": "connection_init"})
        assert socket.receive_json()["type"] == "connection_ack"
        yield socket


def operation(socket: WebSocketTestSession, op_id: str, query: str) -> list[dict[str, Any]]:
    """Run one operation over the socket: every message up to the first that is not ``next``."""
    socket.send_json({"id": op_id, "type": "subscribe", "payload": {"query": query}})
    messages = [socket.receive_json()]
    while messages[-1]["type"] == "next":
        messages.append(socket.receive_json())
    return messages


def graphql_types(client: TestClient) -> dict[str, dict[str, Any]]:
    """Every introspected type's fields (with their types and arguments), by type name."""
    query = """{ __schema { types { name fields { name type { kind name ofType { kind name } }
        args { name type { kind name ofType { kind name } } } } } } }"""
    types = gql(client, query)["__schema"]["types"]
    return {t["name"]: {f["name"]: f for f in t["fields"] or []} for t in types}


def named(type_ref: dict[str, Any]) -> str:
    """The named type under any list and non-null wrappers."""
    while type_ref.get("ofType"):
        type_ref = type_ref["ofType"]
    return str(type_ref["name"])


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def fragment_chain(fragments: int, leaf: str = "gameTypes { slug }") -> str:
    """``F0`` spreads ``F1`` twice, ``F1`` spreads ``F2`` twice, ...: 2**fragments leaves."""
    lines = ["query { ...F0 }"]
    lines += [f"fragment F{n} on Query {{ ...F{n + 1} ...F{n + 1} }}" for n in range(fragments)]
    lines.append(f"fragment F{fragments} on Query {{ {leaf} }}")
    return "\n".join(lines)
