"""What stands between a GraphQL document and the resolvers: size, depth, alias and cost limits,
rate charging per top-level field, and errors that always carry an ``extensions.code`` and never
leak an unexpected exception's text (SQL, parameters, paths) to the client.

The schema's types live in ``api.graphql`` (one module per resource); this module builds the
served schema from them with the limits of the given settings.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import strawberry
from graphql import (
    ExecutionResult as GraphQLExecutionResult,
)
from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLSyntaxError,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
)
from strawberry.extensions import (
    AddValidationRules,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
)
from strawberry.types import ExecutionContext
from strawberry.types.execution import ExecutionResult as StrawberryExecutionResult

from api.graphql import schema as graphql_schema
from api.middleware import RATE_KEY, REQUEST_ID_KEY, VERDICT_KEY
from api.problems import known
from api.ratelimit import RateLimiter
from api.settings import Settings
from domain.errors import DomainError

log = logging.getLogger("tabletop.graphql")

INTERNAL_MESSAGE = "an unexpected error occurred; it has been logged"

LIST_SIZES = {"games": (50, 200), "events": (500, 1000)}
"""Fields whose ``limit`` argument sizes a list: (default, largest the resolver allows). Their
sub-selection is counted that many times in an operation's cost."""


# -- cost ------------------------------------------------------------------------------------------


def _list_factor(field: FieldNode) -> int:
    sizes = LIST_SIZES.get(field.name.value)
    if sizes is None:
        return 1
    default, largest = sizes
    for argument in field.arguments or ():
        if argument.name.value == "limit":
            if isinstance(argument.value, IntValueNode):
                return max(1, min(int(argument.value.value), largest))
            return largest
    return default


def selection_cost(
    selection_set: SelectionSetNode | None,
    fragments: dict[str, FragmentDefinitionNode],
    seen: frozenset[str] = frozenset(),
    root: bool = True,
) -> int:
    """Fields resolved by a selection set, fragments expanded; below a top-level list field
    (``games``, ``events``) everything counts as many times as the list may be long."""
    if selection_set is None:
        return 0
    total = 0
    for selection in selection_set.selections:
        if isinstance(selection, FieldNode):
            factor = _list_factor(selection) if root else 1
            total += 1 + factor * selection_cost(selection.selection_set, fragments, seen, False)
        elif isinstance(selection, InlineFragmentNode):
            total += selection_cost(selection.selection_set, fragments, seen, root)
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            fragment = fragments.get(name)
            if fragment is not None and name not in seen:
                total += selection_cost(fragment.selection_set, fragments, seen | {name}, root)
    return total


def root_fields(
    selection_set: SelectionSetNode, fragments: dict[str, FragmentDefinitionNode], seen: frozenset[str]
) -> int:
    """Top-level fields of an operation (each alias counts), fragments expanded."""
    count = 0
    for selection in selection_set.selections:
        if isinstance(selection, FieldNode):
            count += 0 if selection.name.value.startswith("__") else 1
        elif isinstance(selection, InlineFragmentNode):
            count += root_fields(selection.selection_set, fragments, seen)
        elif isinstance(selection, FragmentSpreadNode):
            fragment = fragments.get(selection.name.value)
            if fragment is not None and fragment.name.value not in seen:
                count += root_fields(fragment.selection_set, fragments, seen | {fragment.name.value})
    return count


def _fragments(context: ValidationContext) -> dict[str, FragmentDefinitionNode]:
    return {
        d.name.value: d for d in context.document.definitions if isinstance(d, FragmentDefinitionNode)
    }


def cost_rule(max_cost: int) -> type[ValidationRule]:
    class CostLimit(ValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            fragments = _fragments(context)
            for definition in context.document.definitions:
                if isinstance(definition, OperationDefinitionNode):
                    cost = selection_cost(definition.selection_set, fragments)
                    if cost > max_cost:
                        context.report_error(
                            GraphQLError(
                                f"the operation would resolve {cost} fields; at most {max_cost} "
                                "are allowed (list limits count in full)",
                                extensions={"code": "query_too_costly"},
                            )
                        )

    return CostLimit


# -- error codes -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Classified:
    code: str
    message: str
    expected: bool


def classify(error: GraphQLError) -> Classified:
    """The code and the client-safe message of an error. Anything not known to be the client's
    doing is an internal error whose text stays in the log."""
    given = (error.extensions or {}).get("code")
    if isinstance(given, str):
        return Classified(given, error.message, True)
    original = error.original_error
    if isinstance(original, DomainError):
        return Classified(original.code, original.message, True)
    if isinstance(original, GraphQLError):
        return classify(original)
    message = error.message
    if isinstance(error, GraphQLSyntaxError) or isinstance(original, GraphQLSyntaxError):
        if "more than" in message and "tokens" in message:
            return Classified("too_many_tokens", message, True)
        return Classified("graphql_parse_failed", message, True)
    if original is None and not error.path:
        if "exceeds maximum operation depth" in message:
            return Classified("query_too_deep", message, True)
        if "aliases found" in message:
            return Classified("too_many_aliases", message, True)
        if message.startswith("Variable '$"):
            return Classified("invalid_request", message, True)
        return Classified("graphql_validation_failed", message, True)
    return Classified("internal_error", INTERNAL_MESSAGE, False)


def coded(error: GraphQLError, request_id: str | None) -> GraphQLError:
    found = classify(error)
    extensions: dict[str, Any] = {"code": known(found.code)}
    if not found.expected and request_id:
        extensions["request_id"] = request_id
    return GraphQLError(
        found.message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        extensions=extensions,
    )


def _scope_state(context: Any) -> dict[str, Any]:
    connection = context.get("request") if isinstance(context, dict) else None
    scope = getattr(connection, "scope", None) or {}
    state: dict[str, Any] = scope.get("state") or {}
    return state


class ErrorCodes(SchemaExtension):
    """Give every error an ``extensions.code`` (as REST problems have) and mask unexpected ones."""

    def _process(self, result: object) -> None:
        errors = getattr(result, "errors", None)
        if errors:
            request_id = _scope_state(self.execution_context.context).get(REQUEST_ID_KEY)
            result.errors = [coded(e, request_id) for e in errors]  # type: ignore[attr-defined]

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
                error = GraphQLError(
                    f"this operation counts as {extra + 1} requests, more than this token or "
                    f"address has left; retry after {max(1, verdict.reset_seconds)} s",
                    extensions={"code": "rate_limited"},
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
        fragments = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        name = context.operation_name
        chosen = next(
            (o for o in operations if name is None or (o.name is not None and o.name.value == name)), None
        )
        if chosen is None:
            return 0
        return max(0, root_fields(chosen.selection_set, fragments, frozenset()) - 1)


class GuardedSchema(strawberry.Schema):
    """Logs each GraphQL error once, as one JSON line with its code; unexpected ones with the
    traceback (the client only sees ``internal_error``)."""

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
    return GuardedSchema(
        query=graphql_schema.Query,
        mutation=graphql_schema.Mutation,
        subscription=graphql_schema.Subscription,
        # Factories, not instances: an extension instance holds its operation's context.
        extensions=[
            ErrorCodes,
            partial(MaxTokensLimiter, max_token_count=settings.graphql_max_tokens),
            partial(QueryDepthLimiter, max_depth=settings.graphql_max_depth),
            partial(MaxAliasesLimiter, max_alias_count=settings.graphql_max_aliases),
            partial(AddValidationRules, [cost_rule(settings.graphql_max_cost)]),
            partial(ChargeTopLevelFields, limiter),
        ],
    )
