"""RFC 9457 problem details: one shape, with a stable machine-readable ``code``, for every failure."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from domain.errors import DomainError

log = logging.getLogger("tabletop.errors")
PROBLEM_TYPE = "https://tabletop.example/problems/"
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def problem(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    body = {
        "type": PROBLEM_TYPE + code,
        "title": code.replace("_", " "),
        "status": status,
        "code": code,
        "detail": detail,
        **extra,
    }
    return JSONResponse(body, status_code=status, media_type="application/problem+json")


def _validation_problem(exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return problem(400, "malformed_json", "the request body is not valid JSON")
    fields = [
        {"loc": [str(part) for part in e.get("loc", ())], "msg": str(e.get("msg", ""))}
        for e in errors
    ]
    summary = "; ".join(f"{'.'.join(f['loc'])}: {f['msg']}" for f in fields)
    return problem(422, "invalid_request", summary or "invalid request", errors=fields)


def allowed_methods(request: Request) -> str:
    """Every method some route answers at this path. Starlette's own ``Allow`` names only the
    first matching route's, but one path often has several routes (``GET`` and ``POST /v1/games``)."""
    routes = [route for route in request.app.router.routes if not isinstance(route, Mount)]
    allowed = [
        method
        for method in HTTP_METHODS
        if any(route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes)
    ]
    return ", ".join(allowed)


def install_problem_handlers(app: FastAPI) -> None:
    async def on_domain_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, DomainError)
        return problem(exc.status, exc.code, exc.message)

    async def on_validation_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return _validation_problem(exc)

    async def on_http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        codes = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}
        code = codes.get(exc.status_code, "http_error")
        answer = problem(exc.status_code, code, str(exc.detail))
        answer.headers.update(exc.headers or {})
        if exc.status_code == 405:
            answer.headers["Allow"] = allowed_methods(request) or "GET, HEAD"  # static files
        return answer

    async def on_too_deep(_: Request, exc: Exception) -> JSONResponse:
        return problem(400, "malformed_json", "the request body is nested too deeply")

    async def on_unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled error", exc_info=exc)
        return problem(500, "internal_error", "an unexpected error occurred; it has been logged")

    app.add_exception_handler(Exception, on_unexpected)
    app.add_exception_handler(DomainError, on_domain_error)
    app.add_exception_handler(RecursionError, on_too_deep)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(StarletteHTTPException, on_http_error)
