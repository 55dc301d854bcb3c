"""Crash safety: SIGKILL the server in the middle of many games and restart it on the same database.

Every choice that got a success response must be stored exactly as acknowledged (same events at the
same sequence numbers, as the submitting seat sees them), each exactly once; submits caught in the
crash are retried with the same Idempotency-Key and must be applied at most once; versions and
sequence numbers stay contiguous, and every game plays on to its end.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.databases import postgres_database_url
from tests.support.http import auth
from tests.support.play import all_events, new_duel
from tests.support.servers import ServerProcess

pytestmark = pytest.mark.timeout(120)

WORKERS = 4
GAMES_PER_WORKER = 3
ROUNDS = 2
KILL_AFTER_ACKS = 24
"""Out of 4 x 3 games x 2 rounds x 3 submits = 72: the kill lands well inside the play."""
PLAY_DEADLINE = 60.0
SETUP_VERSION = 3
"""Two seats joined and the start: the version before the first choice."""


@dataclass(frozen=True)
class Ack:
    game_id: str
    seat: int
    key: str
    choice: dict[str, Any]
    response: dict[str, Any]
    before_crash: bool


@dataclass
class Duel:
    game_id: str
    tokens: list[str]
    finished: bool = False


@dataclass
class Table:
    """What the workers share with the test: acknowledged choices and the server's state."""

    acks: list[Ack] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    server_up: threading.Event = field(default_factory=threading.Event)
    crashing: threading.Event = field(default_factory=threading.Event)
    in_doubt: int = 0

    def acknowledged(self, ack: Ack) -> int:
        with self.lock:
            self.acks.append(ack)
            return len(self.acks)


class Player(threading.Thread):
    """Plays every seat of its games with random legal choices until they are over."""

    def __init__(self, base: str, games: list[Duel], table: Table, seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.games, self.table = base, games, table
        self.rng = random.Random(seed)
        self.error: BaseException | None = None
        self.deadline = time.monotonic() + PLAY_DEADLINE

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base, timeout=10) as http:
                while not all(game.finished for game in self.games):
                    for game in self.games:
                        if not game.finished:
                            self.play_one(http, game)
        except BaseException as error:
            self.error = error

    def request(self, http: httpx.Client, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """Send until the server answers; a request cut by the crash is sent again unchanged."""
        while True:
            if time.monotonic() > self.deadline:
                raise TimeoutError("the games did not finish in time")
            try:
                return http.request(method, url, **kwargs)
            except httpx.TransportError:
                if method == "POST":
                    with self.table.lock:
                        self.table.in_doubt += 1
                if not self.table.server_up.wait(timeout=PLAY_DEADLINE):
                    raise
                time.sleep(0.05)

    def play_one(self, http: httpx.Client, game: Duel) -> None:
        """Submit one choice for the first seat that has one (or notice the end)."""
        for seat, token in enumerate(game.tokens):
            pending = self.request(http, "GET", f"/v1/games/{game.game_id}/choices", headers=auth(token))
            assert pending.status_code == 200, pending.text
            body = pending.json()
            decision = body["decision"]
            if decision is None or decision["your_sealed_choice"] is not None:
                continue
            choice = self.rng.choice(body["choices"])
            key = uuid.uuid4().hex
            response = self.request(
                http,
                "POST",
                f"/v1/games/{game.game_id}/choices",
                json={"choice": choice, "version": body["version"]},
                headers={**auth(token), "Idempotency-Key": key},
            )
            assert response.status_code == 200, (response.status_code, response.text)
            before_crash = not self.table.crashing.is_set()  # the answer came before the kill
            self.table.acknowledged(Ack(game.game_id, seat, key, choice, response.json(), before_crash))
            return
        game.finished = True


@contextmanager
def played_through_a_crash(env: dict[str, str], log_dir: Path) -> Iterator[tuple[str, list[Duel], Table]]:
    """Play, kill the server mid-play, restart it and play on; yields the restarted server's URL."""
    server = ServerProcess(env, log_dir).start()
    restarted: ServerProcess | None = None
    table = Table()
    table.server_up.set()
    try:
        with httpx.Client(base_url=server.base, timeout=10) as http:
            duels = [Duel(*new_duel(http, rounds=ROUNDS)) for _ in range(WORKERS * GAMES_PER_WORKER)]
        players = [Player(server.base, duels[n::WORKERS], table, seed=n) for n in range(WORKERS)]
        for player in players:
            player.start()
        deadline = time.monotonic() + 30
        while len(table.acks) < KILL_AFTER_ACKS:
            assert time.monotonic() < deadline, f"only {len(table.acks)} choices acknowledged before the kill"
            assert all(p.is_alive() or p.error is None for p in players), [p.error for p in players]
            time.sleep(0.01)
        table.server_up.clear()
        table.crashing.set()
        server.kill()
        restarted = ServerProcess(env, log_dir, port=server.port).start()
        table.server_up.set()
        for player in players:
            player.join(timeout=PLAY_DEADLINE + 10)
        errors = [p.error for p in players if p.error is not None]
        assert not errors, errors
        assert not any(p.is_alive() for p in players)
        yield restarted.base, duels, table
    finally:
        server.stop()
        if restarted is not None:
            restarted.stop()


def check_stored_games(base: str, duels: list[Duel], table: Table) -> None:
    acks_by_game: dict[str, list[Ack]] = {}
    for ack in table.acks:
        acks_by_game.setdefault(ack.game_id, []).append(ack)
    with httpx.Client(base_url=base, timeout=10) as http:
        for duel in duels:
            acks = acks_by_game.get(duel.game_id, [])
            game = http.get(f"/v1/games/{duel.game_id}").json()
            assert game["status"] == "finished", game
            # Each acknowledged key changed the game exactly once, and nothing else did.
            assert game["version"] == SETUP_VERSION + len(acks)
            assert sorted(a.response["version"] for a in acks) == list(
                range(SETUP_VERSION + 1, SETUP_VERSION + len(acks) + 1)
            )
            spectator = all_events(http, duel.game_id)
            assert [e["seq"] for e in spectator] == list(range(1, len(spectator) + 1))
            assert spectator[-1]["type"] == "game_over"
            for seat, token in enumerate(duel.tokens):
                history = all_events(http, duel.game_id, token)
                mine = [a for a in acks if a.seat == seat]
                for ack in mine:
                    for event in ack.response["events"]:
                        assert history[event["seq"] - 1] == event, (ack, history)
                    first = ack.response["events"][0]
                    if "card" in ack.choice:
                        assert first["type"] == "choice_sealed"
                        assert first["data"]["seat"] == seat and first["data"]["choice"] == ack.choice
                    else:
                        expected = "banked" if ack.choice["action"] == "bank" else "passed"
                        assert first == {**first, "type": expected, "data": {"seat": seat}}
                sealed = [e for e in history if e["type"] == "choice_sealed" and e["data"]["seat"] == seat]
                assert len(sealed) == sum("card" in a.choice for a in mine) == ROUNDS


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tabletop.db'}"
        return
    with postgres_database_url() as url:
        yield url


def test_every_acknowledged_choice_survives_a_server_kill_and_every_game_finishes(
    database_url: str, tmp_path: Path
) -> None:
    env = {"TABLETOP_DATABASE_URL": database_url, "TABLETOP_AUTO_MIGRATE": "true"}
    with played_through_a_crash(env, tmp_path) as (base, duels, table):
        before = [a for a in table.acks if a.before_crash]
        assert len(before) >= KILL_AFTER_ACKS
        assert len(table.acks) > len(before), "nothing was played after the restart"
        check_stored_games(base, duels, table)
