"""A webhook receiver on 127.0.0.1 that records what it is sent."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver(ThreadingHTTPServer):
    hosts: list[str]
    requests: list[tuple[dict[str, str], bytes]]
    """Each request's headers (lower-case names) and body."""


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        self.server.hosts.append(self.headers.get("host", ""))
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        self.server.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def running_receiver() -> Iterator[Receiver]:
    """A receiver answering 204 to every POST on a free port, serving from a thread of its own."""
    server = Receiver(("127.0.0.1", 0), Handler)
    server.hosts = []
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
