"""Strawberry's ``graphql-transport-ws`` handler, sending a group's shared answer as it was encoded.

Everything else (connection_init and its authorisation, ping/pong, the subscription caps,
errors, complete) stays Strawberry's: the protocol is unchanged and any standard client
(``graphql-ws``, GraphiQL) speaks it. Only a ``next`` message whose data a group shares
(``api.graphql.fanout``) is written from those bytes with the subscriber's id spliced in, instead of
being encoded again for each subscriber.
"""

from __future__ import annotations

from typing import Any

from starlette.websockets import WebSocketDisconnect
from strawberry.asgi import ASGIWebSocketAdapter
from strawberry.http.exceptions import WebSocketDisconnected
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import Message

from api.graphql.fanout import SharedData


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
