"""The load generator of ``bench/api_load.py``, run as its own process; prints one JSON object.

``python bench/loadgen.py submit --base URL --game SLUG [--bare] --clients C --warmup W --duration D``
    C clients, each on its own games (2 seats, both played by that client), loop
    GET choices → POST one legal choice; a game that ends is replaced by a new one. Only POSTs that
    start after the warm-up and finish within the measured window count. With ``--bare`` the same
    loop runs against ``bench/bare_app.py`` (no games to create).
``python bench/loadgen.py reveal --base URL --game SLUG --subscribers N --rounds R``
    N GraphQL websocket subscribers (graphql-transport-ws) on one game; each round plays to a
    simultaneous decision, seals all but one seat, then times from sending the last sealing POST
    to the receipt of the ``reveal`` event by each subscriber.

HTTP is a minimal HTTP/1.1 keep-alive client on asyncio streams: it costs far less CPU per
request than a general client, so the measurement is not limited by the load generator.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

GAME_EVENTS = (
    "subscription Events($gameId: ID!, $after: Int!) "
    "{ gameEvents(gameId: $gameId, after: $after) { seq type data } }"
)


class HttpError(Exception):
    pass


IDLE_REOPEN_S = 2.0
"""Servers close idle keep-alive connections (uvicorn after 5 s): reconnect before reusing one
that has been idle this long, rather than send a request into a socket being closed."""


class Connection:
    """One keep-alive HTTP/1.1 connection; requests on it are sequential."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.host_header = f"{self.host}:{self.port}".encode()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        if self.writer is not None and time.monotonic() - self.last_used > IDLE_REOPEN_S:
            await self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        head = [f"{method} {path} HTTP/1.1".encode(), b"Host: " + self.host_header]
        if token is not None:
            head.append(f"Authorization: Bearer {token}".encode())
        payload = b""
        if body is not None:
            payload = json.dumps(body, separators=(",", ":")).encode()
            head.append(b"Content-Type: application/json")
            head.append(b"Content-Length: " + str(len(payload)).encode())
        self.writer.write(b"\r\n".join(head) + b"\r\n\r\n" + payload)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        status = int(raw[9:12])
        length, chunked, close = 0, False, False
        for line in raw.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
            elif name == b"connection" and b"close" in value.lower():
                close = True
        if chunked:
            data = bytearray()
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                data += await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                del data[-2:]
            content = bytes(data)
        else:
            content = await self.reader.readexactly(length) if length else b""
        self.last_used = time.monotonic()
        if close:
            await self.close()
        return status, json.loads(content) if content else None


