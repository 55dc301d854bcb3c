"""One owner per game between instances: a submit that reaches an instance that does not own its
game is forwarded to the owner, one HTTP hop (``TABLETOP_INSTANCE_URL`` and Redis turn this on).

Every ``POST`` under ``/v1/games/{id}/…`` asks the directory (``persistence.owner_leases``) who
owns the game; if nobody lives there, this instance takes the lease. Only the submit
(``POST /v1/games/{id}/choices``, the request every move makes) is forwarded when another instance
owns the game: the owner keeps the game's state and its live streams, so a move served there
neither reloads a state another wrote nor waits behind another writer. Every other request (reads,
seats, chat, GraphQL, streams) is served by the instance it reaches, as before: the database holds
every game and Redis carries the live events to every instance.

The hop carries the client's headers (its token, language, ``X-Request-Id``), ``X-Forwarded-For``
with the client's address (believed by the owner when the instances are in each other's
``TABLETOP_TRUSTED_PROXIES``) and ``X-Tabletop-Forwarded`` (the owner serves such a request itself,
whatever its directory says: never a loop). The owner's answer goes back as it is. A submit without
an ``Idempotency-Key`` is given one for the hop, so that when the owner cannot answer it is served
here at most once:

- the owner cannot be reached (nothing was sent: it died, or is partitioned away): the submit is
  served here (``owner_unreachable``), the game loaded from the database; the lease still names
  the old owner until it runs out, then the next write here takes it;
- the owner took the request and gave no answer (it died under it): the submit is served here with
  the same key (``owner_lost``): the owner's commit, if it made one, is answered again, else the
  move is played here once.

Either way the version guard of every write stays the arbiter: two instances serving one game for
a moment never both write a move.
"""

from __future__ import annotations

import logging
import re
import uuid
from typing import Any, Protocol

import httpx
from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from api.rest.buffered_body import read_body, replayed
from api.rest.fast_submit import SUBMIT_PATH, submit_route

log = logging.getLogger("tabletop.owners")

GAME_WRITE = re.compile(r"/v1/games/(?P<game_id>[A-Za-z0-9_-]{1,64})/.+")
FORWARDED = b"x-tabletop-forwarded"
"""Set on a hop: the receiving instance serves the request itself."""
NOT_PASSED = frozenset(
    (
        b"host",
        b"connection",
        b"keep-alive",
        b"content-length",
        b"transfer-encoding",
        b"te",
        b"upgrade",
        b"accept-encoding",  # the answer is passed on as it comes; compressed here if asked
        b"x-forwarded-for",
        FORWARDED,
    )
)
NOT_RETURNED = frozenset(
    (b"connection", b"keep-alive", b"transfer-encoding", b"x-request-id", b"date", b"server")
)


class Leases(Protocol):
    me: str

    async def owner(self, game_id: str) -> str | None: ...

    def forget(self, game_id: str) -> None: ...


class ForwardToOwner:
    """Inside ``RequestGuard`` (the body is read, the client resolved and charged): forwards a
    submit to its game's owner, takes the lease of a game nobody owns, passes the rest on."""

    def __init__(self, app: ASGIApp, fastapi: FastAPI) -> None:
        self.app = app
        self.fastapi = fastapi

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        found = GAME_WRITE.fullmatch(scope["path"])
        container = getattr(self.fastapi.state, "container", None)
        leases: Leases | None = getattr(container, "owner_leases", None)
        if found is None or leases is None or container is None:
            await self.app(scope, receive, send)
            return
        owner = await leases.owner(found["game_id"])
        forwarded = any(name == FORWARDED for name, _ in scope["headers"])
        if owner is None or forwarded or SUBMIT_PATH.fullmatch(scope["path"]) is None:
            await self.app(scope, receive, send)
            return
        await self._forward(container, leases, owner, found["game_id"], scope, receive, send)

    async def _forward(
        self,
        container: Any,
        leases: Leases,
        owner: str,
        game_id: str,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        messages, body = await read_body(receive)
        if not any(name == b"idempotency-key" for name, _ in scope["headers"]):
            scope["headers"] = [*scope["headers"], (b"idempotency-key", f"hop-{uuid.uuid4().hex}".encode())]
        client = scope.get("client")
        headers = [(name, value) for name, value in scope["headers"] if name not in NOT_PASSED]
        headers += [
            (b"x-forwarded-for", (client[0] if client else "unknown").encode()),
            (b"accept-encoding", b"identity"),
            (FORWARDED, leases.me.encode()),
        ]
        target = owner + scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        if scope.get("query_string"):
            target += "?" + scope["query_string"].decode("latin-1")
        hop: httpx.AsyncClient = container.owner_hop
        counted = container.metrics.owner_forwards
        try:
            answer = await hop.post(target, content=body, headers=headers)
        except (httpx.ConnectError, httpx.ConnectTimeout) as error:
            log.warning("the owner %s of game %s cannot be reached; serving here: %s", owner, game_id, error)
            leases.forget(game_id)
            counted.labels("owner_unreachable").inc()
            await self.app(scope, replayed(messages, receive), send)
            return
        except httpx.TransportError as error:
            log.warning("the owner %s of game %s gave no answer; serving here: %s", owner, game_id, error)
            leases.forget(game_id)
            counted.labels("owner_lost").inc()
            await self.app(scope, replayed(messages, receive), send)
            return
        counted.labels("forwarded").inc()
        scope["route"] = submit_route(self.fastapi)  # counted under its template here too
        returned = [
            (name.lower(), value) for name, value in answer.headers.raw if name.lower() not in NOT_RETURNED
        ]
        await send({"type": "http.response.start", "status": answer.status_code, "headers": returned})
        await send({"type": "http.response.body", "body": answer.content})
