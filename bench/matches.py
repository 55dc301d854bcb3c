"""Load generator for whole matches followed live; run as its own process, prints one JSON object.

``python bench/matches.py --base URL[,URL...] --game SLUG --matches M --moves K [--loop poll|push]
[--submit rest|socket]``

M matches at once, two seats each, each seat played by its own client that follows the game on the
GraphQL ``gameEvents`` subscription (instances taken in turn, so with two URLs a match's seats sit
on different instances; with ``--seats-together`` both seats of a match use the same instance and
the matches are spread over the instances). A move is one submit by the seat whose decision it
is; its latency runs from sending the submit until that client sees the resulting event on its own
subscription. A match stops after K moves (a game that ends sooner is replaced by a new one).

Loops:
- ``poll``: after each burst of events, GET the seat's choices; POST one if it is asked.
- ``push``: no GET: the event that hands the seat a decision carries it (``next``: decision,
  legal choices, version), and the client posts one of those choices at once.

Submits (``--submit``): ``rest`` posts ``/v1/games/{id}/choices`` on the seat's keep-alive HTTP
connection; ``socket`` sends ``submitChoice`` over the seat's own graphql-transport-ws socket, beside
its subscription (the peers submit over their sockets too), answered by one ``next``.

At the end every client's stream is checked against the stored history (``/events``) of its seat:
events never delivered, duplicates or reordering, and subscriptions that never started are counted.

A stall is a match that stopped moving: a mover saw no new state within ``--event-timeout``
while no submit of its match was waiting for its answer, a submit got no answer within
``--submit-timeout``, or a submit's own event did not reach its client within ``--event-timeout``.
(A wait that outlasts ``--event-timeout`` only because the other seat's submit is still being
answered is slow, not stalled: counted in ``slow_waits``.) A stall stops its match and is
explained: what the server committed, what each seat's client had received at the stall and
within ``--grace`` seconds more, which decision the server asks of each seat and which offers
reached its client; the verdict (``lost``, ``late``, ``slow``, ``harness``, ``server``:
``bench/stall_verdict.py``) and these facts go to stderr and to ``stall_reports`` in the JSON.
``event_after_answer_*``: how long after a submit's answer its own event reached that client's
stream (negative: before), i.e. how late the live fan-out is next to the answer.
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
from stall_verdict import SeatFacts, verdict

EVENTS_POLL = (
    "subscription Events($gameId: ID!, $after: Int!) "
    "{ gameEvents(gameId: $gameId, after: $after) { seq type } }"
)
EVENTS_PUSH = (
    "subscription Events($gameId: ID!, $after: Int!) "
    "{ gameEvents(gameId: $gameId, after: $after) { seq type next { version choices } } }"
)
TERMINAL = {"game_over", "game_aborted"}
SUBMIT = (
    "mutation Move($g: ID!, $c: JSON!, $v: Int) { submitChoice(gameId: $g, choice: $c, version: $v) "
    "{ __typename ... on SubmitResult { version events { seq } next { version choices } } "
    "... on Problem { code httpStatus } } }"
)
EVENTS_ID = "1"


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    after_answer: list[float] = field(default_factory=list)
    """Per submit: its own event's arrival on the stream minus its answer's (negative: earlier)."""
    moves: int = 0
    gets: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    never_started: int = 0
    never_delivered: int = 0
    out_of_order: int = 0
    stalled: int = 0
    slow_waits: int = 0
    """Waits past the event timeout while the other seat's submit was still being answered."""
    stall_reports: list[dict[str, Any]] = field(default_factory=list)
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
    clients: list[SeatClient] = field(default_factory=list)
    """The current game's seat clients."""
    stall: str | None = None
    """How the first stall of the current game showed itself (None: no stall)."""
    stalled_at: float = 0.0
    at_stall: dict[int, tuple[list[int], float | None]] = field(default_factory=dict)
    """Per seat at the stall: the seqs its client had received, and for how long its submit had
    been in progress (None: none was)."""

    def submitting(self) -> bool:
        """Whether a seat's submit is in progress (the match is still moving)."""
        return any(client.busy_since is not None for client in self.clients)

    def stalled(self, seat: int, how: str, totals: Totals) -> None:
        """Record the facts of the moment and stop the game's clients; the match's runner explains
        the stall once they stopped."""
        if self.stall is None:
            now = time.perf_counter()
            self.stall, self.stalled_at = f"seat {seat}: {how}", now
            self.at_stall = {
                client.seat: (
                    [event["seq"] for event in client.received],
                    None if client.busy_since is None else now - client.busy_since,
                )
                for client in self.clients
            }
            totals.stalled += 1
        self.over.set()


