"""``submitChoice`` over the ``graphql-transport-ws`` socket a client already holds for its
subscriptions, served by a pre-resolved path: a move without an HTTP request.

Strawberry would run such a ``subscribe`` message as any operation: its schema pipeline (the
extensions' hooks, the deadline, a result stream), then its resolver's argument conversion. For a
document this module can read exactly, that is, one mutation whose only root field is
``submitChoice`` (its choice untyped or typed), parsed and validated under the served limits
(the schema's own kept documents, ``api.graphql.guard.DocumentCache``), the handler
(``api.graphql.transport``) skips that pipeline: graphql-core executes the kept document, its
variables coerced as always, and the root field is answered by ``api.graphql.play.submitted``, the
very function the resolver awaits (the token of ``connection_init``, the language, the idempotency
key, ``PlayService.submit_async``, problems as ``Problem``). The rest of the selection is completed
by graphql-core against the same schema, so the answer has the shape the client asked for, and
errors get the same codes (``api.graphql.guard.coded``).

Anything else (a query, a subscription, a directive, several root fields, a document
that does not parse or validate, variables that do not coerce) goes to Strawberry unchanged, whose
answer is then the documented one. The rate limiter has already charged the message
(``api.edge.middleware``: every socket message counts, as a request does), and one root field
costs nothing more. ``tests/e2e/test_socket_submit.py`` holds the answers equal to HTTP's.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from graphql import (
    ASTValidationRule,
    DocumentNode,
    ExecutionResult,
    FieldNode,
    GraphQLError,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
    execute,
    specified_rules,
)
from graphql.pyutils import is_awaitable
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from api.graphql.game_data import chosen_game
from api.graphql.play import submitted

FIELD = "submitChoice"
ARGUMENTS = frozenset(
    ("gameId", "choice", "gameChoice", "version", "idempotencyKey", "decisionVersion", "lang")
)
"""Every argument of ``submitChoice``, which the pre-resolved path reads."""
PLANS_KEPT = 64
"""Distinct submit documents remembered as readable or not (clients send one or two)."""

Parse = Callable[..., DocumentNode]
Validate = Callable[[GraphQLSchema, DocumentNode, tuple[type[ASTValidationRule], ...]], list[GraphQLError]]


@dataclass(frozen=True, slots=True)
class Plan:
    """A submit document the pre-resolved path serves: parsed and validated once."""

    document: DocumentNode
    operation_name: str | None


class Submitted:
    """What ``serve`` saw: whether the root field ran (then the move may be committed, and the
    answer must be sent whatever it holds)."""

    __slots__ = ("ran",)

    def __init__(self) -> None:
        self.ran = False


class SocketSubmits:
    """The pre-resolved socket submit of one schema: its plans, and serving one."""

    def __init__(
        self,
        schema: GraphQLSchema,
        parse: Parse,
        validate: Validate,
        max_tokens: int,
        extra_rules: Sequence[type[ASTValidationRule]],
    ) -> None:
        self.schema = schema
        self._parse = parse
        self._validate = validate
        self._max_tokens = max_tokens
        self._rules = (*specified_rules, *extra_rules)
        self._plans: OrderedDict[tuple[str, str | None], Plan | None] = OrderedDict()

    def plan(self, payload: object) -> Plan | None:
        """The plan for a ``subscribe`` message's payload, or None when Strawberry should run it."""
        if type(payload) is not dict:
            return None
        query, name = payload.get("query"), payload.get("operationName")
        if type(query) is not str or not (name is None or type(name) is str):
            return None
        key = (query, name)
        if key in self._plans:
            self._plans.move_to_end(key)
            return self._plans[key]
        found = self._read(query, name)
        self._plans[key] = found
        if len(self._plans) > PLANS_KEPT:
            self._plans.popitem(last=False)
        return found

    def _read(self, query: str, name: str | None) -> Plan | None:
        if FIELD not in query:  # most documents: a subscription, not worth parsing here
            return None
        try:
            document = self._parse(query, max_tokens=self._max_tokens)
        except GraphQLError:
            return None
        if self._validate(self.schema, document, self._rules):
            return None
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        chosen = [o for o in operations if name is None or (o.name is not None and o.name.value == name)]
        if len(chosen) != 1 or (name is None and len(operations) != 1):
            return None
        operation = chosen[0]
        if operation.operation is not OperationType.MUTATION or operation.directives:
            return None
        selections = operation.selection_set.selections
        if len(selections) != 1 or not isinstance(selections[0], FieldNode):
            return None
        field = selections[0]
        if field.name.value != FIELD or field.directives:
            return None
        given = {argument.name.value for argument in field.arguments or ()}
        if not given <= ARGUMENTS:
            return None
        return Plan(document, name)

    async def serve(
        self, plan: Plan, context: dict[str, Any], variables: object, submitted_: Submitted
    ) -> ExecutionResult:
        """Execute the plan: variables coerced by graphql-core, the root field answered by
        ``submitted``, the selection completed against the schema. When the variables do not
        coerce, ``submitted_.ran`` stays False and nothing was submitted."""

        def root(next_: Callable[..., Any], source: Any, info: Any, **arguments: Any) -> Any:
            if info.path.prev is not None:
                return next_(source, info, **arguments)
            submitted_.ran = True
            return submitted(
                info,
                arguments["gameId"] if "gameId" in arguments else arguments["game_id"],
                arguments.get("choice"),
                _one_of(_either(arguments, "gameChoice", "game_choice")),
                arguments.get("version"),
                _either(arguments, "idempotencyKey", "idempotency_key"),
                _either(arguments, "decisionVersion", "decision_version"),
                arguments.get("lang"),
                chosen_game(_either(arguments, "gameChoice", "game_choice")),
            )

        result = execute(
            self.schema,
            plan.document,
            context_value=context,
            variable_values=variables if type(variables) is dict else None,
            operation_name=plan.operation_name,
            middleware=[root],
            executor_class=StrawberryGraphQLCoreExecutionContext,
        )
        if is_awaitable(result):
            result = await _awaited(result)
        return result  # type: ignore[return-value]


def _one_of(value: Any) -> Any:
    """The value a ``@oneOf`` input carries, as graphql-core coerced it (a dict of one field: the
    schema's ``check_one_of`` refused any other), as ``api.graphql.game_data.chosen`` reads it."""
    return next(iter(value.values())) if type(value) is dict and value else None


def _either(arguments: dict[str, Any], name: str, out_name: str) -> Any:
    return arguments[name] if name in arguments else arguments.get(out_name)


async def _awaited(result: Awaitable[ExecutionResult]) -> ExecutionResult:
    return await result
