"""One execution and one encoding of a live event per group of subscribers.

A commit wakes every subscriber of its game at once. Without grouping each of them would run
graphql-core over the same event with the same selection and JSON-encode the same answer: at
1,000 subscribers that was ~0.4 ms of CPU per subscriber per event. Subscribers whose answer is
necessarily the same form a group, and the first of a group to reach an event executes and
encodes it; the others reuse those bytes (as Hasura's multiplexed subscriptions and Apollo
Router's subscription deduplication do). Once a subscription knows where its group's answers are
kept (``Route``), it writes a later event's bytes, its id spliced in, straight to its socket
(``DirectNext``) instead of handing the event to graphql-core and Strawberry's per-event pipeline.

A group is (document text, operation name, the variables the selection reads, and the event as
one viewer sees it: game, seq, seat or spectator, language). The viewer is part of the key, so
the bytes made for one seat never reach another: the view function decides what each viewer sees,
upstream, and a group only ever holds subscribers of one viewer. Variables used only as the root
field's arguments (``gameId``, ``after``, ``lang``) pick which events come, not how one renders:
subscribers resuming from different ``after`` still share the live events they have in common.

Only live events are shared (their ``next`` comes from the commit and is the same for every
subscriber of a viewer); history read for one subscriber is executed for it alone. A result with
errors or extensions is never shared (its errors are coded per request).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from graphql import (
    DocumentNode,
    ExecutionResult,
    FieldNode,
    OperationDefinitionNode,
    VariableNode,
    Visitor,
    print_ast,
    visit,
)
from starlette.websockets import WebSocketDisconnect
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import Operation

from persistence import fast_json


class Route:
    """Where one subscription's shared answers are kept: told by its executor the first time a
    ``LiveEvent`` of it goes through, so that the subscription can then find a later event's answer
    itself and have it written straight to its socket (``api.graphql.transport.DirectNext``),
    without a trip through graphql-core and Strawberry's pipeline for each subscriber."""

    __slots__ = ("key", "renderings")

    def __init__(self) -> None:
        self.renderings: SharedRenderings | None = None
        self.key: Hashable | None = None

    def shared(self, group: Hashable) -> SharedData | None:
        """The group's answer, to be written, when one of its subscribers already executed it, else
        None (then the event goes through the pipeline, which executes it or finds it meanwhile made)."""
        if self.renderings is None:
            return None
        found = self.renderings.get((self.key, group))
        if found is None or type(found.data) is not SharedData:
            return None
        self.renderings.written += 1
        return found.data


@dataclass(frozen=True, slots=True)
class LiveEvent:
    """A live event for one viewer: ``group`` says who else sees exactly it; ``build`` makes the
    GraphQL object, only when this subscriber is the first of its group to execute it; ``route``,
    when given, is told where the group's answers are kept."""

    group: Hashable
    build: Callable[[], object]
    route: Route | None = None


class SharedData(dict[str, Any]):
    """The ``data`` of an answer shared by a group, with its JSON made once for all of them."""

    __slots__ = ("_payload",)

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__(data)
        self._payload: str | None = None

    @property
    def payload(self) -> str:
        """The ``next`` message's payload, ``{"data": ...}``, as the transport encodes every other
        message (``fast_json``: orjson, compact, UTF-8 text rather than ``\\u`` escapes)."""
        if self._payload is None:
            self._payload = fast_json.dumps({"data": self})
        return self._payload

    def next_message(self, operation_id: str) -> str:
        """A ``graphql-transport-ws`` ``next`` message for one subscriber: its id spliced in."""
        return next_prefix(operation_id) + self.payload + "}"


def next_prefix(operation_id: str) -> str:
    """What comes before the payload in a ``next`` message of ``operation_id`` (then ``}``)."""
    return f'{{"id":{fast_json.dumps(operation_id)},"type":"next","payload":'


class SharedRenderings:
    """Executed answers by (rendering, group): the most recently used ``size`` are kept, enough for
    every viewer of the events of many games being revealed at once."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._kept: OrderedDict[Hashable, ExecutionResult] = OrderedDict()
        self.executed = 0
        """Answers executed for a group (its first subscriber)."""
        self.reused = 0
        """Answers handed to a later subscriber of a group without executing anything."""
        self.written = 0
        """Of those, the ones written straight to the subscriber's socket (``Route``)."""

    def get(self, key: Hashable) -> ExecutionResult | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            self.reused += 1
        return found

    def remember(self, key: Hashable, result: ExecutionResult) -> ExecutionResult:
        self.executed += 1
        if result.errors or result.extensions or not isinstance(result.data, dict):
            return result
        shared = ExecutionResult(SharedData(result.data))
        self._kept[key] = shared
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return shared

    def __len__(self) -> int:
        return len(self._kept)


