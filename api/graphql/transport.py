"""Strawberry's ``graphql-transport-ws`` handler, sending a group's shared answer as it was encoded,
and serving ``submitChoice`` over the socket by the pre-resolved path (``api.graphql.socket_submit``).

Everything else (connection_init and its authorisation, ping/pong, the subscription caps,
errors, complete) stays Strawberry's: the protocol is unchanged and any standard client
(``graphql-ws``, GraphiQL) speaks it. Only a ``next`` message whose data a group shares
(``api.graphql.fanout``) is written from those bytes with the subscriber's id spliced in, instead of
being encoded again for each subscriber; a subscription that finds its group's answer already made
writes it itself, straight to its socket (``DirectNext``: graphql-core's and Strawberry's per-event
pipeline is then skipped for every subscriber but the group's first); and a ``subscribe`` message
carrying a submit the pre-resolved path can read runs as an operation of the connection (its id,
the caps, ``complete`` and the socket's end treat it as any other) without Strawberry's pipeline.
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import Any

from starlette.websockets import WebSocketDisconnect
from strawberry.asgi import ASGIWebSocketAdapter
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
    Operation,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import Message, SubscribeMessage

from api.graphql.common import context_language
from api.graphql.fanout import DIRECT_NEXT, DirectNext, SharedData
from api.graphql.guard import coded
from api.graphql.socket_submit import Plan, SocketSubmits, Submitted


class SharedAnswersHandler(BaseGraphQLTransportWSHandler[Any, Any]):
    async def send_message(self, message: Message) -> None:
        if message["type"] == "next" and isinstance(self.websocket, ASGIWebSocketAdapter):
            payload = message["payload"]
            data = payload.get("data")
            if type(data) is SharedData and len(payload) == 1:
                try:
                    await self.websocket.ws.send_text(data.next_message(message["id"]))
                except WebSocketDisconnect as exc:
                    raise WebSocketDisconnected from exc
                return
        await super().send_message(message)

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        submits: SocketSubmits | None = getattr(self.schema, "socket_submits", None)
        payload = message.get("payload")
        plan = submits.plan(payload) if submits is not None and self._may_start(message) else None
        variables = payload.get("variables") if plan is not None else None
        if submits is None or plan is None or not (variables is None or type(variables) is dict):
            await self._subscribe(message)
            return
        operation: Operation[Any, Any] = Operation(
            self, message["id"], payload["query"], variables, payload.get("operationName")
        )
        operation.task = asyncio.create_task(self._submit(submits, plan, operation))
        operation.task.add_done_callback(self._task_done)
        self.operations[message["id"]] = operation

    async def _subscribe(self, message: SubscribeMessage) -> None:
        """Strawberry's subscribe, its operation's task started with a ``DirectNext`` in its context."""
        if not isinstance(self.websocket, ASGIWebSocketAdapter):
            await super().handle_subscribe(message)
            return
        direct = DirectNext(self.websocket.ws, message["id"])
        reset = DIRECT_NEXT.set(direct)
        try:
            known = self.operations.get(message["id"])
            await super().handle_subscribe(message)
        finally:
            DIRECT_NEXT.reset(reset)
        started = self.operations.get(message["id"])
        if started is not known:
            direct.operation = started

    def _may_start(self, message: SubscribeMessage) -> bool:
        """Whether Strawberry would start an operation for this message (else it answers it)."""
        cap = self.max_subscriptions_per_connection
        return (
            self.connection_acknowledged
            and message.get("id") not in self.operations
            and (cap is None or len(self.operations) < cap)
        )

    async def _submit(self, submits: SocketSubmits, plan: Plan, operation: Operation[Any, Any]) -> None:
        """The operation task of a pre-resolved submit: one ``next``, then ``complete``; variables
        that do not coerce (nothing submitted) are left to Strawberry, which says why."""
        try:
            ran = Submitted()
            result = await submits.serve(plan, self.context, operation.variables, ran)
            if not ran.ran:
                await self.run_operation(operation)
                return
            self.context["container"].metrics.socket_submits.inc()
            if result.errors:
                self.schema.process_errors(result.errors)
                lang = context_language(self.context)
                result.errors = [coded(error, None, lang) for error in result.errors]
            await operation.send_next(result)  # type: ignore[arg-type]
            await operation.send_operation_message({"id": operation.id, "type": "complete"})
        except Exception as error:  # as Strawberry's run_operation: logged, completed, raised
            await self.handle_task_exception(error)
            with suppress(Exception):
                await operation.send_operation_message({"id": operation.id, "type": "complete"})
            self.operations.pop(operation.id, None)
            raise
