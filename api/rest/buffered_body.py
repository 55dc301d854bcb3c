"""A request's body read whole by a middleware that must see it before the route does, and
given back to the app afterwards as if unread (the pre-resolved submit, the owner forwarding)."""

from __future__ import annotations

from starlette.types import Message, Receive


async def read_body(receive: Receive) -> tuple[list[Message], bytes]:
    """The whole body (``RequestGuard`` has already buffered it within the limits)."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return messages, b"".join(chunks)


def replayed(messages: list[Message], receive: Receive) -> Receive:
    """``receive`` that first gives back the messages already read."""

    async def replay() -> Message:
        return messages.pop(0) if messages else await receive()

    return replay
