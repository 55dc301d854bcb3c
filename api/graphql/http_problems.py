"""Problem details for the GraphQL endpoint's HTTP-level refusals.

Strawberry answers a request it cannot even read as GraphQL (a body that is not JSON, no query, an
unsupported content type, a batch) with a ``text/plain`` 400. Every other failure of the API is
``application/problem+json`` with a ``code``, so this ASGI wrapper turns those plain answers into
the same shape, keeping their status and their sentence as the ``detail`` (in English; the
code's text in the caller's language otherwise). GraphQL errors proper
(a document that does not parse or validate) are answered by Strawberry as GraphQL results and
are untouched.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.graphql.refusals import library_detail
from api.problems.details import PROBLEM_TYPE, known, localized, scope_language
from domain.i18n import DEFAULT_LANGUAGE

_CODES = {
    "Unable to parse request body as JSON": "malformed_json",
    "Unsupported content type": "unsupported_content_type",
}
"""Strawberry's sentences with a code of their own; any other plain refusal is a request that
is not a GraphQL request (no query, a batch, a GET of a mutation, ...)."""


def problem_body(status: int, detail: str, lang: str = DEFAULT_LANGUAGE) -> bytes:
    code = known(_CODES.get(detail, "graphql_request_invalid"))
    body = {
        "type": PROBLEM_TYPE + code,
        "title": code.replace("_", " "),
        "status": status,
        "code": code,
        "detail": localized(code, library_detail(detail or "not a GraphQL request"), lang),
    }
    return json.dumps(body).encode()


class GraphQLHttpProblems:
    def __init__(self, app: ASGIApp, path: str = "/graphql") -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        held: dict[str, Any] | None = None
        chunks: list[bytes] = []

        async def answer(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                declared = dict(message.get("headers", []))
                plain = declared.get(b"content-type", b"").startswith(b"text/plain")
                if message["status"] >= 400 and plain:
                    held = dict(message)  # wait for the sentence, then answer a problem instead
                    return
            elif message["type"] == "http.response.body" and held is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                sentence = b"".join(chunks).decode(errors="replace").strip()
                body = problem_body(held["status"], sentence, scope_language(scope))
                headers = [
                    (name, value)
                    for name, value in held.get("headers", [])
                    if name not in (b"content-type", b"content-length")
                ]
                headers += [
                    (b"content-type", b"application/problem+json"),
                    (b"content-length", str(len(body)).encode()),
                ]
                await send({**held, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, answer)
