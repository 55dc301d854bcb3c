"""What stands between a GraphQL document and the resolvers: size, depth, alias and cost limits
(checked in linear time, ``api.graphql.limits``), a deadline (``api.graphql.deadline``),
rate charging per top-level field, and errors that always carry an ``extensions.code`` and never
leak an unexpected exception's text (SQL, parameters, paths) to the client.

The schema's types live in ``api.graphql`` (one module per resource); this module builds the
served schema from them with the limits of the given settings.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

import strawberry
from graphql import (
    ExecutionResult as GraphQLExecutionResult,
)
from graphql import (
    GraphQLError,
    GraphQLSyntaxError,
    OperationDefinitionNode,
    parse,
)
from strawberry.extensions import (
    AddValidationRules,
    MaxTokensLimiter,
    SchemaExtension,
)
from strawberry.schema.schema import validate_document
from strawberry.types import ExecutionContext
from strawberry.types.execution import ExecutionResult as StrawberryExecutionResult

from api.edge.middleware import RATE_KEY, REQUEST_ID_KEY, VERDICT_KEY
from api.edge.rate_limits import RateLimiter
from api.graphql import schema as graphql_schema
from api.graphql.deadline import DeadlineGate, WithinDeadline
from api.graphql.fanout import SharedRenderings, grouped_executor
from api.graphql.limits import limits_rule, root_fields
from api.graphql.refusals import Refusal, library_detail
from api.graphql.socket_submit import SocketSubmits
from api.problems.details import (
    DATABASE_RETRY_SECONDS,
    DATABASE_UNAVAILABLE,
    known,
    localized,
    scope_language,
)
from api.settings import Settings
from domain.errors import Detail, DomainError
from domain.i18n import DEFAULT_LANGUAGE
from persistence.errors import database_unavailable

log = logging.getLogger("tabletop.graphql")
DOCUMENTS_CACHED = 256
"""Distinct document texts whose parse and validation are kept (least recently used dropped):
clients send the same few documents over and over, above all on every subscribe (the load
generator's subscription: ~0.7 ms to parse and validate, ~0.02 ms kept; bench/README.md). Bounded,
so unique texts cannot grow memory."""

INTERNAL_MESSAGE = "an unexpected error occurred; it has been logged"

# -- error codes -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Classified:
    code: str
    detail: Detail
    expected: bool


def classify(error: GraphQLError) -> Classified:
    """The code and the client-safe detail of an error. Anything not known to be the client's
    doing is an internal error whose text stays in the log."""
    if isinstance(error, Refusal):
        return Classified(error.code, error.detail, True)
    given = (error.extensions or {}).get("code")
    message = error.message
    if isinstance(given, str):
        return Classified(given, library_detail(message), True)
    original = error.original_error
    if isinstance(original, DomainError):
        return Classified(original.code, original.detail, True)
    if original is not None and database_unavailable(original):
        return Classified("database_unavailable", DATABASE_UNAVAILABLE, True)
    if isinstance(original, GraphQLError):
        return classify(original)
    if isinstance(error, GraphQLSyntaxError) or isinstance(original, GraphQLSyntaxError):
        if "more than" in message and "tokens" in message:
            return Classified("too_many_tokens", library_detail(message), True)
        return Classified("graphql_parse_failed", library_detail(message), True)
    if original is None and not error.path:
        if "exceeds maximum operation depth" in message:
            return Classified("query_too_deep", library_detail(message), True)
        if "aliases found" in message:
            return Classified("too_many_aliases", library_detail(message), True)
        if message.startswith("Variable '$"):
            return Classified("invalid_request", library_detail(message), True)
        return Classified("graphql_validation_failed", library_detail(message), True)
    return Classified("internal_error", Detail(INTERNAL_MESSAGE), False)


def coded(error: GraphQLError, request_id: str | None, lang: str = DEFAULT_LANGUAGE) -> GraphQLError:
    """``extensions.detail`` is the message in the caller's language (``api.problems.details.localized``)."""
    found = classify(error)
    extensions: dict[str, Any] = {
        "code": known(found.code),
        "detail": localized(found.code, found.detail, lang),
    }
    if not found.expected and request_id:
        extensions["request_id"] = request_id
    if found.code == "database_unavailable":  # retryable: when, as REST's Retry-After says
        extensions["retry_after"] = DATABASE_RETRY_SECONDS
    return GraphQLError(
        found.detail.english,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        extensions=extensions,
    )


def _scope(context: Any) -> dict[str, Any]:
    connection = context.get("request") if isinstance(context, dict) else None
    scope: dict[str, Any] = getattr(connection, "scope", None) or {}
    return scope


def _scope_state(context: Any) -> dict[str, Any]:
    state: dict[str, Any] = _scope(context).get("state") or {}
    return state


class ErrorCodes(SchemaExtension):
    """Give every error an ``extensions.code`` (as REST problems have) and mask unexpected ones."""

    def _process(self, result: object) -> None:
        errors = getattr(result, "errors", None)
        if errors:
            context = self.execution_context.context
            request_id = _scope_state(context).get(REQUEST_ID_KEY)
            lang = scope_language(_scope(context))
            result.errors = [coded(e, request_id, lang) for e in errors]  # type: ignore[attr-defined]

    def on_operation(self) -> Iterator[None]:
        self._streamed = False
        yield
        if not self._streamed:
            result = self.execution_context.result
            if isinstance(result, GraphQLExecutionResult | StrawberryExecutionResult):
                self._process(result)

    def on_stream_result(self, result: Any) -> Iterator[None]:
        self._streamed = True
        self._process(result)
        yield None


class ChargeTopLevelFields(SchemaExtension):
    """An operation with several top-level fields (aliases included) is that many requests for
    the rate limiter: the transport charged one already, this charges the rest before execution."""

    def __init__(self, limiter: RateLimiter) -> None:
        self.limiter = limiter

    async def on_execute(self) -> Any:
        context = self.execution_context
        extra = self._extra_fields(context)
        state = _scope_state(context.context)
        key = state.get(RATE_KEY)
        if extra > 0 and isinstance(key, str):
            verdict = await self.limiter.hit(key, cost=extra)
            if not verdict.allowed:
                error = Refusal(
                    "rate_limited",
                    Detail(
                        "this operation counts as {requests} requests, more than this token or address "
                        "has left; retry after {retry_s} s",
                        {"requests": extra + 1, "retry_s": max(1, verdict.reset_seconds)},
                    ),
                )
                context.result = GraphQLExecutionResult(data=None, errors=[error])
                response = context.context.get("response") if isinstance(context.context, dict) else None
                if response is not None:
                    response.status_code = 429
            state[VERDICT_KEY] = verdict  # the RateLimit headers report the latest charge
        yield

    @staticmethod
    def _extra_fields(context: ExecutionContext) -> int:
        document = context.graphql_document
        if document is None:
            return 0
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        name = context.operation_name
        chosen = next(
            (o for o in operations if name is None or (o.name is not None and o.name.value == name)), None
        )
        if chosen is None:
            return 0
        return max(0, root_fields(document, chosen) - 1)


class DocumentCache:
    """Parsed and validated documents by text (and parse options, validation rules), the least
    recently used dropped beyond ``size``: one per schema, nothing global."""

    def __init__(self, size: int) -> None:
        self.parse = lru_cache(maxsize=size)(parse)
        self.validate = lru_cache(maxsize=size)(validate_document)


class KeptDocuments(SchemaExtension):
    """Strawberry's ``ParserCache`` and ``ValidationCache`` in one, except that a document that
    does not parse is left to Strawberry's own parse, which answers its syntax error as usual
    (``ParserCache`` lets the error escape the operation instead). Errors are never kept: a
    failing parse raises, and only its result is cached."""

    def __init__(self, documents: DocumentCache) -> None:
        self.documents = documents

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        if context.query and context.graphql_document is None:
            with suppress(GraphQLError):
                context.graphql_document = self.documents.parse(context.query, **context.parse_options)
        yield

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if document is not None and context.validation_rules and context.pre_execution_errors is None:
            rules = tuple(context.validation_rules)
            context.pre_execution_errors = list(
                self.documents.validate(context.schema._schema, document, rules)
            )
        yield


class GuardedSchema(WithinDeadline, strawberry.Schema):
    """Runs each document under the deadline (``api.graphql.deadline``); logs each GraphQL error
    once, as one JSON line with its code; unexpected ones with the
    traceback (the client only sees ``internal_error``). ``shared_events``: the live answers
    shared by groups of subscribers; ``documents``: the documents kept parsed and validated;
    ``socket_submits``: ``submitChoice`` over the websocket (``api.graphql.socket_submit``)."""

    shared_events: SharedRenderings
    documents: DocumentCache | None = None
    socket_submits: SocketSubmits | None = None

    def process_errors(self, errors: list[GraphQLError], execution_context: Any = None) -> None:
        context = getattr(execution_context, "context", None)
        request_id = _scope_state(context).get(REQUEST_ID_KEY)
        operation = getattr(execution_context, "operation_name", None) if execution_context else None
        for error in errors:
            found = classify(error)
            fields = {
                "request_id": request_id,
                "code": found.code,
                "operation": operation,
                "path": list(error.path) if error.path else None,
            }
            if found.expected:
                log.info("graphql error: %s", error.message, extra=fields)
            else:
                log.error("graphql error: %s", error.message, extra=fields, exc_info=error.original_error)


def build_schema(settings: Settings, limiter: RateLimiter) -> strawberry.Schema:
    shared = SharedRenderings()
    documents = DocumentCache(DOCUMENTS_CACHED)
    limits = limits_rule(settings.graphql_max_depth, settings.graphql_max_aliases, settings.graphql_max_cost)
    schema = GuardedSchema(
        query=graphql_schema.Query,
        mutation=graphql_schema.Mutation,
        subscription=graphql_schema.Subscription,
        # Factories, not instances: an extension instance holds its operation's context.
        extensions=[
            ErrorCodes,
            partial(MaxTokensLimiter, max_token_count=settings.graphql_max_tokens),
            partial(KeptDocuments, documents),
            partial(AddValidationRules, [limits]),
            partial(DeadlineGate, settings.graphql_deadline_seconds),
            partial(ChargeTopLevelFields, limiter),
        ],
        execution_context_class=grouped_executor(shared),
    )
    schema.shared_events = shared
    schema.documents = documents
    schema.socket_submits = SocketSubmits(
        schema._schema, documents.parse, documents.validate, settings.graphql_max_tokens, [limits]
    )
    schema.deadline_seconds = settings.graphql_deadline_seconds
    return schema
