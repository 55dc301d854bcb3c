"""RFC 9457 problem details: one shape, with a stable machine-readable ``code``, for every failure.

Every code the API can answer is registered here, once: the domain's typed errors, and the codes
the edge itself raises (``API_CODES``); a code that is not registered is never sent (``known``),
and a test holds the README's table of codes equal to this registry.

``detail`` speaks the caller's language (``?lang=``, else ``Accept-Language``): in English the
sentence that names the values at fault; in German, French or Spanish the code's text from
``domain/i18n/<lang>.json`` (``problem.<code>``), which exists for every registered code, followed
by the same values, each with its word in that language (``api.problems.translations``). Both come
from one ``domain.errors.Detail``: a sentence and its named values."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from api.problems.translations import translated_detail
from domain.errors import Detail, DomainError
from domain.i18n import DEFAULT_LANGUAGE, negotiate
from persistence.errors import database_unavailable

log = logging.getLogger("tabletop.errors")
PROBLEM_TYPE = "https://tabletop.example/problems/"
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True, slots=True)
class ProblemCode:
    code: str
    statuses: tuple[int, ...]
    """The HTTP statuses it comes with; empty for a code only GraphQL errors carry."""


API_CODES = (
    ProblemCode("invalid_request", (422,)),
    ProblemCode("malformed_json", (400,)),
    ProblemCode("unsupported_content_type", (400,)),
    ProblemCode("graphql_request_invalid", (400,)),
    ProblemCode("bad_content_length", (400,)),
    ProblemCode("not_found", (404,)),
    ProblemCode("method_not_allowed", (405,)),
    ProblemCode("request_timeout", (408,)),
    ProblemCode("payload_too_large", (413,)),
    ProblemCode("rate_limited", (429,)),
    ProblemCode("internal_error", (500,)),
    ProblemCode("database_unavailable", (503,)),
    ProblemCode("too_many_streams", (429, 503)),
    ProblemCode("graphql_parse_failed", ()),
    ProblemCode("graphql_validation_failed", ()),
    ProblemCode("too_many_tokens", ()),
    ProblemCode("query_too_deep", ()),
    ProblemCode("too_many_aliases", ()),
    ProblemCode("query_too_costly", ()),
    ProblemCode("graphql_deadline_exceeded", ()),
)
"""Codes of the edge (HTTP, validation, GraphQL documents), beside the domain's typed errors."""


DATABASE_RETRY_SECONDS = 2
"""``Retry-After`` of ``database_unavailable``: each wait for the database is bounded by a few
seconds (``TABLETOP_DB_CONNECT_TIMEOUT_SECONDS``, ``..._STATEMENT_TIMEOUT_SECONDS``), so a retry
soon after learns soon whether it is back."""
DATABASE_UNAVAILABLE = Detail(
    "the database did not answer in time or cannot store changes now; retry after {retry_s} s "
    "(a change retried with the same Idempotency-Key is applied at most once)",
    {"retry_s": DATABASE_RETRY_SECONDS},
)


@cache
def problem_codes() -> dict[str, ProblemCode]:
    """Every code the API can answer, with its HTTP statuses."""
    statuses: dict[str, set[int]] = {}
    pending = list(DomainError.__subclasses__())
    while pending:
        error = pending.pop()
        pending.extend(error.__subclasses__())
        statuses.setdefault(error.code, set()).add(error.status)
    for entry in API_CODES:
        statuses.setdefault(entry.code, set()).update(entry.statuses)
    return {code: ProblemCode(code, tuple(sorted(found))) for code, found in sorted(statuses.items())}


def known(code: str) -> str:
    """``code``, refused unless registered: the API never answers a code the README lacks."""
    if code not in problem_codes():
        raise LookupError(f"problem code '{code}' is not registered in api/problems/details.py")
    return code


def localized(code: str, detail: Detail, lang: str) -> str:
    """The ``detail`` of a problem in ``lang``: the English sentence, else the code's text with
    the same values (``api.problems.translations``)."""
    if lang == DEFAULT_LANGUAGE:
        return detail.english
    return translated_detail(known(code), detail, lang)


