"""CPU of one ``submitChoice`` over the websocket: the pre-resolved path (``api.graphql.socket_submit``)
against Strawberry's own handling of the same operation, in one process, interleaved.

``python bench/socket_submit_cost.py [--submits N] [--rounds R]``

The app runs in process (``TestClient``) with the test game; one seat's socket sends N submits of a
choice the rules refuse (each still goes through ``PlayService.submit_async``: the game loaded in
a group-commit transaction, the guards, the undo, the ``Problem`` answer), alternately with the
pre-resolved path on and off (A B B A …, after a warm-up of each). The figure is the whole process's
CPU per submit (``time.process_time``): the client's share is the same on both sides, so the
difference is the server path's. Prints one JSON object with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUERY = """mutation S($g: ID!, $c: JSON!) { submitChoice(gameId: $g, choice: $c) {
  __typename ... on SubmitResult { status version events { seq type } next { version choices } }
  ... on Problem { code httpStatus detail } } }"""


def measure(submits: int, rounds: int) -> dict[str, Any]:
    from fastapi.testclient import TestClient

    import api.app as app_module
    from api.graphql.guard import build_schema
    from tests.support.client import app_with_test_game, make_settings, seated_game
    from tests.support.graphql import PROTOCOL

    built: list[Any] = []

    def keep(*arguments: Any) -> Any:
        built.append(build_schema(*arguments))
        return built[-1]

    app_module.build_schema = keep  # type: ignore[attr-defined,assignment]  # kept, to switch paths
    app = app_with_test_game(make_settings(Path(tempfile.mkdtemp()), rate_limit_enabled=False))
    schema = built[0]
    plans = schema.socket_submits
    cpu: dict[bool, list[float]] = {True: [], False: []}
    with TestClient(app) as client:
        game, tokens = seated_game(client, seed="bench", options={"rounds": 1})
        with client.websocket_connect("/graphql", subprotocols=[PROTOCOL]) as socket:
            socket.send_json({"type": "connection_init", "payload": {"authorization": f"Bearer {tokens[0]}"}})
            socket.receive_json()
            sent = 0
            for number in range(-2, rounds):  # two unreported rounds warm both paths up
                for fast in (True, False) if number % 2 == 0 else (False, True):
                    schema.socket_submits = plans if fast else None
                    started = time.process_time()
                    for _ in range(submits):
                        sent += 1
                        variables = {"g": game["id"], "c": {"card": 9}}
                        payload = {"query": QUERY, "variables": variables}
                        socket.send_json({"id": str(sent), "type": "subscribe", "payload": payload})
                        answer = socket.receive_json()
                        socket.receive_json()  # complete
                        assert answer["payload"]["data"]["submitChoice"]["code"] == "illegal_choice"
                    if number >= 0:
                        cpu[fast].append((time.process_time() - started) / submits * 1000)
    pre, strawberry = statistics.fmean(cpu[True]), statistics.fmean(cpu[False])
    return {
        "submits_per_round": submits,
        "rounds": rounds,
        "pre_resolved_cpu_ms": round(pre, 3),
        "strawberry_cpu_ms": round(strawberry, 3),
        "ratio": round(pre / strawberry, 2),
        "per_round_ms": {
            "pre_resolved": [round(v, 3) for v in cpu[True]],
            "strawberry": [round(v, 3) for v in cpu[False]],
        },
        "load": round(os.getloadavg()[0], 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--submits", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.submits, args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
