"""A wall-clock deadline on one GraphQL document: parsing, validation and execution of a query
together may take ``graphql_deadline_seconds``, over HTTP and over the websocket alike.

The deadline is an ``asyncio`` timeout around the operation; it cancels the operation at its next
await once passed (the checks themselves are linear in the document, see ``api.graphql.limits``, so
no synchronous stretch outlasts it by much). A mutation is never cut once it executes, as its
change may already be committed and its answer must say so: the deadline covers a mutation up to
the start of its execution. A subscription's deadline likewise ends when its stream starts; the
stream lasts as long as the client wants (and counts against the subscription caps).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from contextlib import aclosing
from contextvars import ContextVar
from typing import Any

from graphql import ExecutionResult as GraphQLExecutionResult
from graphql import GraphQLError
from strawberry.extensions import SchemaExtension
from strawberry.types.execution import ExecutionResult
from strawberry.types.graphql import OperationType

from api.graphql.refusals import Refusal
from api.problems.details import known
from domain.errors import Detail

log = logging.getLogger("tabletop.graphql")

_TIMER: ContextVar[asyncio.Timeout | None] = ContextVar("graphql_deadline", default=None)


def deadline_error(seconds: float) -> GraphQLError:
    return Refusal(
        known("graphql_deadline_exceeded"),
        Detail(
            "the operation took longer than the server's deadline of {deadline_s:g} s and was stopped",
            {"deadline_s": seconds},
        ),
    )


def _passed(timer: asyncio.Timeout) -> bool:
    when = timer.when()
    return timer.expired() or (when is not None and asyncio.get_running_loop().time() >= when)


class DeadlineGate(SchemaExtension):
    """Between validation and execution: refuses an operation whose deadline has already passed
    (validation ran long), and lifts the deadline of a mutation or a subscription that starts."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def on_execute(self) -> Iterator[None]:
        timer = _TIMER.get()
        context = self.execution_context
        if timer is not None and _passed(timer):
            context.result = GraphQLExecutionResult(data=None, errors=[deadline_error(self.seconds)])
        elif timer is not None and context.operation_type is not OperationType.QUERY:
            timer.reschedule(None)
        yield


class WithinDeadline:
    """Mixed into the schema: ``execute`` (HTTP) and ``stream`` (websockets, SSE; ``subscribe``
    goes through it) run their document under the deadline."""

    deadline_seconds: float = 10.0

    def _stopped(self) -> ExecutionResult:
        log.info("graphql operation stopped at its deadline of %s s", self.deadline_seconds)
        return ExecutionResult(data=None, errors=[deadline_error(self.deadline_seconds)])

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        try:
            async with asyncio.timeout(self.deadline_seconds) as timer:
                _TIMER.set(timer)
                return await super().execute(*args, **kwargs)  # type: ignore[misc]
        except TimeoutError:
            return self._stopped()
        finally:
            _TIMER.set(None)

    async def stream(self, *args: Any, **kwargs: Any) -> Any:
        source = await super().stream(*args, **kwargs)  # type: ignore[misc]
        return self._first_within_deadline(source)

    async def _first_within_deadline(self, source: AsyncIterator[Any]) -> AsyncGenerator[Any, None]:
        """The first result (validation, then a query's or a mutation's execution, or a
        subscription's start) under the deadline; the rest of a subscription's stream freely."""
        async with aclosing(source) as stream:  # type: ignore[type-var]
            try:
                async with asyncio.timeout(self.deadline_seconds) as timer:
                    _TIMER.set(timer)
                    first = await anext(stream)
            except StopAsyncIteration:
                return
            except TimeoutError:
                yield self._stopped()
                return
            finally:
                _TIMER.set(None)
            yield first
            async for result in stream:
                yield result
