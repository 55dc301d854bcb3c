"""Leak suite, for every hosted game: seeded games played over HTTP with every seat and a spectator
subscribed over GraphQL. Per game, the secrets checked here are the ones every game shares (the
unrevealed seed, other seats' private event data, one view path for REST, GraphQL queries and
subscriptions); each game's own e2e test adds its specific secrets (sealed picks, hidden holdings,
face-down tiles, pile order)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from tests.support.http import auth
from tests.support.keythedral_twins import play_twins
from tests.support.live import events_until_over
from tests.support.play import SPECTATOR, PlayedGame, all_events, play_over_rest

GAMES = [
    ("im-schutze-der-burg", 3, {}),
    ("keythedral", 2, {}),
    ("carcassonne", 3, {"abbey_and_mayor": True}),
]
GAME_QUERY = """query($id: ID!) { game(id: $id) { __typename ... on Game { state decision { kind sealed }
  seed status } } }"""


async def subscribe_all(base: str, game_id: str, tokens: list[str | None]) -> list[list[dict[str, Any]]]:
    return list(await asyncio.gather(*(events_until_over(base, game_id, t, timeout=60) for t in tokens)))


@pytest.mark.timeout(600)  # whole games over HTTP and websockets (Keythedral's law windows add submits)
@pytest.mark.parametrize(("slug", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_no_viewer_learns_what_it_may_not_see(
    server: str, slug: str, players: int, options: dict[str, Any]
) -> None:
    seed = f"leak-probe-{slug}-7f3a9c"
    graphql_seen: dict[str, list[str]] = {}

    def probe_graphql(http: httpx.Client, game: PlayedGame, pending: dict[str, Any]) -> None:
        if game.decisions % 25 != 1:
            return
        for viewer, token in [(SPECTATOR, None), *((str(s), t) for s, t in enumerate(game.tokens))]:
            headers = auth(token) if token else {}
            result = http.post(
                "/graphql", json={"query": GAME_QUERY, "variables": {"id": game.game_id}}, headers=headers
            ).json()
            assert "errors" not in result, result
            graphql_seen.setdefault(viewer, []).append(json.dumps(result))

    async def scenario() -> tuple[PlayedGame, list[list[dict[str, Any]]]]:
        with httpx.Client(base_url=server, timeout=30) as http:
            created: dict[str, Any] = {}

            def play() -> PlayedGame:
                game = play_over_rest(
                    http, slug, players, options, seed=seed, watch_every=5, before_submit=probe_graphql
                )
                created["game"] = game
                return game

            task = asyncio.create_task(asyncio.to_thread(play))
            while "game" not in created and not task.done():
                games = http.get("/v1/games", params={"type": slug, "status": "in_progress"}).json()["items"]
                if games:
                    break
                await asyncio.sleep(0.02)
            game_id = http.get("/v1/games", params={"type": slug}).json()["items"][0]["id"]
            game = await task
            assert game.game_id == game_id
            streams = await asyncio.wait_for(subscribe_all(server, game_id, [None, *game.tokens]), 120)
            return game, streams

    game, streams = asyncio.run(scenario())
    assert game.final["status"] == "finished" and game.final["seed"] == seed

    # 1. the seed stays secret until the end (only game_over and the final view carry it)
    for viewer, texts in {**game.seen, **graphql_seen}.items():
        before_end = [t for t in texts if '"game_over"' not in t and '"finished"' not in t]
        assert all(seed not in t for t in before_end), f"{slug}: the seed leaked to {viewer} before the end"

    with httpx.Client(base_url=server, timeout=30) as http:
        viewers: list[tuple[str, str | None]] = [(SPECTATOR, None)]
        viewers += [(str(s), t) for s, t in enumerate(game.tokens)]
        rest = {viewer: all_events(http, game.game_id, token) for viewer, token in viewers}

    # 2. one view path: each viewer's subscription equals its REST history, event for event
    for (viewer, _), stream in zip(viewers, streams, strict=True):
        assert stream == rest[viewer], f"{slug}: subscription and history differ for {viewer}"

    # 3. what a seat sees beyond the spectator is its own: no other seat ever gets it
    spectator = rest[SPECTATOR]
    for seat in range(players):
        for own, public in zip(rest[str(seat)], spectator, strict=True):
            assert own["seq"] == public["seq"] and own["type"] == public["type"]
            extra = {k: v for k, v in own["data"].items() if public["data"].get(k) != v}
            if not extra:
                continue
            for other in range(players):
                if other == seat:
                    continue
                theirs = rest[str(other)][own["seq"] - spectator[0]["seq"]]
                for key, value in extra.items():
                    assert theirs["data"].get(key) != value or key in public["data"], (
                        f"{slug}: seat {other} saw seat {seat}'s private {key!r} in event {own['seq']}"
                    )


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(5, 21, {}), (4, 3, {"law_cards_face_up": True, "length": "full"})],
)
def test_keythedral_twins_differing_only_in_hidden_law_cards_look_identical(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """Keythedral's law cards: nothing public (decisions and who is asked, events, views) may
    depend on who holds which card. The differential of ``tests/unit/keythedral/
    test_law_secrecy.py``, on more player counts and options."""
    assert play_twins(players, seed, options) > 300
