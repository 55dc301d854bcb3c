"""CORS and the websocket origin check on a real server (issue 12, section 5): what a browser
really gets over TCP, with ``TABLETOP_CORS_ORIGINS`` set as in production."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin, Subprotocol

from tests.support.servers import ServerProcess

pytestmark = pytest.mark.timeout(120)
APP = "https://app.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("cors")
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{folder / 'tabletop.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_CORS_ORIGINS": APP,
    }
    process = ServerProcess(env, folder).start()
    yield process
    process.stop()


async def _ack(base: str, origin: str | None) -> str:
    url = base.replace("http://", "ws://") + "/graphql"
    async with websockets.connect(
        url,
        subprotocols=[Subprotocol("graphql-transport-ws")],
        origin=Origin(origin) if origin is not None else None,
    ) as socket:
        await socket.send(json.dumps({"type": "connection_init"}))
        answer: str = json.loads(await socket.recv())["type"]
        return answer


def test_a_preflight_from_the_listed_origin_is_answered(server: ServerProcess) -> None:
    answer = httpx.options(
        f"{server.base}/v1/games",
        headers={
            "Origin": APP,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == APP
    other = httpx.options(
        f"{server.base}/v1/games",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert other.status_code == 400 and "access-control-allow-origin" not in other.headers


def test_the_websocket_handshake_from_another_origin_is_refused_with_403(server: ServerProcess) -> None:
    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(_ack(server.base, "https://evil.example"))
    assert refused.value.response.status_code == 403


def test_the_websocket_accepts_the_listed_origin_and_clients_without_one(server: ServerProcess) -> None:
    assert asyncio.run(_ack(server.base, APP)) == "connection_ack"
    assert asyncio.run(_ack(server.base, None)) == "connection_ack"
