"""``GET /v1/games/{id}/stream`` (Server-Sent Events) over real HTTP: each viewer gets exactly its
REST history, live, and a reconnection with ``Last-Event-ID`` loses and repeats nothing."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.http import auth
from tests.support.live import Received, follow, read_stream
from tests.support.play import SPECTATOR, PlayedGame, all_events, new_duel, play_over_rest
from tests.support.servers import running_server

SLUG, PLAYERS = "im-schutze-der-burg", 3
HEARTBEAT_SECONDS = 0.3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("sse") / "tabletop.db"
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{db}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
        "TABLETOP_STREAM_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS),
    }
    with running_server(env) as base:
        yield base


def test_each_viewer_streams_exactly_its_history_and_a_reconnection_loses_nothing(server: str) -> None:
    async def scenario() -> tuple[PlayedGame, dict[str, Received]]:
        ready = threading.Event()
        begun: list[PlayedGame] = []

        def begin(game: PlayedGame) -> None:
            begun.append(game)
            ready.wait(30)  # the first moves wait until every stream is open: they come live

        def play() -> PlayedGame:
            with httpx.Client(base_url=server, timeout=30) as http:
                return play_over_rest(http, SLUG, PLAYERS, seed="sse-probe", watch_every=3, started=begin)

        playing = asyncio.create_task(asyncio.to_thread(play))
        while not begun:
            await asyncio.sleep(0.02)
        game = begun[0]
        followers = {
            SPECTATOR: follow(server, game.game_id, None, None),
            "0": follow(server, game.game_id, game.tokens[0], 7),  # hangs up every 7 events
            "1": follow(server, game.game_id, game.tokens[1], None),
        }
        following = asyncio.gather(*followers.values())
        await asyncio.sleep(0.5)
        ready.set()
        streams = dict(zip(followers, await asyncio.wait_for(following, 300), strict=True))
        return await playing, streams

    game, streams = asyncio.run(scenario())
    assert game.final["status"] == "finished"
    with httpx.Client(base_url=server, timeout=30) as http:
        rest = {viewer: all_events(http, game.game_id, _token(game, viewer)) for viewer in streams}
        for viewer, received in streams.items():
            shown = [{k: e["data"][k] for k in ("seq", "type", "data")} for e in received.events]
            assert shown == rest[viewer], f"the stream of {viewer} differs from its history"
            assert [e["id"] for e in received.events] == [e["seq"] for e in rest[viewer]]
            assert all(e["event"] == e["data"]["type"] for e in received.events)
        # Seat 0 reconnected many times, each time resuming after its last event.
        assert streams["0"].connections > 3
        # A seat's own data reaches only that seat (the histories differ, and each stream
        # equals its own history): and `next` is a seat's own decision, never a spectator's.
        assert rest["0"] != rest[SPECTATOR] and rest["0"] != rest["1"]
        assert all(e["data"]["next"] is None for e in streams[SPECTATOR].events)
        offers = [e["data"]["next"] for e in streams["1"].events if e["data"]["next"] is not None]
        assert offers and all(o["choices"] and o["decision"]["prompt"] for o in offers)

        # The game is over: a client that has the last event is told to stop (204); one event
        # short, it gets that event and the stream ends.
        last = rest[SPECTATOR][-1]["seq"]
        url = f"/v1/games/{game.game_id}/stream"
        assert http.get(url, headers={"Last-Event-ID": str(last)}).status_code == 204
        tail = http.get(url, params={"after": last - 1})
        assert tail.status_code == 200 and tail.text.count("\nevent: ") == 1 and "game_over" in tail.text


def test_an_idle_stream_sends_heartbeats_and_refuses_a_foreign_token(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        game_id, tokens = new_duel(http)
        _, other_tokens = new_duel(http)
        refused = http.get(f"/v1/games/{game_id}/stream", headers=auth(other_tokens[0]))
        assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"
        assert http.get("/v1/games/no-such-game/stream").status_code == 404

    async def idle() -> Received:
        received = Received()
        async with httpx.AsyncClient(base_url=server, timeout=30) as client:
            task = asyncio.create_task(
                read_stream(client, f"/v1/games/{game_id}/stream", tokens[0], received)
            )
            started = time.monotonic()
            while len(received.comments) < 3 and time.monotonic() - started < 20:
                await asyncio.sleep(0.05)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        return received

    received = asyncio.run(idle())
    assert received.fields[0] == "retry"
    assert len(received.comments) >= 3 and set(received.comments) == {": keep-alive"}


def _token(game: PlayedGame, viewer: str) -> str | None:
    return None if viewer == SPECTATOR else game.tokens[int(viewer)]
