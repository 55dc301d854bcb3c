"""What the generated OpenAPI document adds to FastAPI's: the problem codes each operation can
really answer (with an example each), the bearer scheme's optional use, and an example for every
request body and response.

Each router names the codes its use cases raise (``problems(...)``); the codes every request can
meet at the edge (rate limit, body limits, validation, a bad ``Authorization``) are added here from
what the operation has (a body, parameters, the bearer scheme), so they are never forgotten.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from typing import Any

from fastapi import FastAPI

from api.deps import BEARER_SCHEME
from api.openapi.examples import OPERATION_EXAMPLES, SCHEMA_EXAMPLES, problem_example
from api.openapi.webhooks import add_webhooks
from api.pages.docs import guide
from api.problems.details import known, problem_codes
from api.rest.models.problems import Problem

REF_TEMPLATE = "#/components/schemas/{model}"
PROBLEMS_KEY = "x-problem-codes"
BODY_CODES = ("malformed_json", "bad_content_length", "request_timeout", "payload_too_large")
UNLIMITED_OPERATIONS = ("healthz", "readyz", "metrics")
OPTIONAL_TOKEN = ("getGame", "getChoices", "listEvents", "joinGame", "readChat", "createGame", "replayGame")
"""Operations a request without a token may call (a spectator, a person taking a seat, an
anonymous create, an ended game's replay)."""

STATUS_TEXT = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    408: "Request timeout",
    409: "Conflict",
    413: "Payload too large",
    422: "Unprocessable content",
    429: "Too many requests",
    500: "Internal error (masked; the log has the details under the response's X-Request-Id)",
    503: "Service unavailable: the database did not answer in time; retry after `Retry-After` seconds",
}


Documented = str | tuple[str, int]
"""A problem code, or a code and the status it comes with here (for a code with several)."""


def status_of(entry: Documented) -> int:
    """The status of a documented code: the registry's own, when it has only one."""
    if isinstance(entry, tuple):
        code, status = entry
        if status not in problem_codes()[code].statuses:
            raise LookupError(f"problem code '{code}' never comes with status {status}")
        return status
    statuses = problem_codes()[known(entry)].statuses
    if len(statuses) != 1:
        raise LookupError(f"problem code '{entry}' comes with {statuses}: name the status")
    return statuses[0]


def problems(*codes: Documented) -> dict[str, Any]:
    """``openapi_extra`` of an operation whose use cases can answer these problem codes (the edge
    codes are added to every operation). An unknown code fails at import."""
    for code in codes:
        status_of(code)
    return {PROBLEMS_KEY: list(codes)}


