"""A webhook endpoint that drips its answer holds up no other endpoint (issue 19 item 2).

Two senders (two instances) share one database. One receiver on 127.0.0.1 sends its status line
and then a byte a second; the other answers at once. The dripping attempts are cut at the
sender's deadline and recorded as failed, the other endpoint gets every delivery before the first
cut, and no delivery is ever being sent by two senders at once (the lease outlasts the attempt).
"""

from __future__ import annotations

import select
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from domain.registry import EngineRegistry
from domain.services.bundle import Services
from domain.services.players import PlayerService
from domain.services.webhooks import RetryPolicy, WebhookService
from persistence.outbound.webhook_sender import WebhookSender
from persistence.uow import SqlUnitOfWorkFactory
from tests.support.fakes import FakePublisher, ManualClock
from tests.support.waiting import eventually

pytestmark = pytest.mark.timeout(120)

DEADLINE = 5.0
"""The senders' wall-clock deadline per attempt; the drip would take 60 s. Every delivery to the
fast endpoint must arrive before the first cut: long enough for that on a busy machine (it took
more than 1.5 s there), while a missing per-endpoint cap would hold them all until the cut."""


class Receiver(ThreadingHTTPServer):
    """Logs what happens, in order, into ``log`` shared by both receivers."""

    daemon_threads = True
    drip: bool
    log: list[tuple[str, str]]
    sending: Counter[str]
    most_at_once: Counter[str]
    lock: threading.Lock
    stopping: threading.Event

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook"


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["content-length"]))
        message = self.headers["webhook-id"]
        server = self.server
        if not server.drip:
            with server.lock:
                server.log.append(("fast", message))
            self.send_response(204)
            self.end_headers()
            return
        with server.lock:
            server.sending[message] += 1
            server.most_at_once[message] = max(server.most_at_once[message], server.sending[message])
        try:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 60\r\n\r\n")
            for _ in range(60):
                self.wfile.flush()
                readable, _, _ = select.select([self.connection], [], [], 1.0)
                if server.stopping.is_set() or (readable and not self.connection.recv(1, socket.MSG_PEEK)):
                    break  # the sender hung up (seen at once, not at the next byte)
                self.wfile.write(b"x")
        except OSError:
            pass  # the sender hung up: what the test waits for
        finally:
            with server.lock:
                server.sending[message] -= 1
                server.log.append(("drip closed", message))

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def receivers() -> Iterator[tuple[Receiver, Receiver]]:
    lock, stopping = threading.Lock(), threading.Event()
    log: list[tuple[str, str]] = []
    servers = []
    for drip in (True, False):
        server = Receiver(("127.0.0.1", 0), Handler)
        server.drip, server.log, server.lock, server.stopping = drip, log, lock, stopping
        server.sending, server.most_at_once = Counter(), Counter()
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    yield servers[0], servers[1]
    stopping.set()
    for server in servers:
        server.shutdown()
        server.server_close()


def test_a_dripping_endpoint_is_cut_at_the_deadline_and_delays_no_other(
    uow_factory: SqlUnitOfWorkFactory, registry: EngineRegistry, receivers: tuple[Receiver, Receiver]
) -> None:
    drip, fast = receivers
    games = Services.build(uow_factory, registry, FakePublisher(), ManualClock(datetime.now(UTC)))
    webhooks = WebhookService(games.core, lambda url: None)
    players = PlayerService(games.core, games.seats)
    ann, bob = players.create("Ann"), players.create("Bob")
    dripping = webhooks.register(ann.token, drip.url, ["all"], None)
    answering = webhooks.register(bob.token, fast.url, ["all"], None)
    for number in range(4):  # without a cap per endpoint the drip would take all 4 slots (2 x 2)
        created = games.lobby.create_game("duel", {"rounds": 1}, f"seed-{number}")
        players.join(created.match.id, ann.token, None)
        players.join(created.match.id, bob.token, None)
        games.seats.start(created.match.id, created.host_token)
    with uow_factory() as uow:
        expected = [d.message_id for d in reversed(uow.webhooks.deliveries_of(answering.id, 1000))]
    assert len(expected) >= 4

    senders = [
        WebhookSender(
            uow_factory,
            lambda url: None,
            RetryPolicy(0.2, 0.4, timedelta(hours=1)),
            DEADLINE,
            65536,
            0.05,
            concurrency=2,
            per_endpoint=1,
        )
        for _ in range(2)
    ]
    for sender in senders:
        sender.start()
    try:
        # The first round: each sender's dripping attempt cut at the deadline.
        eventually(lambda: sum(1 for kind, _ in drip.log if kind == "drip closed") >= 2, 60, "two drips cut")
    finally:
        for sender in senders:
            sender.stop()

    with drip.lock:
        log = list(drip.log)
    first_cut = next(i for i, (kind, _) in enumerate(log) if kind == "drip closed")
    arrived_before_cut = [message for kind, message in log[:first_cut] if kind == "fast"]
    assert sorted(set(arrived_before_cut)) == sorted(expected)  # all of them, before the first cut
    assert sum(1 for kind, _ in log if kind == "drip closed") >= 2
    assert set(drip.most_at_once.values()) == {1}  # never one webhook-id twice at once

    with uow_factory() as uow:
        listed = uow.webhooks.deliveries_of(dripping.id, 1000)
    history = [attempt for delivery in listed for attempt in delivery.history]
    assert len(history) >= 2
    assert all(a.status_code == 200 and a.error and a.error.endswith("s (cut)") for a in history)
    assert all(d.status == "pending" and d.delivered_at is None for d in listed)
