"""Following a tournament on a real server (issue 30 item 4): its SSE stream, read by a client
that hangs up every few events and resumes with ``Last-Event-ID`` as an ``EventSource`` does,
delivers every stored event once, in order, from the registrations to ``tournament_finished``,
with keep-alive comments while idle; a client that has the last event gets 204. Each player's
webhook endpoint on 127.0.0.1 receives one signed ``tournament_round_ready`` per round it is
seated in, valid against the OpenAPI ``webhooks`` object."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from standardwebhooks.webhooks import Webhook

from tests.support.client import CLOCK
from tests.support.contract import closed
from tests.support.http import auth
from tests.support.live import Received, read_stream
from tests.support.servers import ServerProcess
from tests.support.tournament_api import Tourney
from tests.support.waiting import eventually
from tests.support.webhooks import running_receiver

pytestmark = pytest.mark.timeout(600)

FAST = {
    "TABLETOP_TOURNAMENT_POLL_SECONDS": "0.2",
    "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
    "TABLETOP_RATE_LIMIT_BURST": "100000",
    "TABLETOP_STREAM_HEARTBEAT_SECONDS": "0.3",
    "TABLETOP_WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",
    "TABLETOP_WEBHOOK_POLL_SECONDS": "0.1",
}
ENDS = ("tournament_finished", "tournament_cancelled")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module: each test follows a tournament, players and webhooks of its own."""
    tmp_path = tmp_path_factory.mktemp("tournament-stream")
    env = {"TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}", "TABLETOP_AUTO_MIGRATE": "true", **FAST}
    process = ServerProcess(env, tmp_path).start()
    try:
        yield process
    finally:
        process.stop()


async def follow_tournament(
    base: str, tournament_id: str, hang_up_every: int, received: Received
) -> Received:
    url = f"/v1/tournaments/{tournament_id}/stream"
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        while not received.events or received.events[-1]["event"] not in ENDS:
            await read_stream(client, url, None, received, stop_after=hang_up_every)
    return received


def test_the_stream_resumes_with_last_event_id_and_delivers_every_stored_event_once(
    server: ServerProcess,
) -> None:
    with httpx.Client(base_url=server.base, timeout=30) as http:
        tourney = Tourney([http])
        tourney.create(name="Streamed", game_type="duel", format="swiss", rounds=2, clock=CLOCK)
        tid = tourney.tournament_id
        followed: list[Received] = []
        following = Received()
        reader = threading.Thread(
            target=lambda: followed.append(asyncio.run(follow_tournament(server.base, tid, 3, following))),
            daemon=True,
        )
        reader.start()
        # nothing has happened yet: the open stream is idle and says so (a fast machine plays the
        # rest without a pause long enough for another keep-alive)
        eventually(lambda: following.comments or None, 30, "a keep-alive on the idle stream")
        tourney.register(["Ann", "Bob", "Cy", "Dee"])
        tourney.start()
        tourney.play_round(1, seed=1)
        tourney.play_round(2, seed=2)
        eventually(lambda: tourney.tournament()["status"] == "finished", 60, "finished")
        reader.join(60)
        assert followed, "the stream never reached tournament_finished"
        received = followed[0]
        stored: dict[str, Any] = http.get(f"/v1/tournaments/{tid}/events").json()
        rounds = tourney.rounds()
        # a client that already has the last event is told to stop
        done = http.get(f"/v1/tournaments/{tid}/stream", headers={"Last-Event-ID": str(stored["last_seq"])})
        assert done.status_code == 204
        missing = http.get("/v1/tournaments/nope/stream")
        assert missing.status_code == 404 and missing.json()["code"] == "tournament_not_found"
    assert received.connections >= 5  # it hung up every 3 events and resumed each time
    ids = [e["id"] for e in received.events]
    assert ids == list(range(1, stored["last_seq"] + 1))
    assert [e["data"] for e in received.events] == stored["events"]
    assert all(e["event"] == e["data"]["type"] and e["data"]["tournament_id"] == tid for e in received.events)
    kinds = [e["event"] for e in received.events]
    assert kinds[:4] == ["player_registered"] * 4 and kinds[4] == "tournament_started"
    assert kinds.count("round_started") == 2 and kinds.count("game_finished") == 4
    assert kinds[-1] == "tournament_finished"
    started = [e["data"]["data"] for e in received.events if e["event"] == "round_started"]
    assert [s["games"] for s in started] == [[t["game_id"] for t in r["tables"]] for r in rounds]
    assert received.comments and set(received.comments) == {": keep-alive"}


def test_each_seated_player_gets_one_signed_round_ready_webhook_per_round(server: ServerProcess) -> None:
    with running_receiver() as receiver, httpx.Client(base_url=server.base, timeout=30) as http:
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
        tourney = Tourney([http])
        tourney.create(
            name="Hooked", game_type="duel", format="swiss", rounds=2, clock=CLOCK, pause_seconds=0
        )
        tourney.register(["Ann", "Bob", "Cy", "Dee", "Eve"])  # five: a bye each round
        secrets: dict[str, str] = {}
        for player_id, token in tourney.players.items():
            hook = http.post(
                "/v1/webhooks", json={"url": url, "filters": ["tournament_round_ready"]}, headers=auth(token)
            )
            assert hook.status_code == 201, hook.text
            secrets[player_id] = hook.json()["secret"]
        tourney.start()
        tourney.play_round(1, seed=1)
        tourney.play_round(2, seed=2)
        eventually(lambda: tourney.tournament()["status"] == "finished", 60, "finished")
        rounds = tourney.rounds()
        seated = sorted(
            (r["round"], s["player_id"], t["game_id"], s["seat"], t["number"])
            for r in rounds
            for t in r["tables"]
            for s in t["seats"]
        )
        assert len(seated) == 8  # 2 rounds x 2 tables x 2 seats; the bye is not notified
        eventually(lambda: len(receiver.requests) >= len(seated), 30, "every round's notices")
        document = http.get("/openapi.json").json()
    schema = document["webhooks"]["tournamentRoundReady"]["post"]["requestBody"]["content"][
        "application/json"
    ]
    validator = Draft202012Validator({**schema["schema"], "components": closed(document["components"])})
    got = []
    for headers, body in receiver.requests:
        payload = json.loads(body)
        Webhook(secrets[payload["player_id"]]).verify(body, headers)  # signed with that player's secret
        validator.validate(payload)
        assert payload["tournament_id"] == tourney.tournament_id and payload["game_type"] == "duel"
        assert (
            payload["seat_token_path"]
            == f"/v1/players/me/games/{payload['game_id']}/seats/{payload['seat']}/token"
        )
        got.append(
            (payload["round"], payload["player_id"], payload["game_id"], payload["seat"], payload["table"])
        )
    assert len({h["webhook-id"] for h, _ in receiver.requests}) == len(got)
    assert sorted(got) == seated  # exactly once per seated player and round