def percentile(values: Sequence[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Tally:
    window_start: float
    window_end: float
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    gets: int = 0
    posts: int = 0
    games_created: int = 0
    games_finished: int = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def in_window(self, started: float, finished: float) -> bool:
        return started >= self.window_start and finished <= self.window_end


# -- games over REST ---------------------------------------------------------------------------------


@dataclass
class Game:
    id: str
    tokens: list[str]
    seat: int = 0


async def call(
    conn: Connection, tally: Tally | None, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    """A request that waits and retries while rate-limited (429), counting each 429."""
    for _ in range(200):
        status, data = await conn.request(method, path, body, token)
        if status != 429:
            return status, data
        if tally is not None:
            tally.error("429 rate limited")
        await asyncio.sleep(0.05)
    raise HttpError(f"{method} {path}: still rate-limited after retries")


async def new_game(
    conn: Connection, slug: str, options: dict[str, Any], tally: Tally | None, seats: int = 2
) -> Game:
    status, created = await call(conn, tally, "POST", "/v1/games", {"type": slug, "options": options})
    if status != 201:
        raise HttpError(f"create game: {status} {created}")
    game_id = created["id"]
    tokens = []
    for seat in range(seats):
        status, joined = await call(conn, tally, "POST", f"/v1/games/{game_id}/seats", {"name": f"p{seat}"})
        if status != 201:
            raise HttpError(f"join: {status} {joined}")
        tokens.append(joined["token"])
    status, started = await call(
        conn, tally, "POST", f"/v1/games/{game_id}/start", None, created["host_token"]
    )
    if status != 200:
        raise HttpError(f"start: {status} {started}")
    if tally is not None:
        tally.games_created += 1
    return Game(game_id, tokens)


async def pending_choices(conn: Connection, game: Game, tally: Tally | None) -> dict[str, Any] | None:
    """The choices of a seat that still has to decide (switching seats as needed); None once over.

    A seat that is not asked now gets no decision, so only "no seat is asked" means the game is over.
    """
    unasked: set[int] = set()
    for _ in range(2 * len(game.tokens) + 1):
        status, body = await call(
            conn, tally, "GET", f"/v1/games/{game.id}/choices", None, game.tokens[game.seat]
        )
        if tally is not None:
            tally.gets += 1
        if status != 200:
            raise HttpError(f"get choices: {status} {body}")
        decision = body["decision"]
        if decision is None:
            unasked.add(game.seat)
            if len(unasked) == len(game.tokens):
                return None
            game.seat = min(set(range(len(game.tokens))) - unasked)
            continue
        waiting = [s for s in decision["seats"] if s not in decision["sealed"]]
        if game.seat in waiting and body["choices"]:
            return dict(body)
        game.seat = waiting[0] if waiting else game.seat
    raise HttpError(f"game {game.id}: no seat with choices")


async def submit_client(
    base: str, slug: str, options: dict[str, Any], tally: Tally, stop: float, seed: int
) -> None:
    conn = Connection(base)
    rng = random.Random(seed)
    try:
        game = await new_game(conn, slug, options, tally)
        while time.perf_counter() < stop:
            pending = await pending_choices(conn, game, tally)
            if pending is None:
                tally.games_finished += 1
                game = await new_game(conn, slug, options, tally)
                continue
            body = {"choice": rng.choice(pending["choices"]), "version": pending["version"]}
            started = time.perf_counter()
            status, result = await conn.request(
                "POST", f"/v1/games/{game.id}/choices", body, game.tokens[game.seat]
            )
            finished = time.perf_counter()
            tally.posts += 1
            if status == 200:
                if tally.in_window(started, finished):
                    tally.latencies.append(finished - started)
            else:
                tally.error(f"{status} {result.get('code') if isinstance(result, dict) else result}")
    finally:
        await conn.close()


async def bare_client(base: str, tally: Tally, stop: float, seed: int) -> None:
    conn = Connection(base)
    rng = random.Random(seed)
    path = f"/v1/games/bare{seed}/choices"
    try:
        while time.perf_counter() < stop:
            status, pending = await conn.request("GET", path, None, "bare-token")
            tally.gets += 1
            body = {"choice": rng.choice(pending["choices"]), "version": pending["version"]}
            started = time.perf_counter()
            status, _result = await conn.request("POST", path, body, "bare-token")
            finished = time.perf_counter()
            tally.posts += 1
            if status == 200:
                if tally.in_window(started, finished):
                    tally.latencies.append(finished - started)
            else:
                tally.error(str(status))
    finally:
        await conn.close()


async def run_submit(args: argparse.Namespace) -> dict[str, Any]:
    options = json.loads(args.options)
    start = time.perf_counter()
    window_start = start + args.warmup
    window_end = window_start + args.duration
    tally = Tally(window_start, window_end)
    if args.bare:
        tasks = [bare_client(args.base, tally, window_end, seed) for seed in range(args.clients)]
    else:
        tasks = [
            submit_client(args.base, args.game, options, tally, window_end, seed)
            for seed in range(args.clients)
        ]
    results = await asyncio.wait_for(
        asyncio.gather(*tasks, return_exceptions=True), args.warmup + args.duration + 60
    )
    failures = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    lat = tally.latencies
    return {
        "target": "bare" if args.bare else "ours",
        "clients": args.clients,
        "duration_s": args.duration,
        "submits": len(lat),
        "submits_per_s": len(lat) / args.duration,
        "p50_ms": _ms(percentile(lat, 0.50)),
        "p99_ms": _ms(percentile(lat, 0.99)),
        "max_ms": _ms(max(lat) if lat else None),
        "gets": tally.gets,
        "posts_total": tally.posts,
        "games_created": tally.games_created,
        "games_finished": tally.games_finished,
        "errors": tally.errors,
        "client_failures": failures[:5],
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)


# -- reveal latency over GraphQL websockets ---------------------------------------------------------------


OPEN_BATCH = 50
"""Reveal subscribers connect this many at a time."""


class Subscriber:
    """One websocket with one ``gameEvents`` subscription; notes when each reveal arrives."""

    def __init__(self, base: str, game_id: str, after: int) -> None:
        self.url = base.replace("http://", "ws://") + "/graphql"
        self.game_id, self.after = game_id, after
        self.reveals: dict[int, float] = {}
        self.last_seq = after
        self.ready = asyncio.Event()
        self.arrived = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.connection: Any = None
        self.failures = 0
        self.received = 0

    async def open(self) -> None:
        """Connect and subscribe, retrying a failed handshake twice (a bounded number of times)."""
        for attempt in range(3):
            try:
                await self._open()
                return
            except Exception:
                await self.close()
                self.failures += 1
                if attempt == 2:
                    raise
                await asyncio.sleep(0.2)

    async def _open(self) -> None:
        import websockets
        from websockets.typing import Subprotocol

        self.connection = await websockets.connect(
            self.url, subprotocols=[Subprotocol("graphql-transport-ws")], open_timeout=10
        )
        await self.connection.send(json.dumps({"type": "connection_init", "payload": {}}))
        ack = json.loads(await asyncio.wait_for(self.connection.recv(), 10))
        if ack.get("type") != "connection_ack":
            raise RuntimeError(f"no connection_ack: {ack}")
        variables = {"gameId": self.game_id, "after": self.after}
        await self.connection.send(
            json.dumps(
                {"id": "1", "type": "subscribe", "payload": {"query": GAME_EVENTS, "variables": variables}}
            )
        )
        self.task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        async for raw in self.connection:
            received = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "ping":
                await self.connection.send(json.dumps({"type": "pong"}))
            elif kind == "next":
                self.received += 1
                self.ready.set()
                event = message["payload"]["data"]["gameEvents"]
                self.last_seq = max(self.last_seq, event["seq"])
                self.arrived.set()
                if event["type"] == "reveal":
                    self.reveals[event["seq"]] = received
                    self.arrived.set()
            elif kind in ("complete", "error"):
                return

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None
        if self.connection is not None:
            await self.connection.close()
            self.connection = None


async def run_reveal(args: argparse.Namespace) -> dict[str, Any]:
    options = json.loads(args.options)
    conn = Connection(args.base)
    rng = random.Random(7)
    latencies: list[float] = []
    rounds = games = 0
    subscribers: list[Subscriber] = []
    timeouts = open_failures = 0
    window_cpu, deliveries = 0.0, 0
    deadline = time.perf_counter() + args.time_limit
    try:
        while rounds < args.rounds and time.perf_counter() < deadline:
            game = await new_game(conn, args.game, options, None)
            games += 1
            status, page = await conn.request(
                "GET", f"/v1/games/{game.id}/events?after=0", None, game.tokens[0]
            )
            last_seq = int(page["last_seq"])
            # Start one event back so each subscriber gets one stored event at once: proof it is live.
            subscribers = [
                Subscriber(args.base, game.id, max(0, last_seq - 1)) for _ in range(args.subscribers)
            ]
            for start in range(0, len(subscribers), OPEN_BATCH):  # a thousand handshakes at once time out
                await asyncio.gather(*(s.open() for s in subscribers[start : start + OPEN_BATCH]))
            open_failures += sum(s.failures for s in subscribers)
            await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in subscribers)), 20)
            known_seq = last_seq
            # The server's CPU from here to the game's last round, per event delivered meanwhile:
            # the fan-out's cost (a few submits per round included), not the subscribing.
            cpu_from = _server_cpu(args.server_pid)
            received_from = sum(s.received for s in subscribers)
            while rounds < args.rounds and time.perf_counter() < deadline:
                pending = await pending_choices(conn, game, None)
                if pending is None:
                    break
                decision = pending["decision"]
                waiting = [s for s in decision["seats"] if s not in decision["sealed"]]
                if not (decision["simultaneous"] and len(decision["seats"]) >= 2 and len(waiting) == 1):
                    body = {"choice": rng.choice(pending["choices"]), "version": pending["version"]}
                    status, result = await conn.request(
                        "POST", f"/v1/games/{game.id}/choices", body, game.tokens[game.seat]
                    )
                    if status != 200:
                        raise HttpError(f"submit: {status} {result}")
                    known_seq = max([known_seq, *(e["seq"] for e in result["events"])])
                    continue
                # The last seat of a simultaneous decision: this submit seals it and reveals. First
                # let every subscriber receive the events so far, so the reveal queues behind nothing.
                try:
                    await asyncio.wait_for(_all_reached(subscribers, known_seq), timeout=10.0)
                except TimeoutError:
                    timeouts += 1
                for s in subscribers:
                    s.arrived.clear()
                body = {"choice": rng.choice(pending["choices"]), "version": pending["version"]}
                sent = time.perf_counter()
                status, result = await conn.request(
                    "POST", f"/v1/games/{game.id}/choices", body, game.tokens[game.seat]
                )
                if status != 200:
                    raise HttpError(f"sealing submit: {status} {result}")
                known_seq = max([known_seq, *(e["seq"] for e in result["events"])])
                reveal = [e["seq"] for e in result["events"] if e["type"] == "reveal"]
                if not reveal:
                    continue
                seq = reveal[0]
                waiting_subs = [s for s in subscribers if seq not in s.reveals]
                try:
                    await asyncio.wait_for(_all_have(waiting_subs, seq), timeout=5.0)
                except TimeoutError:
                    timeouts += 1
                latencies.extend(s.reveals[seq] - sent for s in subscribers if seq in s.reveals)
                rounds += 1
            try:
                await asyncio.wait_for(_all_reached(subscribers, known_seq), timeout=10.0)
            except TimeoutError:
                timeouts += 1
            window_cpu += _server_cpu(args.server_pid) - cpu_from
            deliveries += sum(s.received for s in subscribers) - received_from
            await asyncio.gather(*(s.close() for s in subscribers))
            subscribers = []
    finally:
        await asyncio.gather(*(s.close() for s in subscribers), return_exceptions=True)
        await conn.close()
    return {
        "subscribers": args.subscribers,
        "rounds": rounds,
        "games": games,
        "samples": len(latencies),
        "timeouts": timeouts,
        "open_retries": open_failures,
        "p50_ms": _ms(percentile(latencies, 0.50)),
        "p99_ms": _ms(percentile(latencies, 0.99)),
        "max_ms": _ms(max(latencies) if latencies else None),
        "deliveries": deliveries,
        "server_cpu_us_per_delivery": (
            round(window_cpu / deliveries * 1e6, 2) if args.server_pid and deliveries else None
        ),
    }