def document_contract(app: FastAPI, version: str) -> None:
    """Wrap ``app.openapi`` (after the game schemas are added): info.version, problems, examples."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = build()
        document["info"]["version"] = version
        document["info"]["description"] = guide()
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        _add_problem_schema(schemas)
        for name, example in SCHEMA_EXAMPLES.items():
            if name in schemas:
                schemas[name]["examples"] = [example]
        for path in document.get("paths", {}).values():
            for operation in path.values():
                _complete(operation, schemas)
        _require_answered_fields(document, schemas)
        for path in document.get("paths", {}).values():
            for operation in path.values():
                _declare_headers(operation)
        document["components"].setdefault("responses", {})["MethodNotAllowed"] = METHOD_NOT_ALLOWED
        add_webhooks(document)
        app.openapi_schema = document
        return document

    app.openapi = openapi  # type: ignore[method-assign]


HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-Id": {
        "description": "This request's id (the client's own `X-Request-Id` if it is 1-64 characters "
        "of `A-Z a-z 0-9 . _ : -`): the server's log lines for the request carry it.",
        "schema": {"type": "string", "maxLength": 64},
    },
    "RateLimit-Limit": {
        "description": "Requests the caller's budget allows per window (absent when rate limiting is off).",
        "schema": {"type": "integer"},
    },
    "RateLimit-Remaining": {
        "description": "Requests left in the current window.",
        "schema": {"type": "integer"},
    },
    "RateLimit-Reset": {
        "description": "Seconds until the budget is refilled.",
        "schema": {"type": "integer"},
    },
    "RateLimit-Policy": {
        "description": "The policy, `<limit>;w=<window seconds>`.",
        "schema": {"type": "string", "pattern": "^[0-9]+;w=[0-9]+$"},
    },
    "Retry-After": {
        "description": "Seconds to wait before the next request.",
        "schema": {"type": "integer"},
    },
    "Location": {"description": "The path of what was created.", "schema": {"type": "string"}},
    "ETag": {
        "description": "Send it back as `If-None-Match`: 304 while nothing changed for this viewer.",
        "schema": {"type": "string"},
    },
    "Cache-Control": {"description": "Revalidate at each use.", "schema": {"type": "string"}},
    "Vary": {
        "description": "What the answer depends on: `Accept-Encoding` when it may be gzipped, "
        "`Origin` with CORS, `Authorization, Accept-Language` on conditional reads.",
        "schema": {"type": "string"},
    },
    "Content-Language": {
        "description": "The language of the answer's texts (`lang`, else `Accept-Language`).",
        "schema": {"enum": ["en", "de", "fr", "es"]},
    },
    "Allow": {
        "description": "Every method the path answers (`HEAD` wherever `GET`: the same status and "
        "headers, no body).",
        "schema": {"type": "string"},
    },
}
"""Every response header the API sets, declared on each response that carries it."""

RATE_LIMIT_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")
CONDITIONAL_HEADERS = ("ETag", "Cache-Control", "Vary")
METHOD_NOT_ALLOWED = {
    "description": "A method the path does not answer (any path of this document): problem "
    "`method_not_allowed`, with `Allow` naming the methods it does answer.",
    "headers": {
        "Allow": {**HEADERS["Allow"], "required": True},
        "X-Request-Id": {**HEADERS["X-Request-Id"], "required": True},
        "Content-Language": {**HEADERS["Content-Language"], "required": False},
        "Vary": {**HEADERS["Vary"], "required": False},
        **{name: {**HEADERS[name], "required": False} for name in RATE_LIMIT_HEADERS},
    },
    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
}


WAITLESS_REFUSALS = frozenset({"too_many_listed_games", "too_many_bot_only_games"})
"""429 refusals that pass when the caller acts (starts or aborts a game), not with time: they carry
no ``Retry-After``, so an operation that may answer one declares the header as sometimes sent."""


def _declare_headers(operation: dict[str, Any]) -> None:
    """The headers each response of an operation carries; ``required`` when always sent."""
    limited = operation.get("operationId") not in UNLIMITED_OPERATIONS
    parameters = operation.get("parameters", ())
    conditional = any(p.get("name", "").lower() == "if-none-match" for p in parameters)
    translated = any(p.get("name") == "lang" for p in parameters)
    for status, response in operation.get("responses", {}).items():
        names: dict[str, bool] = {"X-Request-Id": True, "Vary": False}
        if limited:
            names.update(dict.fromkeys(RATE_LIMIT_HEADERS, False))
        if status == "429":
            examples = response.get("content", {}).get("application/problem+json", {}).get("examples", {})
            names["Retry-After"] = not WAITLESS_REFUSALS & set(examples)
        if limited and status == "503":
            names["Retry-After"] = True
        if status == "201":
            names["Location"] = True
        if conditional and status in ("200", "304"):
            names.update(dict.fromkeys(CONDITIONAL_HEADERS, True))
        if status[:1] in "45" or (translated and status[:1] in "23"):
            names["Content-Language"] = False
        response["headers"] = {
            name: {**HEADERS[name], "required": required} for name, required in names.items()
        }


SOMETIMES_ABSENT = {"Problem": frozenset({"errors"})}
"""Response fields that are really left out at times (``errors``: only with ``invalid_request``)."""


def _require_answered_fields(document: dict[str, Any], schemas: dict[str, Any]) -> None:
    """A response always carries every field of its model (null when empty), so each is required:
    a generated client then types ``rematch_of`` as ``string | null``, not ``string | undefined``.
    Schemas a request body reaches keep their optional fields; closed schemas (the drafted game
    schemas) already list exactly what is required."""
    sent: set[str] = set()
    for path in document.get("paths", {}).values():
        for operation in path.values():
            _collect_refs(operation.get("requestBody", {}), schemas, sent)
    answered: set[str] = set()
    for path in document.get("paths", {}).values():
        for operation in path.values():
            _collect_refs(operation.get("responses", {}), schemas, answered)
    for name in sorted(answered - sent):
        schema = schemas[name]
        if "properties" in schema and schema.get("additionalProperties") is not False:
            absent = SOMETIMES_ABSENT.get(name, frozenset())
            schema["required"] = [field for field in schema["properties"] if field not in absent]


def _collect_refs(node: Any, schemas: dict[str, Any], found: set[str]) -> None:
    """Every component schema ``node`` reaches through ``$ref`` (transitively)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.removeprefix("#/components/schemas/").split("/")[0]
            if name not in found and name in schemas:
                found.add(name)
                _collect_refs(schemas[name], schemas, found)
        for value in node.values():
            _collect_refs(value, schemas, found)
    elif isinstance(node, list):
        for value in node:
            _collect_refs(value, schemas, found)


