"""One owner per game among the worker processes of one instance: a connection goes to the worker
that owns the game its first request names.

Every worker accepts on the supervisor's listening socket. Before the HTTP server reads anything, a
worker peeks (``MSG_PEEK``: nothing is consumed) at the connection's request line; if it names a
game (``/v1/games/{id}…``, or ``/graphql?game={id}`` for a GraphQL client, websocket subscriptions
included) and another worker owns that game, the socket itself is handed to the owner over a
datagram Unix socket (``SCM_RIGHTS``), and the owner serves the connection from its first byte,
as if it had accepted it: it sees the client's own address, counts its own rate limits, and keeps
the game's state for its next move (``persistence.hot_states``). So a game's submits and its live
streams meet in one process, which neither reloads the state another wrote nor decodes events for
games it does not serve.

Which worker owns a game: rendezvous hashing of the game id over the worker slots, the same in
every worker (a stable hash, not Python's salted ``hash``). A worker whose slot cannot take the
socket (it died and the supervisor has not started it again yet, or it is not listening yet)
leaves the connection with the worker that accepted it: the game moves on there, and the version
guard of ``SqlGameRepository.save`` stays the arbiter, so two processes serving one game for a
moment can never both write. Requests on a kept-alive connection after the first are served where
the connection is, whatever their game (a client uses one connection per game, as the web client
and the load generator do, to reach the owner every time).
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import hashlib
import logging
import os
import re
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

GAME_PATH = re.compile(rb"[A-Z]+ /v1/games/([A-Za-z0-9_-]{1,64})(?:[/? ])")
"""A request line whose path is under one game (the ids ``secrets.token_urlsafe`` makes)."""
GRAPHQL_GAME = re.compile(rb"[A-Z]+ /graphql\?(?:[^ ]*&)?game=([A-Za-z0-9_-]{1,64})(?:[& ])")
"""GraphQL's path with a ``game`` hint in its query (the body is not read: only the line routes)."""
PEEK_BYTES = 2048
HANDOFF_MESSAGE = b"c"

Serve = Callable[[socket.socket], Awaitable[object]]
"""Starts the HTTP server's protocol on an accepted socket."""


def game_of(request: bytes) -> str | None:
    """The game a request (its first bytes, at least its request line) is about, or None."""
    found = GAME_PATH.match(request) or GRAPHQL_GAME.match(request)
    return found.group(1).decode("ascii") if found is not None else None


def owner_of(game_id: str, workers: int) -> int:
    """The worker slot (0 … workers - 1) that owns ``game_id``: the highest of a stable hash of
    the id with each slot (rendezvous hashing)."""
    if workers <= 1:
        return 0
    key = game_id.encode()

    def weight(slot: int) -> bytes:
        return hashlib.blake2b(key, digest_size=8, salt=slot.to_bytes(2, "big")).digest()

    return max(range(workers), key=weight)


def handoff_path(directory: str, slot: int) -> str:
    """Where worker ``slot`` takes the sockets of its games."""
    return os.path.join(directory, f"worker-{slot}.sock")


@dataclass(slots=True)
class RoutingCounts:
    """What a worker did with the connections it accepted or was given."""

    kept: int = 0
    """accepted here, served here (the game is ours, no game named, or the owner unreachable)"""
    handed_off: int = 0
    """accepted here, given to the game's owner"""
    adopted: int = 0
    """given here by the worker that accepted them"""
    owner_unreachable: int = 0
    """kept although another worker owns the game (it could not take the socket)"""