def _server_cpu(pid: int | None) -> float:
    """CPU seconds (user + system, all threads) of the server process ``pid``; 0 without one."""
    if not pid:
        return 0.0
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _all_reached(subscribers: list[Subscriber], seq: int) -> None:
    for s in subscribers:
        while s.last_seq < seq:
            s.arrived.clear()
            await s.arrived.wait()


async def _all_have(subscribers: list[Subscriber], seq: int) -> None:
    for s in subscribers:
        while seq not in s.reveals:
            await s.arrived.wait()
            s.arrived.clear()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="mode", required=True)
    submit = sub.add_parser("submit")
    submit.add_argument("--base", required=True)
    submit.add_argument("--game", default="")
    submit.add_argument("--options", default="{}")
    submit.add_argument("--bare", action="store_true")
    submit.add_argument("--clients", type=int, default=32)
    submit.add_argument("--warmup", type=float, default=2.0)
    submit.add_argument("--duration", type=float, default=10.0)
    reveal = sub.add_parser("reveal")
    reveal.add_argument("--base", required=True)
    reveal.add_argument("--game", required=True)
    reveal.add_argument("--options", default="{}")
    reveal.add_argument("--subscribers", type=int, default=100)
    reveal.add_argument("--rounds", type=int, default=10)
    reveal.add_argument("--time-limit", type=float, default=60.0)
    reveal.add_argument("--server-pid", type=int, default=None, help="report its CPU per delivered event")
    args = parser.parse_args(argv)
    runner = run_submit if args.mode == "submit" else run_reveal
    started, cpu_started = time.perf_counter(), time.process_time()
    result = asyncio.run(runner(args))
    result["loadgen_cpu_share"] = round(
        (time.process_time() - cpu_started) / (time.perf_counter() - started), 3
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