class SeatClient:
    """One seat: a websocket subscription and a keep-alive HTTP connection."""

    def __init__(
        self,
        base: str,
        game_id: str,
        seat: int,
        token: str,
        match: Match,
        loop: str,
        rng: random.Random,
        submit_over: str = "rest",
    ) -> None:
        self.base, self.game_id, self.token, self.match, self.loop = base, game_id, token, match, loop
        self.seat, self.rng, self.submit_over = seat, rng, submit_over
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        """Submits sent over the socket and not answered yet, by operation id."""
        self.sent = 0
        self.http = Connection(base)
        self.received: list[dict[str, Any]] = []
        self.arrivals: dict[int, float] = {}
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.arrived = asyncio.Event()
        self.connection: Any = None
        self.started = False
        self.answered_through = 0
        """The last seq our own latest submit produced: offers on earlier events are already answered."""
        self.offered: dict[int, str] = {}
        """Offers received (game version → from which event or answer), for stall reports."""
        self.posts: list[str] = []
        """The last few submits and their answers, for stall reports."""
        self.busy_since: float | None = None
        """When the submit in progress was sent (None: none is). A submit is in progress until its
        answer came and its own event arrived on the stream: each has its own timeout."""
        self.ended_with = "open"
        """How the subscription ended (for stall reports)."""

    async def open(self) -> None:
        import websockets
        from websockets.typing import Subprotocol

        url = self.base.replace("http://", "ws://") + f"/graphql?game={self.game_id}"  # to its owner
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
        await self.connection.send(json.dumps({"id": EVENTS_ID, "type": "subscribe", "payload": payload}))

    async def listen(self) -> None:
        try:
            self.ended_with = await self._listen()
        except Exception as error:  # kept for the stall report: nobody awaits this task
            self.ended_with = f"{type(error).__name__}: {error}"[:300]

    async def _listen(self) -> str:
        """Receive events until the game's last one; how the subscription ended."""
        async for raw in self.connection:
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "ping":
                await self.connection.send(json.dumps({"type": "pong"}))
                continue
            operation = message.get("id")
            if operation is not None and operation != EVENTS_ID:  # a submit's answer (or complete)
                waiting = self.answers.pop(operation, None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
                continue
            if kind != "next":
                return f"{kind}: {json.dumps(message.get('payload'))[:300]}"
            if message["payload"].get("errors"):
                return f"errors: {json.dumps(message['payload']['errors'])[:300]}"
            event = message["payload"]["data"]["gameEvents"]
            self.started = True
            self.received.append(event)
            self.arrivals[event["seq"]] = now
            if event.get("next"):
                self.offered[event["next"]["version"]] = f"event {event['seq']}"
            self.arrived.set()
            await self.inbox.put(event)
            if event["type"] in TERMINAL:
                return str(event["type"])
        return "closed by the server"

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

    async def play(self, totals: Totals, event_timeout: float, submit_timeout: float) -> None:
        """React to events until the game is over or the match has no moves left."""
        while not self.match.over.is_set():
            event = await self.next_event(event_timeout)
            if event is None:
                if self.match.over.is_set():
                    return
                if not self.inbox.empty():
                    continue  # it came in as the wait timed out
                if self.match.submitting():
                    totals.slow_waits += 1  # the submit's own timeout bounds this wait
                    continue
                self.match.stalled(self.seat, f"no new event within {event_timeout} s", totals)
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
            await self.submit(offer, totals, event_timeout, submit_timeout)

    async def next_event(self, timeout: float) -> dict[str, Any] | None:
        """The next event, or None when the match ended meanwhile or nothing came in time."""
        getter = asyncio.ensure_future(self.inbox.get())
        over = asyncio.ensure_future(self.match.over.wait())
        done, _ = await asyncio.wait({getter, over}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
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

    async def submit(
        self, offer: dict[str, Any], totals: Totals, event_timeout: float, submit_timeout: float
    ) -> None:
        """Post one of the offered choices; in the push loop, go on with the decision the answer
        hands back (a follow-up decision of the same seat) without asking."""
        while offer is not None and offer.get("choices"):
            self.busy_since = time.perf_counter()
            try:
                result = await self._submit_one(offer, totals, event_timeout, submit_timeout)
            finally:
                self.busy_since = None
            if result is None:
                return
            if self.match.moves_left <= 0 or self.match.over.is_set():
                self.match.over.set()
                return
            if self.loop != "push":
                return
            offer = result.get("next") or {}
            if offer is not None and offer.get("choices"):
                self.match.moves_left -= 1

    async def _submit_one(
        self, offer: dict[str, Any], totals: Totals, event_timeout: float, submit_timeout: float
    ) -> dict[str, Any] | None:
        """One submit, then the wait for its own event on the stream: its answer, or None when it
        failed or stalled."""
        body = {"choice": self.rng.choice(offer["choices"]), "version": offer["version"]}
        sent = time.perf_counter()
        try:
            if self.submit_over == "socket":
                status, result = await asyncio.wait_for(self._over_socket(body), submit_timeout)
            else:
                status, result = await asyncio.wait_for(
                    call(self.http, None, "POST", f"/v1/games/{self.game_id}/choices", body, self.token),
                    submit_timeout,
                )
        except TimeoutError:
            self.match.stalled(self.seat, f"submit unanswered within {submit_timeout} s", totals)
            self._posted(f"version {offer['version']} → no answer")
            await self.http.close()  # the answer may still come: not on a connection reused
            return None
        answered = time.perf_counter()
        if status != 200:
            code = result.get("code") if isinstance(result, dict) else ""
            totals.error(f"POST {status} {code}")
            self._posted(f"version {offer['version']} → {status} {code}")
            return None
        totals.moves += 1
        self.match.played += 1
        number = self.match.played
        answer = result.get("next")
        if answer is not None:
            self.offered[answer["version"]] = f"answer to version {offer['version']}"
        seqs = [event["seq"] for event in result["events"]]
        self._posted(
            f"version {offer['version']} → 200, events {seqs}, next "
            f"{answer['version'] if answer is not None else None}"
        )
        if seqs:
            self.answered_through = max(seqs)
            seen = await self.wait_for_seq(max(seqs), event_timeout)
            if seen is None:
                how = f"own submit's event {max(seqs)} not seen within {event_timeout} s"
                self.match.stalled(self.seat, how, totals)
                return None
            totals.latencies.append(max(0.0, seen - sent))
            totals.after_answer.append(seen - answered)
            totals.trace.append((number, max(0.0, seen - sent)))
        return dict(result)

    async def _over_socket(self, body: dict[str, Any]) -> tuple[int, Any]:
        """``submitChoice`` over the seat's socket, its answer as the REST submit's: (status, body)."""
        self.sent += 1
        operation = f"m{self.sent}"
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[operation] = answer
        variables = {"g": self.game_id, "c": body["choice"], "v": body["version"]}
        payload = {"query": SUBMIT, "variables": variables}
        await self.connection.send(json.dumps({"id": operation, "type": "subscribe", "payload": payload}))
        message = await answer
        data = (message.get("payload") or {}).get("data") or {}
        result = data.get("submitChoice") if message.get("type") == "next" else None
        if result is None:
            return 500, {"code": json.dumps(message.get("payload"))[:200]}
        if result["__typename"] == "Problem":
            return int(result["httpStatus"]), {"code": result["code"]}
        return 200, result

    def _posted(self, what: str) -> None:
        self.posts = [*self.posts[-4:], what]

    async def asked_version(self) -> int | None:
        """The game version of the decision the server asks of this seat now (None: none)."""
        offer = await self.poll(Totals())
        return None if offer is None or not offer.get("choices") else int(offer["version"])

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


async def explain_stall(
    clients: list[SeatClient], game_id: str, match: Match, grace: float
) -> dict[str, Any]:
    """The facts of a stall and the verdict on them (``stall_verdict.verdict``): gathered while the
    clients' subscriptions are still open, so an event that is only late still arrives."""
    stored = {client.seat: await stored_events(client.base, game_id, client.token) for client in clients}
    asked = {client.seat: await client.asked_version() for client in clients}
    deadline = time.perf_counter() + grace
    for client in clients:
        if stored[client.seat]:
            remaining = max(0.0, deadline - time.perf_counter())
            await client.wait_for_seq(stored[client.seat][-1]["seq"], remaining)
    facts = [
        SeatFacts(
            seat=client.seat,
            stored=[event["seq"] for event in stored[client.seat]],
            received_at_stall=match.at_stall[client.seat][0],
            received_after_grace=[event["seq"] for event in client.received],
            asked_version=asked[client.seat],
            offered=dict(client.offered),
            in_flight_s=match.at_stall[client.seat][1],
            subscription_ended=None if client.ended_with in ("open", *TERMINAL) else client.ended_with,
        )
        for client in clients
    ]
    kind, why = verdict(facts)
    seats = []
    for client, seat_facts in zip(clients, facts, strict=True):
        late = sorted(set(seat_facts.received_after_grace) - set(seat_facts.received_at_stall))
        seats.append(
            {
                "seat": client.seat,
                "received_tail": [
                    [event["seq"], event["type"], (event.get("next") or {}).get("version")]
                    for event in client.received[-6:]
                ],
                "late_seqs_s_after_stall": {
                    seq: round(client.arrivals[seq] - match.stalled_at, 3) for seq in late
                },
                "subscription": client.ended_with,
                "answered_through": client.answered_through,
                "submit_in_flight_s": None
                if seat_facts.in_flight_s is None
                else round(seat_facts.in_flight_s, 3),
                "posts": client.posts,
                "asked_version": seat_facts.asked_version,
                "offered_versions_tail": sorted(client.offered.items())[-4:],
                "stored_tail": [[e["seq"], e["type"]] for e in stored[client.seat][-6:]],
            }
        )
    return {"game": game_id, "detected": match.stall, "verdict": kind, "why": why, "seats": seats}


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
            match.played, match.stall = 0, None
            clients = [
                SeatClient(
                    bases[(index + (0 if args.seats_together else seat)) % len(bases)],
                    game.id,
                    seat,
                    token,
                    match,
                    args.loop,
                    rng,
                    args.submit,
                )
                for seat, token in enumerate(game.tokens)
            ]
            match.clients = clients
            try:
                for client in clients:
                    await client.open()
                listeners = [asyncio.create_task(client.listen()) for client in clients]
                await asyncio.gather(
                    *(client.play(totals, args.event_timeout, args.submit_timeout) for client in clients)
                )
                if match.stall is not None:
                    report = await explain_stall(clients, game.id, match, args.grace)
                    totals.error(f"stalled ({report['verdict']})")
                    totals.stall_reports.append(report)
                    print(json.dumps(report), file=sys.stderr, flush=True)
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
            if match.stall is not None:
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
        "submit": args.submit,
        "instances": len(bases),
        "seats_together": args.seats_together,
        "matches": args.matches,
        "moves_per_match": args.moves,
        "moves": totals.moves,
        "elapsed_s": round(elapsed, 3),
        "moves_per_s": round(totals.moves / elapsed, 1) if elapsed else None,
        "p50_ms": _ms(percentile(lat, 0.50)),
        "p99_ms": _ms(percentile(lat, 0.99)),
        "event_after_answer_p50_ms": _ms(percentile(totals.after_answer, 0.50)),
        "event_after_answer_p99_ms": _ms(percentile(totals.after_answer, 0.99)),
        "event_after_answer_max_ms": _ms(max(totals.after_answer, default=None)),
        "gets_per_move": round(totals.gets / totals.moves, 2) if totals.moves else None,
        "games": totals.games,
        "never_started": totals.never_started,
        "never_delivered": totals.never_delivered,
        "out_of_order": totals.out_of_order,
        "stalled": totals.stalled,
        "slow_waits": totals.slow_waits,
        "stall_reports": totals.stall_reports[:10],
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
        "--submit", choices=("rest", "socket"), default="rest", help="moves over REST or the seat's socket"
    )
    parser.add_argument(
        "--seats-together", action="store_true", help="both seats of a match on the same instance"
    )
    parser.add_argument(
        "--event-timeout", type=float, default=10.0, help="seconds before a stream counts as stalled"
    )
    parser.add_argument(
        "--submit-timeout",
        type=float,
        default=60.0,
        help="seconds before an unanswered submit counts as stalled",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=10.0,
        help="after a stall, seconds more to wait for committed events (late, or lost)",
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
