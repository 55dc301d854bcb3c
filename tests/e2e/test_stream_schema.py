"""Live Server-Sent Events of whole games of each type against the published schema: every line a
seat and a spectator receive carries ``game_type`` and matches that game's member of
``StreamEvent`` strictly (no field the schema does not know, none missing), ``next`` included."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.contract import GAMES, StrictChecker
from tests.support.live import Received, follow
from tests.support.play import SPECTATOR, PlayedGame, play_over_rest
from tests.support.servers import running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("sse-schema") / "tabletop.db"
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{db}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
    }
    with running_server(env) as base:
        yield base


def followed(server: str, slug: str, players: int, options: dict[str, Any]) -> dict[str, Received]:
    """Play a whole game while seat 0 and a spectator follow its stream live from the start."""

    async def scenario() -> dict[str, Received]:
        ready = threading.Event()
        begun: list[PlayedGame] = []

        def begin(game: PlayedGame) -> None:
            begun.append(game)
            ready.wait(30)  # the moves wait until both streams are open: they come live

        def play() -> PlayedGame:
            with httpx.Client(base_url=server, timeout=30) as http:
                return play_over_rest(
                    http, slug, players, options, seed=f"sse-{slug}", watch_every=10**6, started=begin
                )

        playing = asyncio.create_task(asyncio.to_thread(play))
        while not begun:
            await asyncio.sleep(0.02)
        game = begun[0]
        viewers = {"0": game.tokens[0], SPECTATOR: None}
        following = asyncio.gather(*(follow(server, game.game_id, token, None) for token in viewers.values()))
        await asyncio.sleep(0.5)
        ready.set()
        streams = dict(zip(viewers, await asyncio.wait_for(following, 600), strict=True))
        assert (await playing).final["status"] == "finished"
        return streams

    return asyncio.run(scenario())


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("slug", "players", "options"), GAMES)
def test_every_live_stream_line_of_a_whole_game_matches_its_games_schema_strictly(
    server: str, slug: str, players: int, options: dict[str, Any]
) -> None:
    streams = followed(server, slug, players, options)
    with httpx.Client(base_url=server) as http:
        checker = StrictChecker(http.get("/openapi.json").json())
    for viewer, received in streams.items():
        for event in received.events:
            line = event["data"]
            assert line["game_type"] == slug
            where = f"{viewer}: {line['seq']} {line['type']}"
            checker.validate(line, "#/components/schemas/StreamEvent", where)
    assert any(event["data"]["next"] is not None for event in streams["0"].events)
