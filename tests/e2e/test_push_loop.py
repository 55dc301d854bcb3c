"""A move costs one request: a client plays whole games from its live events alone.

Each seat's client follows the game on the GraphQL subscription and never asks for its choices:
an event that hands its seat a decision carries it (``next``: decision, legal choices, version),
and a submit's answer carries the seat's follow-up decision. The loop is "receive event → post
one choice". Spectators and other seats never see a seat's ``next``.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from tests.support.http import auth
from tests.support.live import graphql_socket
from tests.support.play import all_events, start_game

pytestmark = pytest.mark.timeout(180)

EVENTS_WITH_NEXT = """
subscription Events($gameId: ID!, $after: Int!) {
  gameEvents(gameId: $gameId, after: $after) {
    seq type data
    next { version choices decision { kind seats } }
  }
}
"""


async def seat_client(
    base: str, game_id: str, token: str | None, seed: int, posts: list[int]
) -> list[dict[str, Any]]:
    """Follow the game as ``token``'s seat (a spectator if None), answering every offered decision."""
    rng = random.Random(seed)
    received: list[dict[str, Any]] = []
    answered_through = 0
    async with (
        graphql_socket(base, token) as socket,
        httpx.AsyncClient(base_url=base, timeout=30) as http,
    ):
        op = await socket.subscribe(EVENTS_WITH_NEXT, {"gameId": game_id, "after": 0})
        while True:
            message = await socket.receive(timeout=30)
            if message["type"] == "complete":
                return received
            assert message["type"] == "next" and message["id"] == op, message
            event = message["payload"]["data"]["gameEvents"]
            received.append(event)
            offer = event["next"]
            if token is None or offer is None or event["seq"] <= answered_through:
                continue
            while offer is not None:
                body = {"choice": rng.choice(offer["choices"]), "version": offer["version"]}
                answer = await http.post(f"/v1/games/{game_id}/choices", json=body, headers=auth(token))
                assert answer.status_code == 200, answer.text
                posts.append(1)
                result = answer.json()
                answered_through = max([answered_through, *(e["seq"] for e in result["events"])])
                offer = result["next"]


@pytest.mark.parametrize(("slug", "options"), [("carcassonne", {"abbey_and_mayor": True})])
def test_seats_play_a_whole_game_from_their_events_without_asking_for_choices(
    server: str, slug: str, options: dict[str, Any]
) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        game, tokens = start_game(http, slug, 2, options)
    posts: list[int] = []

    async def play() -> list[list[dict[str, Any]]]:
        viewers: list[str | None] = [*tokens, None]
        return await asyncio.gather(
            *(seat_client(server, game["id"], token, i, posts) for i, token in enumerate(viewers))
        )

    streams = asyncio.run(play())
    with httpx.Client(base_url=server, timeout=30) as http:
        assert http.get(f"/v1/games/{game['id']}").json()["status"] == "finished"
        for stream, token in zip(streams, [*tokens, None], strict=True):
            stored = all_events(http, game["id"], token)
            assert [{k: e[k] for k in ("seq", "type", "data")} for e in stream] == stored
    assert posts, "nobody played"
    assert all(event["next"] is None for event in streams[2]), "a spectator was offered a decision"
    for seat, stream in enumerate(streams[:2]):
        for event in stream:
            if event["next"] is not None:
                assert seat in event["next"]["decision"]["seats"]
                assert event["next"]["choices"]