class _ReadVariables(Visitor):
    """Names of the variables a selection reads."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def enter_variable(self, node: VariableNode, *_: object) -> None:
        self.names.add(node.name.value)


def rendering_key(
    operation: OperationDefinitionNode,
    fragments: dict[str, Any],
    variables: dict[str, Any],
) -> Hashable:
    """What, besides the event, decides a subscription's answer: the document, the operation and
    the values of the variables read anywhere but in the root field's arguments (over-counting a
    variable only makes groups smaller, never wrong)."""
    reader = _ReadVariables()
    for node in operation.directives or ():
        visit(node, reader)
    for selection in operation.selection_set.selections:
        if isinstance(selection, FieldNode):
            for directive in selection.directives or ():
                visit(directive, reader)
            if selection.selection_set is not None:
                visit(selection.selection_set, reader)
        else:
            visit(selection, reader)
    for fragment in fragments.values():
        visit(fragment, reader)
    read = {name: variables.get(name) for name in sorted(reader.names)}
    source = operation.loc.source.body if operation.loc is not None else _printed(operation, fragments)
    name = operation.name.value if operation.name is not None else None
    return (source, name, json.dumps(read, sort_keys=True, default=repr))


def _printed(operation: OperationDefinitionNode, fragments: dict[str, Any]) -> str:
    return print_ast(DocumentNode(definitions=(operation, *fragments.values())))


class GroupedExecutor(StrawberryGraphQLCoreExecutionContext):
    """Executes a ``LiveEvent`` once per group; anything else as graphql-core always does."""

    renderings: ClassVar[SharedRenderings]
    _rendering: Hashable | None = None

    def build_per_event_executor(self, payload: Any) -> Any:
        if isinstance(payload, LiveEvent):
            if self._rendering is None:
                self._rendering = rendering_key(
                    self.operation, self.fragment_definitions, dict(self.variable_values.coerced)
                )
            route = payload.route
            if route is not None and route.renderings is None:
                route.key, route.renderings = self._rendering, self.renderings
            found = self.renderings.get((self._rendering, payload.group))
            if found is not None:
                return _Executed(found)  # no copy of the executor for an answer already made
        return super().build_per_event_executor(payload)

    def execute_operation(self, serially: bool | None = None) -> Any:
        payload = self.root_value
        if not isinstance(payload, LiveEvent):
            return super().execute_operation(serially)
        key = (self._rendering, payload.group)
        found = self.renderings.get(key)
        if found is not None:  # another subscriber of the group made it meanwhile
            return found
        self.root_value = payload.build()
        result = super().execute_operation(serially)
        if self.is_awaitable(result):
            return self._remember_later(key, result)
        return self.renderings.remember(key, cast(ExecutionResult, result))

    async def _remember_later(self, key: Hashable, pending: Awaitable[ExecutionResult]) -> ExecutionResult:
        return self.renderings.remember(key, await pending)


@dataclass(frozen=True, slots=True)
class _Executed:
    """Stands in for a per-event executor whose answer the group already has."""

    result: ExecutionResult

    def execute_operation(self, serially: bool | None = None) -> ExecutionResult:
        return self.result


def grouped_executor(renderings: SharedRenderings) -> type[GroupedExecutor]:
    """An executor class bound to one schema's renderings (one per app: nothing global)."""
    return type("BoundGroupedExecutor", (GroupedExecutor,), {"renderings": renderings})


class DirectNext:
    """One subscription's way to its socket, for the ``next`` messages of answers its group shares.

    The message is the group's payload, encoded once, with this subscription's own prefix (its id)
    made once: the very bytes Strawberry's ``send_next`` would have sent through ``send_message``,
    written by the subscription's own task (in its order, after what it sent before; a slow socket
    holds only this subscription, as before)."""

    __slots__ = ("_prefix", "_socket", "operation")

    def __init__(self, socket: Any, operation_id: str) -> None:
        self._socket = socket
        self._prefix = next_prefix(operation_id)
        self.operation: Operation[Any, Any] | None = None
        """Set once Strawberry registered the operation (before its task first runs)."""

    async def send(self, data: SharedData) -> None:
        operation = self.operation
        if operation is None or operation.completed:  # as Operation.send_operation_message
            return
        try:
            await self._socket.send_text(self._prefix + data.payload + "}")
        except WebSocketDisconnect as exc:
            raise WebSocketDisconnected from exc


DIRECT_NEXT: ContextVar[DirectNext | None] = ContextVar("direct_next", default=None)


def direct_next() -> DirectNext | None:
    """The running subscription's ``DirectNext``; None unless it runs over this handler's socket."""
    return DIRECT_NEXT.get()
