"""The standard ``graphql-ws`` npm client (graphql-transport-ws) against a real server on 127.0.0.1:
it follows a game, receives a reveal live, and a second client resumes with ``after`` and gets
exactly the stored events since, then the next reveal live (issue 23 item 2: grouped answers keep
the protocol standard).

The client is installed from the pinned ``tests/e2e/graphql_ws_client/package-lock.json`` with
``npm ci`` (npm's cache is outside the repository).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.http import auth
from tests.support.play import start_game
from tests.support.servers import running_server

pytestmark = pytest.mark.timeout(300)
CLIENT = Path(__file__).resolve().parent / "graphql_ws_client"
WAIT = 30.0


class Follower:
    """``node follow.mjs``: one event per line on stdout, read by a thread."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def next(self) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError(f"no event within {WAIT} s; so far {self.seen}") from None
        assert line is not None, (
            f"the client ended: {self.process.stderr.read() if self.process.stderr else ''}"
        )
        message: dict[str, Any] = json.loads(line)
        assert "error" not in message, message
        if "done" not in message:
            self.seen.append(message)
        return message

    def until_seq(self, seq: int) -> None:
        while not self.seen or self.seen[-1]["seq"] < seq:
            self.next()

    def to_the_end(self) -> list[dict[str, Any]]:
        while "done" not in self.next():
            pass
        assert self.process.wait(timeout=WAIT) == 0
        return self.seen


@contextmanager
def follower(ws_url: str, game_id: str, token: str, after: int, stop: str) -> Iterator[Follower]:
    command = ["node", "follow.mjs", ws_url, game_id, token, str(after), stop]
    with subprocess.Popen(
        command, cwd=CLIENT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as p:
        try:
            yield Follower(p)
        finally:
            if p.poll() is None:
                p.kill()


def submit(http: httpx.Client, game_id: str, token: str, choice: dict[str, Any]) -> None:
    sent = http.post(f"/v1/games/{game_id}/choices", json={"choice": choice}, headers=auth(token))
    assert sent.status_code == 200, sent.text


def stored(http: httpx.Client, game_id: str, token: str) -> list[dict[str, Any]]:
    page = http.get(f"/v1/games/{game_id}/events", headers=auth(token))
    assert page.status_code == 200, page.text
    events: list[dict[str, Any]] = page.json()["events"]
    return events


def test_the_graphql_ws_client_receives_a_reveal_live_and_resumes_after_it(tmp_path: Path) -> None:
    for tool in ("node", "npm"):
        assert shutil.which(tool), f"{tool} is needed (Debian: apt-get install nodejs npm)"
    installed = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund"], cwd=CLIENT, capture_output=True, text=True,
        timeout=240, check=False, env={**os.environ},
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'tabletop.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
    }
    with running_server(env) as base, httpx.Client(base_url=base, timeout=WAIT) as http:
        ws_url = base.replace("http://", "ws://") + "/graphql"
        game, tokens = start_game(http, "duel", 2, {"rounds": 2}, seed="graphql-ws")
        game_id = game["id"]
        before = http.get(f"/v1/games/{game_id}/events").json()["last_seq"]

        with follower(ws_url, game_id, tokens[0], 0, "reveal") as first:
            first.until_seq(before)  # the history, then the reveal comes live
            submit(http, game_id, tokens[0], {"card": 3})
            submit(http, game_id, tokens[1], {"card": 1})
            seen = first.to_the_end()
        reveal = seen[-1]
        assert reveal["type"] == "reveal" and reveal["seq"] > before
        mine = [e for e in stored(http, game_id, tokens[0]) if e["seq"] <= reveal["seq"]]
        assert [(e["seq"], e["type"], e["data"]) for e in seen] == [
            (e["seq"], e["type"], e["data"]) for e in mine
        ]

        submit(http, game_id, tokens[0], {"action": "bank"})  # while nobody follows
        with follower(ws_url, game_id, tokens[1], reveal["seq"], "reveal") as second:
            now = http.get(f"/v1/games/{game_id}/events").json()["last_seq"]
            second.until_seq(now)  # what happened since the first reveal, from storage
            assert second.seen[-1]["next"]["choices"] == [{"card": 2}, {"card": 3}], "seat 1's own hand"
            submit(http, game_id, tokens[0], {"card": 2})
            submit(http, game_id, tokens[1], {"card": 2})
            resumed = second.to_the_end()
        theirs = [e for e in stored(http, game_id, tokens[1]) if e["seq"] > reveal["seq"]]
        theirs = theirs[: len(resumed)]
        assert [e["seq"] for e in resumed] == list(range(reveal["seq"] + 1, resumed[-1]["seq"] + 1))
        assert [(e["seq"], e["type"], e["data"]) for e in resumed] == [
            (e["seq"], e["type"], e["data"]) for e in theirs
        ]
        assert resumed[-1]["type"] == "reveal" and resumed[-1]["seq"] > now