def scope_language(scope: Any) -> str:
    """The language an HTTP request asks for, from its raw ASGI scope (before any routing)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    header = dict(scope.get("headers", ())).get(b"accept-language", b"").decode("latin-1")
    return negotiate((query.get("lang") or [None])[0], header or None)


def problem(
    status: int, code: str, detail: Detail, lang: str = DEFAULT_LANGUAGE, **extra: Any
) -> JSONResponse:
    known(code)
    body = {
        "type": PROBLEM_TYPE + code,
        "title": code.replace("_", " "),
        "status": status,
        "code": code,
        "detail": localized(code, detail, lang),
        **extra,
    }
    answer = JSONResponse(body, status_code=status, media_type="application/problem+json")
    answer.headers["Content-Language"] = lang
    return answer


def _validation_problem(exc: RequestValidationError, lang: str) -> JSONResponse:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return problem(400, "malformed_json", Detail("the request body is not valid JSON"), lang)
    fields = [{"loc": [str(part) for part in e.get("loc", ())], "msg": str(e.get("msg", ""))} for e in errors]
    detail = validation_detail(
        [(".".join(map(str, e.get("loc", ()))), str(e.get("msg", ""))) for e in errors]
    )
    return problem(422, "invalid_request", detail, lang, errors=fields)


def validation_detail(errors: list[tuple[str, str]]) -> Detail:
    """``field: why; field: why``, pydantic's own sentence for why: a translation names the fields."""
    if not errors:
        return Detail("invalid request")
    template = "; ".join(f"{{field_{i}}}: {Detail.plain(why).template}" for i, (_, why) in enumerate(errors))
    return Detail(template, {f"field_{i}": field for i, (field, _) in enumerate(errors)})


def allowed_methods(request: Request) -> str:
    """Every method some route answers at this path, ``HEAD`` wherever ``GET`` is (``api.edge.head``).
    Starlette's own ``Allow`` names only the first matching route's, but one path often has
    several routes (``GET`` and ``POST /v1/games``)."""
    routes = [route for route in request.app.router.routes if not isinstance(route, Mount)]
    allowed = [
        method
        for method in HTTP_METHODS
        if any(route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes)
    ]
    if "GET" in allowed:
        allowed.insert(allowed.index("GET") + 1, "HEAD")
    return ", ".join(allowed)


def install_problem_handlers(app: FastAPI) -> None:
    async def on_domain_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, DomainError)
        answer = problem(exc.status, exc.code, exc.detail, scope_language(request.scope))
        retry_after = getattr(exc, "retry_after", None)
        if retry_after is not None:  # a refusal that passes with time (``chat_rate_limited``)
            answer.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
        return answer

    async def on_validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return _validation_problem(exc, scope_language(request.scope))

    async def on_http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        codes = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}
        code = codes.get(exc.status_code, "invalid_request" if exc.status_code < 500 else "internal_error")
        answer = problem(exc.status_code, code, Detail.plain(str(exc.detail)), scope_language(request.scope))
        answer.headers.update(exc.headers or {})
        if exc.status_code == 405:
            answer.headers["Allow"] = allowed_methods(request) or "GET, HEAD"  # static files
        return answer

    async def on_too_deep(request: Request, exc: Exception) -> JSONResponse:
        lang = scope_language(request.scope)
        return problem(400, "malformed_json", Detail("the request body is nested too deeply"), lang)

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled error", exc_info=exc)
        lang = scope_language(request.scope)
        return problem(
            500, "internal_error", Detail("an unexpected error occurred; it has been logged"), lang
        )

    async def on_storage_error(request: Request, exc: Exception) -> JSONResponse:
        """A database that is away is 503 with ``Retry-After``; any other storage error is
        unexpected. Answered here (not by the ``Exception`` handler, after which Starlette
        re-raises and the server drops the connection), so the connection is kept."""
        if not database_unavailable(exc):
            return await on_unexpected(request, exc)
        return database_unavailable_problem(exc, scope_language(request.scope))

    app.add_exception_handler(Exception, on_unexpected)
    app.add_exception_handler(DomainError, on_domain_error)
    app.add_exception_handler(RecursionError, on_too_deep)
    app.add_exception_handler(SQLAlchemyError, on_storage_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(StarletteHTTPException, on_http_error)


def database_unavailable_problem(exc: BaseException, lang: str) -> JSONResponse:
    """``503 database_unavailable`` with ``Retry-After``; the cause goes to the log only."""
    log.warning(
        "database unavailable", extra={"error": str(exc).splitlines()[0][:300] if str(exc) else repr(exc)}
    )
    answer = problem(503, "database_unavailable", DATABASE_UNAVAILABLE, lang)
    answer.headers["Retry-After"] = str(DATABASE_RETRY_SECONDS)
    return answer
