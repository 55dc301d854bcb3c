"""End to end on the real server: a whole game over HTTP while GraphQL subscribers receive the
reveal the moment the last seat seals, each seeing only what its seat may see."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.support.http import auth
from tests.support.live import GAME_EVENTS, events_until_over, graphql_socket


async def new_duel(http: httpx.AsyncClient) -> tuple[dict[str, Any], str, list[str]]:
    """A one-round test game with two seated players, in the lobby."""
    game: dict[str, Any] = (
        await http.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}})
    ).json()
    tokens = [
        (await http.post(f"/v1/games/{game['id']}/seats", json={"name": n})).json()["token"]
        for n in ("ann", "bob")
    ]
    return game, game["id"], tokens


def test_whole_game_over_http_with_reveal_pushed_to_subscribers(server: str) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server, timeout=10) as http:
            game, gid, tokens = await new_duel(http)
            assert (
                await http.post(f"/v1/games/{gid}/start", headers=auth(game["host_token"]))
            ).status_code == 200
            watchers = [
                asyncio.create_task(events_until_over(server, gid, token))
                for token in (None, tokens[0], tokens[1])
            ]
            await asyncio.sleep(0.5)
            first = await http.post(
                f"/v1/games/{gid}/choices", json={"choice": {"card": 3}}, headers=auth(tokens[0])
            )
            assert first.json()["status"] == "sealed"
            second = await http.post(
                f"/v1/games/{gid}/choices", json={"choice": {"card": 2}}, headers=auth(tokens[1])
            )
            assert second.json()["status"] == "applied"
            last = await http.post(
                f"/v1/games/{gid}/choices", json={"choice": {"action": "bank"}}, headers=auth(tokens[0])
            )
            assert last.status_code == 200
            spectator, seat0, seat1 = await asyncio.wait_for(asyncio.gather(*watchers), 20)
            for events in (spectator, seat0, seat1):
                seqs = [e["seq"] for e in events]
                assert seqs == list(range(1, len(seqs) + 1))
                reveal = next(e for e in events if e["type"] == "reveal")
                assert reveal["data"]["choices"] == {"0": {"card": 3}, "1": {"card": 2}}
            sealed_by_0 = [e for e in seat0 if e["type"] == "choice_sealed" and e["data"]["seat"] == 0]
            assert sealed_by_0[0]["data"]["choice"] == {"card": 3}
            for viewer, events in ((None, spectator), (0, seat0), (1, seat1)):
                others = [e for e in events if e["type"] == "choice_sealed" and e["data"]["seat"] != viewer]
                assert others and all("choice" not in e["data"] for e in others)
            final = (await http.get(f"/v1/games/{gid}")).json()
            assert final["status"] == "finished" and final["seed"]

    asyncio.run(scenario())


def test_subscriber_reconnecting_with_after_gets_exactly_what_it_missed(server: str) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server, timeout=10) as http:
            game, gid, tokens = await new_duel(http)
            await http.post(f"/v1/games/{gid}/start", headers=auth(game["host_token"]))
            await http.post(f"/v1/games/{gid}/choices", json={"choice": {"card": 1}}, headers=auth(tokens[0]))
            history = (await http.get(f"/v1/games/{gid}/events")).json()
            after = history["last_seq"]
            watcher = asyncio.create_task(events_until_over(server, gid, after=after))
            await asyncio.sleep(0.3)
            await http.post(f"/v1/games/{gid}/choices", json={"choice": {"card": 2}}, headers=auth(tokens[1]))
            await http.post(
                f"/v1/games/{gid}/choices", json={"choice": {"action": "pass"}}, headers=auth(tokens[0])
            )
            events = await asyncio.wait_for(watcher, 20)
            assert [e["seq"] for e in events] == list(range(after + 1, after + 1 + len(events)))
            assert events[-1]["type"] == "game_over"

    asyncio.run(scenario())


def test_graphql_queries_and_mutations_mirror_rest(server: str) -> None:
    query = """
    mutation { createGame(type: "duel", options: {rounds: 1}) {
        __typename ... on GameCreated { id hostToken seedCommitment } ... on Problem { code } } }
    """
    created = httpx.post(f"{server}/graphql", json={"query": query}).json()["data"]["createGame"]
    assert created["__typename"] == "GameCreated"
    bad = httpx.post(
        f"{server}/graphql",
        json={
            "query": 'mutation { createGame(type: "chess") '
            "{ __typename ... on Problem { code httpStatus } } }"
        },
    ).json()["data"]["createGame"]
    assert bad == {"__typename": "Problem", "code": "unknown_game_type", "httpStatus": 422}
    types = httpx.post(
        f"{server}/graphql", json={"query": "{ gameTypes { slug minPlayers options { name default } } }"}
    )
    assert "duel" in [t["slug"] for t in types.json()["data"]["gameTypes"]]
    read = "query($id: ID!) { game(id: $id) { __typename ... on Game { status version seed } } }"
    game = httpx.post(f"{server}/graphql", json={"query": read, "variables": {"id": created["id"]}}).json()[
        "data"
    ]["game"]
    assert game == {"__typename": "Game", "status": "lobby", "version": 0, "seed": None}


def test_subscribing_past_the_end_of_a_finished_game_completes_at_once(server: str) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server, timeout=10) as http:
            game, gid, tokens = await new_duel(http)
            await http.post(f"/v1/games/{gid}/abort", headers=auth(game["host_token"]))
            last = (await http.get(f"/v1/games/{gid}/events")).json()["last_seq"]
            assert tokens
        async with graphql_socket(server) as socket:
            op = await socket.subscribe(GAME_EVENTS, {"gameId": gid, "after": last})
            message = await socket.receive(timeout=5)
            assert message == {"id": op, "type": "complete"}

    asyncio.run(scenario())


def test_websocket_frames_are_not_compressed_even_when_a_client_offers_it(server: str) -> None:
    """Per-message deflate costs CPU for every frame and subscriber (TABLETOP_WEBSOCKET_COMPRESSION
    turns it on); a client that offers it, as the websockets library does, is answered without it."""
    import websockets

    async def handshake() -> str | None:
        url = server.replace("http://", "ws://") + "/graphql"
        protocols = ["graphql-transport-ws"]
        async with websockets.connect(url, subprotocols=protocols, compression="deflate") as ws:  # type: ignore[arg-type]
            assert "permessage-deflate" in (ws.request.headers.get("Sec-WebSocket-Extensions") or "")  # type: ignore[union-attr]
            return ws.response.headers.get("Sec-WebSocket-Extensions")  # type: ignore[union-attr]

    assert asyncio.run(handshake()) is None
