"""Ratings across a crash: SIGKILL the server while the last moves of many rated games are being
sent, restart it on the same database, resend every unanswered move with its Idempotency-Key, and
check that each game moved each of its players' ratings exactly once (never twice, never not at all).
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.model.ratings import START_MU
from tests.support.databases import postgres_database_url
from tests.support.http import auth
from tests.support.servers import ServerProcess

pytestmark = pytest.mark.timeout(300)

GAMES = 12
SENDERS = 4
KILL_AFTER_ACKS = 3
"""Of the 12 last moves: the kill lands while most are in flight or not yet sent."""
CLOCK = {"mode": "per_decision", "seconds": 600}


@dataclass
class RatedGame:
    game_id: str
    players: list[dict[str, Any]]
    seat_tokens: list[str]
    last_move: dict[str, Any] = field(default_factory=dict)
    key: str = field(default_factory=lambda: uuid.uuid4().hex)
    answered: bool = False


def set_up(http: httpx.Client, n: int) -> RatedGame:
    """Two new player identities at a clocked one-round Duel, played up to its last move: seat 0
    banking or passing ends the game."""
    people = []
    for name in (f"A{n}", f"B{n}"):
        created = http.post("/v1/players", json={"name": name})
        assert created.status_code == 201, created.text
        people.append(created.json())
    game = http.post("/v1/games", json={"type": "duel", "options": {"rounds": 1}, "clock": CLOCK}).json()
    tokens = []
    for person in people:
        joined = http.post(f"/v1/games/{game['id']}/seats", json={}, headers=auth(person["token"]))
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    assert http.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"])).status_code == 200
    for token, card in zip(tokens, (3, 1), strict=True):
        sent = http.post(
            f"/v1/games/{game['id']}/choices", json={"choice": {"card": card}}, headers=auth(token)
        )
        assert sent.status_code == 200, sent.text
    last = http.get(f"/v1/games/{game['id']}/choices", headers=auth(tokens[0])).json()
    assert last["decision"]["kind"] == "bank", last
    move = {"choice": {"action": "pass"}, "version": last["version"]}
    return RatedGame(game["id"], people, tokens, move)


def send_last_moves(base: str, games: list[RatedGame], acks: list[str], lock: threading.Lock) -> None:
    """Send each game's last move once; a move cut by the crash stays unanswered."""
    with httpx.Client(base_url=base, timeout=10) as http:
        for game in games:
            try:
                answer = http.post(
                    f"/v1/games/{game.game_id}/choices",
                    json=game.last_move,
                    headers={**auth(game.seat_tokens[0]), "Idempotency-Key": game.key},
                )
            except httpx.TransportError:
                return
            assert answer.status_code == 200, answer.text
            game.answered = True
            with lock:
                acks.append(game.game_id)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tabletop.db'}"
        return
    with postgres_database_url() as url:
        yield url


def test_each_rated_game_counts_once_across_a_kill_at_its_last_move(
    database_url: str, tmp_path: Path
) -> None:
    env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_AUTO_MIGRATE": "true"}
    server = ServerProcess(env, tmp_path).start()
    restarted: ServerProcess | None = None
    try:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            games = [set_up(http, n) for n in range(GAMES)]
        acks: list[str] = []
        lock = threading.Lock()
        senders = [
            threading.Thread(target=send_last_moves, args=(server.base, games[n::SENDERS], acks, lock))
            for n in range(SENDERS)
        ]
        for sender in senders:
            sender.start()
        deadline = time.monotonic() + 60
        while len(acks) < KILL_AFTER_ACKS:
            assert time.monotonic() < deadline, f"only {len(acks)} last moves answered before the kill"
            time.sleep(0.002)
        server.kill()
        for sender in senders:
            sender.join(timeout=30)
        answered_before = sum(game.answered for game in games)
        assert KILL_AFTER_ACKS <= answered_before < GAMES, "the kill missed the last moves"
        restarted = ServerProcess(env, tmp_path, port=server.port).start()
        with httpx.Client(base_url=restarted.base, timeout=10) as http:
            for game in games:
                if not game.answered:  # in doubt: the same key applies it at most once
                    again = http.post(
                        f"/v1/games/{game.game_id}/choices",
                        json=game.last_move,
                        headers={**auth(game.seat_tokens[0]), "Idempotency-Key": game.key},
                    )
                    assert again.status_code == 200, again.text
            check_each_game_counted_once(http, games)
    finally:
        server.stop()
        if restarted is not None:
            restarted.stop()


def check_each_game_counted_once(http: httpx.Client, games: list[RatedGame]) -> None:
    entries = http.get("/v1/leaderboards/duel", params={"limit": 200}).json()["entries"]
    assert len(entries) == 2 * GAMES
    assert all(entry["games"] == 1 for entry in entries), entries
    for game in games:
        assert http.get(f"/v1/games/{game.game_id}").json()["status"] == "finished"
        for n, person in enumerate(game.players):
            profile = http.get(f"/v1/players/{person['id']}/profile").json()
            assert [h["game_id"] for h in profile["history"]] == [game.game_id]
            assert [(r["game_id"], r["rated"]) for r in profile["recent_games"]] == [(game.game_id, True)]
            (rating,) = profile["ratings"]
            assert rating["games"] == 1
            assert (rating["mu"] > START_MU) == (n == 0)  # seat 0 played the 3 and won