def _add_problem_schema(schemas: dict[str, Any]) -> None:
    problem = Problem.model_json_schema(ref_template=REF_TEMPLATE)
    schemas.update(problem.pop("$defs", {}))
    schemas["Problem"] = problem


def _without_null(parameter: dict[str, Any]) -> None:
    """A query, header or path parameter is text or absent, never JSON ``null``: FastAPI's
    ``anyOf [..., null]`` for an optional one would let a client send the word ``null`` as a value
    the server refuses, so the schema keeps only what is accepted."""
    schema = parameter.get("schema", {})
    branches = schema.get("anyOf")
    if not isinstance(branches, list) or {"type": "null"} not in branches:
        return
    kept = [branch for branch in branches if branch != {"type": "null"}]
    del schema["anyOf"]
    if len(kept) == 1:
        schema.update(kept[0])
    else:
        schema["anyOf"] = kept


def _complete(operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    operation_id = operation.get("operationId", "")
    for parameter in operation.get("parameters", ()):
        _without_null(parameter)
    secured = any(BEARER_SCHEME in s for s in operation.get("security", ()))
    if secured and operation_id in OPTIONAL_TOKEN:
        operation["security"] = [{BEARER_SCHEME: []}, {}]
    codes = _documented_codes(operation)
    if operation_id not in UNLIMITED_OPERATIONS:
        codes += ["rate_limited", "internal_error", "database_unavailable"]
        if "requestBody" in operation or any(map(_validated, operation.get("parameters", ()))):
            codes.append("invalid_request")
        if "requestBody" in operation:
            codes += BODY_CODES
        if secured:
            codes.append("unauthorized")
    responses = operation.setdefault("responses", {})
    for status in [s for s in responses if s[:1] in "45" and s != "503"]:
        del responses[status]
    by_status: dict[int, list[str]] = {}
    for entry in dict.fromkeys(codes):
        code = entry[0] if isinstance(entry, tuple) else entry
        by_status.setdefault(status_of(entry), []).append(code)
    for status, status_codes in sorted(by_status.items()):
        responses[str(status)] = _problem_response(status, status_codes)
    for status, response in responses.items():
        if status.startswith("2"):
            _add_example(operation_id, response.get("content", {}), schemas)
    body = operation.get("requestBody", {}).get("content", {})
    _add_example(operation_id + ".request", body, schemas)


CONSTRAINTS = ("pattern", "maxLength", "minLength", "maximum", "minimum", "enum")


def _validated(parameter: dict[str, Any]) -> bool:
    """Whether a value of this parameter can be refused (422 ``invalid_request``)."""
    if parameter.get("required") and parameter.get("in") == "query":
        return True
    schema = parameter.get("schema", {})
    for member in [schema, *schema.get("anyOf", ())]:
        if any(key in member for key in CONSTRAINTS) or member.get("type") in ("integer", "number"):
            return True
    return False


def _documented_codes(operation: dict[str, Any]) -> list[Documented]:
    """The router's codes (FastAPI hands a ``(code, status)`` pair back as a list)."""
    codes: list[Any] = operation.pop(PROBLEMS_KEY, [])
    return [(str(c[0]), int(c[1])) if isinstance(c, list | tuple) else str(c) for c in codes]


def _problem_response(status: int, codes: list[str]) -> dict[str, Any]:
    listed = ", ".join(f"`{code}`" for code in codes)
    return {
        "description": f"{STATUS_TEXT.get(status, 'Problem')}: {listed}",
        "content": {
            "application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"},
                "examples": {code: {"value": problem_example(status, code)} for code in codes},
            }
        },
    }


def _add_example(key: str, content: dict[str, Any], schemas: dict[str, Any]) -> None:
    for media_type, entry in content.items():
        example = OPERATION_EXAMPLES.get(key)
        if example is None and media_type == "application/json":
            example = _schema_example(entry.get("schema", {}), schemas)
        if example is not None:
            entry["example"] = deepcopy(example)


def _schema_example(schema: dict[str, Any], schemas: dict[str, Any]) -> Any:
    ref = schema.get("$ref")
    if ref is not None:
        examples = schemas.get(ref.rsplit("/", 1)[-1], {}).get("examples")
        return examples[0] if examples else None
    if schema.get("type") == "array":
        item = _schema_example(schema.get("items", {}), schemas)
        return None if item is None else [item]
    return None
