"""``POST /v1/games/{game_id}/choices`` served without FastAPI's per-request routing and dependency
solving: the request every move makes (``submitChoice``).

FastAPI stays the contract: the route is declared, documented and served by ``api.rest.routers.games``
as before, and this pre-resolved handler answers only a request it can read exactly as that route
would (one JSON object of the documented shape, well-formed headers, no ``root_path``). It does the
same work in the same order (bearer token, language, idempotency key, the service's submit, the
answer serialised by FastAPI's own response field) and hands the same errors to the app's own
exception handlers, so answers are byte-identical. Anything it is not sure of (a malformed token,
a body to refuse, an unusual header or query) it passes on unchanged to FastAPI, whose answer is
then the documented one. ``tests/rest/test_submit_route.py`` holds the two paths equal.
"""

from __future__ import annotations

import inspect
import re
from typing import Any
from urllib.parse import parse_qsl

import orjson
from fastapi import FastAPI
from fastapi.routing import APIRoute, serialize_response
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from api.deps import parse_bearer
from api.edge.input_limits import IDEMPOTENCY_KEY, INT32_MAX, check_json_depth
from api.rest.buffered_body import read_body, replayed
from api.rest.models.play import SubmitResultPublic
from domain.errors import DomainError
from domain.i18n import negotiate

OPERATION_ID = "submitChoice"
SUBMIT_PATH = re.compile(r"/v1/games/(?P<game_id>[^/]+)/choices")
"""The route's path template ``/v1/games/{game_id}/choices`` as Starlette compiles it."""
READ_HEADERS = (b"authorization", b"accept-language", b"idempotency-key", b"content-type")
JSON_TYPES = (b"application/json", b"application/json; charset=utf-8")
BODY_FIELDS = frozenset(("choice", "version", "decision_version"))


class Declined(Exception):
    """The request is not one the pre-resolved handler reads exactly as FastAPI would."""


def submit_route(app: FastAPI) -> APIRoute:
    """The FastAPI route of ``submitChoice``: its response field and its place in the metrics."""
    for route in app.routes:
        inner = getattr(route, "original_router", None)
        for candidate in inner.routes if inner is not None else (route,):
            if isinstance(candidate, APIRoute) and candidate.operation_id == OPERATION_ID:
                return candidate
    raise LookupError(f"no route with operation id {OPERATION_ID}")


class PreResolvedSubmit:
    """Innermost user middleware: serves a ``submitChoice`` it can read, passes everything else on."""

    def __init__(self, app: ASGIApp, fastapi: FastAPI) -> None:
        self.app = app
        self.fastapi = fastapi
        self._route: APIRoute | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        found = SUBMIT_PATH.fullmatch(scope["path"])
        if found is None:
            await self.app(scope, receive, send)
            return
        messages, body = await read_body(receive)
        try:
            arguments = _arguments(scope, body)
        except Declined:
            await self.app(scope, replayed(messages, receive), send)
            return
        route = self._route or self._resolve()
        scope["route"] = route
        scope["endpoint"] = route.endpoint
        scope["path_params"] = {"game_id": found["game_id"]}
        try:
            response = await self._submit(route, found["game_id"], *arguments)
        except Exception as error:  # what ExceptionMiddleware would hand to a handler
            response = await self._handled(scope, error)
        await response(scope, receive, send)

    def _resolve(self) -> APIRoute:
        self._route = submit_route(self.fastapi)
        return self._route

    async def _submit(
        self,
        route: APIRoute,
        game_id: str,
        token: str | None,
        lang: str,
        idempotency_key: str | None,
        choice: dict[str, Any],
        version: int | None,
        decision_version: int | None,
    ) -> Response:
        """What ``api.rest.routers.games.submit_choice`` does, then what FastAPI does with its answer."""
        play = self.fastapi.state.container.play
        answer = await play.submit_async(game_id, token, choice, version, idempotency_key, decision_version)
        content = await serialize_response(
            field=route.response_field,
            response_content=SubmitResultPublic.of(
                answer, play.core.registry.catalog(answer.game_type), lang
            ),
            dump_json=True,
        )
        response = Response(content=content, media_type="application/json")
        response.headers["Content-Language"] = lang
        return response

    async def _handled(self, scope: Scope, error: Exception) -> Response:
        """The app's handler for ``error``, looked up as Starlette's ``ExceptionMiddleware`` does
        (the class's MRO; the ``Exception`` handler belongs to ``ServerErrorMiddleware``, which
        gets the error re-raised as from any route)."""
        handlers = self.fastapi.exception_handlers
        for kind in type(error).__mro__:
            if kind is not Exception and kind in handlers:
                answer = handlers[kind](Request(scope), error)
                return await answer if inspect.isawaitable(answer) else answer
        raise error


def _arguments(
    scope: Scope, body: bytes
) -> tuple[str | None, str, str | None, dict[str, Any], int | None, int | None]:
    """The handler's arguments, read as FastAPI reads them, or ``Declined``."""
    headers: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        if name in READ_HEADERS:
            if name in headers:  # which one FastAPI reads is not worth guessing
                raise Declined
            headers[name] = value.decode("latin-1")
    if headers.get(b"content-type", "").lower().encode("latin-1") not in JSON_TYPES:
        raise Declined
    try:
        token = parse_bearer(headers.get(b"authorization"))
    except DomainError:
        raise Declined from None
    lang = negotiate(_lang_query(scope), headers.get(b"accept-language"))
    key = headers.get(b"idempotency-key")
    if key is not None and IDEMPOTENCY_KEY.fullmatch(key) is None:
        raise Declined
    choice, version, decision_version = _choice_submit(body)
    return token, lang, key, choice, version, decision_version


def _lang_query(scope: Scope) -> str | None:
    query: bytes = scope.get("query_string", b"")
    if not query:
        return None
    pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    if len(pairs) != 1 or pairs[0][0] != "lang" or not pairs[0][1]:
        raise Declined
    return pairs[0][1]


def _choice_submit(body: bytes) -> tuple[dict[str, Any], int | None, int | None]:
    """``ChoiceSubmit``'s fields from a body it accepts as it stands (no coercion), else ``Declined``."""
    try:
        fields = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise Declined from None
    if type(fields) is not dict or not fields.keys() <= BODY_FIELDS:
        raise Declined
    choice = fields.get("choice")
    if type(choice) is not dict:
        raise Declined
    try:
        check_json_depth(choice)
    except ValueError:
        raise Declined from None
    return choice, _version(fields.get("version")), _version(fields.get("decision_version"))


def _version(value: object) -> int | None:
    if value is None or (type(value) is int and 0 <= value <= INT32_MAX):
        return value
    raise Declined