@dataclass
class OwnerRouter:
    """A worker's accept path: accepts on ``listening``, hands each connection to the owner of its
    game or to ``serve`` (which starts the HTTP server's protocol on the socket); takes the sockets
    other workers hand it. Quacks like the ``asyncio.Server`` uvicorn closes at shutdown."""

    listening: socket.socket
    slot: int
    workers: int
    directory: str
    serve: Serve
    peek_timeout: float = 10.0
    silent: Callable[[socket.socket], None] | None = None
    """Called with a connection that sent nothing within ``peek_timeout`` (to answer ``408`` and
    close it, as the HTTP server does); None: such a connection is served like any other."""
    counts: RoutingCounts = field(default_factory=RoutingCounts)
    _inbox: socket.socket | None = None
    _outbox: socket.socket | None = None
    _accepting: asyncio.Task[None] | None = None
    _routing: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        path = handoff_path(self.directory, self.slot)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # left by this slot's previous worker, if it died
        inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        inbox.bind(path)
        inbox.setblocking(False)
        self._inbox = inbox
        loop.add_reader(inbox.fileno(), self._adopt_waiting)
        outbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        outbox.setblocking(False)
        self._outbox = outbox
        self.listening.setblocking(False)
        self._accepting = asyncio.create_task(self._accept(), name="tabletop-accept")

    def close(self) -> None:
        """Stop accepting and taking sockets (connections already served carry on)."""
        if self._accepting is not None:
            self._accepting.cancel()
            self._accepting = None
        for task in list(self._routing):
            task.cancel()
        if self._inbox is not None:
            asyncio.get_running_loop().remove_reader(self._inbox.fileno())
            with contextlib.suppress(OSError):
                os.unlink(handoff_path(self.directory, self.slot))
            self._inbox.close()
            self._inbox = None
        if self._outbox is not None:
            self._outbox.close()
            self._outbox = None

    async def wait_closed(self) -> None:
        if self._routing:
            await asyncio.gather(*self._routing, return_exceptions=True)

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                connection, _ = await loop.sock_accept(self.listening)
            except OSError as error:  # out of descriptors, a connection reset before accept...
                log.warning("accept failed: %s", error)
                await asyncio.sleep(0.05)
                continue
            task = asyncio.create_task(self._route(connection))
            self._routing.add(task)
            task.add_done_callback(self._routing.discard)

    async def _route(self, connection: socket.socket) -> None:
        try:
            first = await self._peek(connection)
            if first is None and self.silent is not None:
                self.silent(connection)
                return
            game_id = game_of(first) if first else None
            owner = owner_of(game_id, self.workers) if game_id is not None else self.slot
            if owner != self.slot:
                if self._hand_off(connection, owner):
                    self.counts.handed_off += 1
                    return
                self.counts.owner_unreachable += 1
            self.counts.kept += 1
            await self.serve(connection)
        except asyncio.CancelledError:
            connection.close()
            raise
        except OSError:
            connection.close()

    async def _peek(self, connection: socket.socket) -> bytes | None:
        """The connection's first bytes, left unread for whoever serves it (empty: the client
        closed; None: nothing came within ``peek_timeout``)."""
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()

        def arrived() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(connection.fileno(), arrived)
        try:
            await asyncio.wait_for(readable, self.peek_timeout)
        except TimeoutError:
            return None
        finally:
            loop.remove_reader(connection.fileno())
        return connection.recv(PEEK_BYTES, socket.MSG_PEEK)

    def _hand_off(self, connection: socket.socket, owner: int) -> bool:
        """Give the socket to worker ``owner``; False if it cannot take it now."""
        assert self._outbox is not None
        try:
            # sendmsg, not socket.send_fds: that one drops its address argument (Python 3.11).
            rights = (socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [connection.fileno()]))
            self._outbox.sendmsg([HANDOFF_MESSAGE], [rights], 0, handoff_path(self.directory, owner))
        except OSError:  # no such worker listening (dead, starting) or its queue is full
            return False
        connection.close()  # the owner holds its own descriptor of the same connection
        return True

    def _adopt_waiting(self) -> None:
        inbox = self._inbox
        while inbox is not None:
            try:
                _, fds, _, _ = socket.recv_fds(inbox, len(HANDOFF_MESSAGE), 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                log.warning("taking a connection from another worker failed: %s", error)
                return
            for fd in fds:
                connection = socket.socket(fileno=fd)
                connection.setblocking(False)
                self.counts.adopted += 1
                task = asyncio.create_task(self._serve_adopted(connection))
                self._routing.add(task)
                task.add_done_callback(self._routing.discard)

    async def _serve_adopted(self, connection: socket.socket) -> None:
        try:
            await self.serve(connection)
        except OSError:
            connection.close()
        except asyncio.CancelledError:
            connection.close()
            raise
