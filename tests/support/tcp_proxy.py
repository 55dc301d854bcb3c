"""A TCP proxy a test puts between the server and its database, to cut the network without root:
``pause`` stops forwarding in both directions (bytes sent meanwhile wait in the buffers, new
connections are accepted but not passed on: the silence of a partition, not a refusal), ``resume``
heals it."""

from __future__ import annotations

import contextlib
import socket
import threading


class PausableProxy:
    def __init__(self, target_host: str, target_port: int, port: int = 0) -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", port))
        self.port: int = self.listener.getsockname()[1]
        self.forwarding = threading.Event()
        self.forwarding.set()
        self.closed = threading.Event()
        self.sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="proxy-accept", daemon=True).start()

    def pause(self) -> None:
        self.forwarding.clear()

    def resume(self) -> None:
        self.forwarding.set()

    def close(self) -> None:
        self.closed.set()
        self.forwarding.set()
        with contextlib.suppress(OSError):
            self.listener.close()
        with self._lock:
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.close()

    def _kept(self, sock: socket.socket) -> socket.socket:
        with self._lock:
            self.sockets.append(sock)
        return sock

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._connect, args=(self._kept(client),), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        self.forwarding.wait()
        if self.closed.is_set():
            return
        try:
            upstream = self._kept(socket.create_connection(self.target, timeout=10))
        except OSError:
            client.close()
            return
        upstream.settimeout(None)
        for source, sink in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                self.forwarding.wait()
                data = source.recv(65536)
                if not data:
                    break
                self.forwarding.wait()  # read while paused: held until healed
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
