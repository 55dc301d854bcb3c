"""A small SMTP server on 127.0.0.1 for tests (asyncio, RFC 5321's commands that a client sending
one message uses): it keeps every message it accepts, parsed."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage


@dataclass
class SmtpSink:
    port: int
    messages: list[EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> SmtpSink:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            server = loop.run_until_complete(asyncio.start_server(self._session, "127.0.0.1", self.port))
            ready.set()
            try:
                loop.run_forever()
            finally:
                server.close()
                loop.run_until_complete(server.wait_closed())
                loop.close()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    def received(self) -> list[EmailMessage]:
        with self._lock:
            return list(self.messages)

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        async def reply(line: str) -> None:
            writer.write(f"{line}\r\n".encode())
            await writer.drain()

        sender, recipients = "", list[str]()
        await reply("220 sink ESMTP ready")
        try:
            while line := await reader.readline():
                command = line.decode("utf-8", "replace").rstrip("\r\n")
                verb = command.split(" ", 1)[0].upper()
                if verb == "EHLO":
                    await reply("250-sink greets you")
                    await reply("250-8BITMIME")
                    await reply("250 SMTPUTF8")
                elif verb == "HELO":
                    await reply("250 sink")
                elif verb == "MAIL":
                    sender, recipients = command[10:].split(" ")[0].strip("<>"), []
                    await reply("250 OK")
                elif verb == "RCPT":
                    recipients.append(command[8:].split(" ")[0].strip("<>"))
                    await reply("250 OK")
                elif verb == "DATA":
                    await reply("354 end with <CRLF>.<CRLF>")
                    data = bytearray()
                    while (chunk := await reader.readline()) not in (b".\r\n", b""):
                        data += chunk[1:] if chunk.startswith(b"..") else chunk
                    parsed = message_from_bytes(bytes(data), policy=policy.default)
                    assert isinstance(parsed, EmailMessage)
                    with self._lock:
                        self.messages.append(parsed)
                        self.envelopes.append((sender, recipients))
                    await reply("250 OK queued")
                elif verb in ("RSET", "NOOP"):
                    await reply("250 OK")
                elif verb == "QUIT":
                    await reply("221 bye")
                    break
                else:
                    await reply("502 command not implemented")
        finally:
            writer.close()
