"""A push service on 127.0.0.1 for tests: it hands out browser-like subscriptions (a P-256 key
pair and an auth secret made here with ``cryptography``), checks each request's VAPID
``Authorization`` (RFC 8292: an ES256 JWT for this origin, signed by the server's public key) and
decrypts its ``aes128gcm`` payload (RFC 8188, RFC 8291) with the subscription's private key, as a
browser's push service and the browser would. Endpoints under ``/gone/`` answer 410, as a push
service does for a subscription the browser dropped."""

from __future__ import annotations

import base64
import json
import os
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Subscriber:
    """One browser's subscription: its endpoint and keys, and the private key only it holds."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def public_raw(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def as_json(self, language: str) -> dict[str, Any]:
        """What the page sends: ``PushSubscription.toJSON()``'s endpoint and keys, and its language."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(self.public_raw), "auth": b64url(self.auth)},
            "language": language,
        }

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 (Web Push message encryption) over RFC 8188 (aes128gcm), one record."""
        salt, record_size, id_length = body[:16], struct.unpack("!I", body[16:20])[0], body[20]
        sender_raw = body[21 : 21 + id_length]
        ciphertext = body[21 + id_length :]
        assert len(ciphertext) <= record_size, "one record expected"
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_raw)
        shared = self.private_key.exchange(ec.ECDH(), sender)
        key_info = b"WebPush: info\x00" + self.public_raw + sender_raw
        ikm = HKDF(hashes.SHA256(), 32, self.auth, key_info).derive(shared)
        cek = HKDF(hashes.SHA256(), 16, salt, b"Content-Encoding: aes128gcm\x00").derive(ikm)
        nonce = HKDF(hashes.SHA256(), 12, salt, b"Content-Encoding: nonce\x00").derive(ikm)
        padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        unpadded = padded.rstrip(b"\x00")
        assert unpadded.endswith(b"\x02"), "the last record ends with the delimiter 2"
        return unpadded[:-1]


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    message: dict[str, Any]
    claims: dict[str, Any]


def verify_vapid(authorization: str, server_key: str, origin: str) -> dict[str, Any]:
    """The JWT claims of a ``vapid t=…,k=…`` header, after checking its signature by
    ``server_key``, its audience and expiry; AssertionError otherwise."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid", authorization
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == server_key, "signed by another key than the server's"
    header, payload, signature = fields["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    try:
        key.verify(der, f"{header}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    claims: dict[str, Any] = json.loads(unb64url(payload))
    assert claims["aud"] == origin, claims
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims
    assert claims["sub"].startswith(("mailto:", "https:")), claims
    return claims


@dataclass
class PushService:
    port: int
    server_key: str = ""
    """The server's VAPID public key: requests signed by any other are refused (401)."""
    received: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    gone_requests: int = 0
    subscribers: dict[str, Subscriber] = field(default_factory=dict)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def subscribe(self, gone: bool = False) -> Subscriber:
        """A new browser's subscription on this service (``gone``: one the browser dropped)."""
        name = b64url(os.urandom(12))
        subscriber = Subscriber(
            f"{self.origin}/{'gone' if gone else 'push'}/{name}",
            ec.generate_private_key(ec.SECP256R1()),
            os.urandom(16),
        )
        self.subscribers[f"/{'gone' if gone else 'push'}/{name}"] = subscriber
        return subscriber

    def start(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                if self.path.startswith("/gone/"):
                    with service._lock:
                        service.gone_requests += 1
                    self._answer(410)
                    return
                subscriber = service.subscribers.get(self.path)
                try:
                    assert subscriber is not None, f"no subscription {self.path}"
                    assert self.headers["content-encoding"] == "aes128gcm", self.headers["content-encoding"]
                    assert int(self.headers["ttl"]) > 0
                    claims = verify_vapid(self.headers["authorization"], service.server_key, service.origin)
                    message = json.loads(subscriber.decrypt(body))
                except AssertionError as refused:
                    with service._lock:
                        service.refused.append(str(refused))
                    self._answer(401)
                    return
                with service._lock:
                    service.received.append(Received(self.path, dict(self.headers), message, claims))
                self._answer(201)

            def _answer(self, status: int) -> None:
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def messages(self, path: str) -> list[dict[str, Any]]:
        with self._lock:
            return [r.message for r in self.received if r.path == path]
