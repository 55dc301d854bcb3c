"""Load generator for whole matches followed live; run as its own process, prints one JSON object.

``python bench/matches.py --base URL[,URL...] --game SLUG --matches M --moves K [--loop poll|push]``

M matches at once, two seats each, each seat played by its own client that follows the game on the
GraphQL ``gameEvents`` subscription (instances taken in turn, so with two URLs a match's seats sit
on different instances). A move is one submit by the seat whose decision it is; its latency runs
from sending the submit until that client sees the resulting event on its own subscription. A match
stops after K moves (a game that ends sooner is replaced by a new one).

Loops:
- ``poll``: after each burst of events, GET the seat's choices; POST one if it is asked.
- ``push``: no GET: the event that hands the seat a decision carries it (``next``: decision,
  legal choices, version), and the client posts one of those choices at once.

At the end every client's stream is checked against the stored history (``/events``) of its seat:
events never delivered, duplicates or reordering, and subscriptions that never started are counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadgen import Connection, HttpError, call, new_game, percentile

EVENTS_POLL = (
    "subscription Events($gameId: ID!, $after: Int!) "
    "{ gameEvents(gameId: $gameId, after: $after) { seq type } }"
)
EVENTS_PUSH = (
    "subscription Events($gameId: ID!, $after: Int!) "
    "{ gameEvents(gameId: $gameId, after: $after) { seq type next { version choices } } }"
)
TERMINAL = {"game_over", "game_aborted"}


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    gets: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    never_started: int = 0
    never_delivered: int = 0
    out_of_order: int = 0
    stalled: int = 0
    games: int = 0
    trace: list[tuple[int, float]] = field(default_factory=list)
    """(move number in its game, latency) of every timed move, kept with ``--trace``."""

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


@dataclass
class Match:
    """The moves left to play in one match, shared by its two seat clients."""

    moves_left: int
    over: asyncio.Event = field(default_factory=asyncio.Event)
    played: int = 0
    """Submits in the current game (numbers the moves of ``--trace``)."""


class SeatClient:
    """One seat: a websocket subscription and a keep-alive HTTP connection."""

    def __init__(
        self, base: str, game_id: str, token: str, match: Match, loop: str, rng: random.Random
    ) -> None:
        self.base, self.game_id, self.token, self.match, self.loop = base, game_id, token, match, loop
        self.rng = rng
        self.http = Connection(base)
        self.received: list[dict[str, Any]] = []
        self.arrivals: dict[int, float] = {}
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.arrived = asyncio.Event()
        self.connection: Any = None
        self.started = False
        self.answered_through = 0
        """The last seq our own latest submit produced: offers on earlier events are already answered."""

    async def open(self) -> None:
        import websockets
        from websockets.typing import Subprotocol

        url = self.base.replace("http://", "ws://") + "/graphql"
        self.connection = await websockets.connect(
            url, subprotocols=[Subprotocol("graphql-transport-ws")], open_timeout=20, max_size=None
        )
        init = {"type": "connection_init", "payload": {"authorization": f"Bearer {self.token}"}}
        await self.connection.send(json.dumps(init))
        ack = json.loads(await asyncio.wait_for(self.connection.recv(), 20))
        if ack.get("type") != "connection_ack":
            raise HttpError(f"no connection_ack: {ack}")
        query = EVENTS_PUSH if self.loop == "push" else EVENTS_POLL
        payload = {"query": query, "variables": {"gameId": self.game_id, "after": 0}}
        await self.connection.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))

    async def listen(self) -> None:
        async for raw in self.connection:
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "ping":
                await self.connection.send(json.dumps({"type": "pong"}))
                continue
            if kind != "next":
                return
            if message["payload"].get("errors"):
                raise HttpError(f"subscription error: {message['payload']['errors']}")
            event = message["payload"]["data"]["gameEvents"]
            self.started = True
            self.received.append(event)
            self.arrivals[event["seq"]] = now
            self.arrived.set()
            await self.inbox.put(event)
            if event["type"] in TERMINAL:
                return

    async def wait_for_seq(self, seq: int, timeout: float) -> float | None:
        deadline = time.perf_counter() + timeout
        while seq not in self.arrivals:
            self.arrived.clear()
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return None
            try:
                await asyncio.wait_for(self.arrived.wait(), remaining)
            except TimeoutError:
                return None
        return self.arrivals[seq]

    async def play(self, totals: Totals, event_timeout: float) -> None:
        """React to events until the game is over or the match has no moves left."""
        while not self.match.over.is_set():
            event = await self.next_event(event_timeout)
            if event is None:
                if not self.match.over.is_set():
                    totals.stalled += 1
                    pending = await self.poll(Totals())
                    last = self.received[-1] if self.received else {}
                    totals.error(
                        f"stalled after seq {last.get('seq')} ({last.get('type')}, next "
                        f"{'set' if last.get('next') else 'null'}, "
                        f"answered through {self.answered_through}); "
                        f"seat asked now: {pending is not None}"
                    )
                    self.match.over.set()
                return
            if event["type"] in TERMINAL:
                self.match.over.set()
                return
            if self.loop == "push":
                offer = event.get("next") if event["seq"] > self.answered_through else None
            else:
                while not self.inbox.empty():  # react once to a burst of events
                    event = self.inbox.get_nowait()
                    if event["type"] in TERMINAL:
                        self.match.over.set()
                        return
                offer = await self.poll(totals)
            if offer is None or not offer.get("choices"):
                continue
            if self.match.moves_left <= 0:
                self.match.over.set()
                return
            self.match.moves_left -= 1
            await self.submit(offer, totals, event_timeout)

    async def next_event(self, timeout: float) -> dict[str, Any] | None:
        """The next event, or None when the match ended meanwhile or nothing came in time."""
        getter = asyncio.ensure_future(self.inbox.get())
        over = asyncio.ensure_future(self.match.over.wait())
        done, _ = await asyncio.wait(
            {getter, over}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        over.cancel()
        if getter in done:
            return getter.result()
        getter.cancel()
        return None

    async def poll(self, totals: Totals) -> dict[str, Any] | None:
        status, body = await call(
            self.http, None, "GET", f"/v1/games/{self.game_id}/choices", None, self.token
        )
        totals.gets += 1
        if status != 200:
            totals.error(f"GET choices {status}")
            return None
        decision = body.get("decision")
        if decision is None or decision.get("your_sealed_choice") is not None:
            return None
        return dict(body)

    async def submit(self, offer: dict[str, Any], totals: Totals, event_timeout: float) -> None:
        """Post one of the offered choices; in the push loop, go on with the decision the answer
        hands back (a follow-up decision of the same seat) without asking."""
        while offer is not None and offer.get("choices"):
            body = {"choice": self.rng.choice(offer["choices"]), "version": offer["version"]}
            sent = time.perf_counter()
            status, result = await call(
                self.http, None, "POST", f"/v1/games/{self.game_id}/choices", body, self.token
            )
            if status != 200:
                totals.error(f"POST {status} {result.get('code') if isinstance(result, dict) else ''}")
                return
            totals.moves += 1
            self.match.played += 1
            number = self.match.played
            if result["events"]:
                last = max(event["seq"] for event in result["events"])
                self.answered_through = last
                seen = await self.wait_for_seq(last, event_timeout)
                if seen is None:
                    totals.stalled += 1
                    totals.error("stalled: own submit's event never arrived")
                else:
                    totals.latencies.append(max(0.0, seen - sent))
                    totals.trace.append((number, max(0.0, seen - sent)))
            if self.match.moves_left <= 0:
                self.match.over.set()
                return
            if self.loop != "push":
                return
            offer = result.get("next")
            if offer is not None and offer.get("choices"):
                self.match.moves_left -= 1

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
        await self.http.close()


async def stored_events(base: str, game_id: str, token: str) -> list[dict[str, Any]]:
    conn = Connection(base)
    events: list[dict[str, Any]] = []
    after = 0
    try:
        while True:
            status, page = await call(
                conn, None, "GET", f"/v1/games/{game_id}/events?after={after}", None, token
            )
            if status != 200:
                raise HttpError(f"events: {status} {page}")
            if not page["events"]:
                return events
            events.extend(page["events"])
            after = page["last_seq"]
    finally:
        await conn.close()


def audit(client: SeatClient, stored: list[dict[str, Any]], totals: Totals) -> None:
    """Compare what one client received live with the stored history of its seat."""
    if not client.started:
        totals.never_started += 1
    got = [event["seq"] for event in client.received]
    if got != sorted(set(got)):
        totals.out_of_order += 1
    expected = [event["seq"] for event in stored]
    totals.never_delivered += len(set(expected) - set(got))


async def run_match(
    args: argparse.Namespace, bases: list[str], index: int, totals: Totals, options: dict[str, Any]
) -> None:
    match = Match(args.moves)
    rng = random.Random(index)
    creator = Connection(bases[index % len(bases)])
    try:
        while match.moves_left > 0:
            game = await new_game(creator, args.game, options, None)
            totals.games += 1
            match.over = asyncio.Event()
            match.played = 0
            clients = [
                SeatClient(bases[(index + seat) % len(bases)], game.id, token, match, args.loop, rng)
                for seat, token in enumerate(game.tokens)
            ]
            try:
                for client in clients:
                    await client.open()
                listeners = [asyncio.create_task(client.listen()) for client in clients]
                await asyncio.gather(*(client.play(totals, args.event_timeout) for client in clients))
                for client in clients:
                    stored = await stored_events(client.base, game.id, client.token)
                    if stored:  # the tail of the game must reach every client too
                        await client.wait_for_seq(stored[-1]["seq"], args.event_timeout)
                    audit(client, stored, totals)
                for task in listeners:
                    task.cancel()
            finally:
                for client in clients:
                    await client.close()
            if match.moves_left > 0 and totals.stalled:
                return
    finally:
        await creator.close()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    bases = args.base.split(",")
    options = json.loads(args.options)
    totals = Totals()
    started = time.perf_counter()
    results = await asyncio.wait_for(
        asyncio.gather(
            *(run_match(args, bases, index, totals, options) for index in range(args.matches)),
            return_exceptions=True,
        ),
        args.time_limit,
    )
    elapsed = time.perf_counter() - started
    failures = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    lat = totals.latencies
    trace = [[n, round(s * 1000, 2)] for n, s in totals.trace] if args.trace else None
    return {
        "loop": args.loop,
        "instances": len(bases),
        "matches": args.matches,
        "moves_per_match": args.moves,
        "moves": totals.moves,
        "elapsed_s": round(elapsed, 3),
        "moves_per_s": round(totals.moves / elapsed, 1) if elapsed else None,
        "p50_ms": _ms(percentile(lat, 0.50)),
        "p99_ms": _ms(percentile(lat, 0.99)),
        "gets_per_move": round(totals.gets / totals.moves, 2) if totals.moves else None,
        "games": totals.games,
        "never_started": totals.never_started,
        "never_delivered": totals.never_delivered,
        "out_of_order": totals.out_of_order,
        "stalled": totals.stalled,
        "errors": totals.errors,
        "client_failures": failures[:5],
        **({"trace": trace} if trace is not None else {}),
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", required=True, help="server URL, or several separated by commas")
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--options", default="{}")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--loop", choices=("poll", "push"), default="push")
    parser.add_argument(
        "--event-timeout", type=float, default=10.0, help="seconds before a stream counts as stalled"
    )
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument(
        "--trace", action="store_true", help="also print [move number in its game, ms] of every move"
    )
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
