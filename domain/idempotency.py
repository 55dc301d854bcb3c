"""Idempotency keys: what makes a retry "the same request", and tokens a retry can answer again.

A key is remembered with a fingerprint of the request body; a retry with the same key and body
gets the first answer, the same key with another body is refused (``IdempotencyKeyReused``), as
the IETF Idempotency-Key draft asks. A retried create or join must answer with the same token,
yet tokens are never stored: they are ``HMAC(key, nonce)``, recomputed from the client's key and a
stored random nonce. So create and join keys must be secret-strength (16 to 128 characters).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass

from domain.engine import JSON
from domain.errors import InvalidIdempotencyKey

MIN_TOKEN_KEY_LENGTH = 16
MAX_KEY_LENGTH = 128


@dataclass(frozen=True, slots=True)
class Remembered:
    """The first answer to a key, and the fingerprint of the request that got it (None for rows
    stored before fingerprints existed: those match any body)."""

    response: dict[str, JSON]
    fingerprint: str | None


def fingerprint(body: JSON) -> str:
    """The same for equal JSON bodies, whatever their key order."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def check_token_key(key: str) -> str:
    """A key whose retry answers with a token: long enough that nobody else can guess it."""
    if not MIN_TOKEN_KEY_LENGTH <= len(key) <= MAX_KEY_LENGTH:
        raise InvalidIdempotencyKey(
            f"an Idempotency-Key for creating a game or taking a seat has {MIN_TOKEN_KEY_LENGTH} to "
            f"{MAX_KEY_LENGTH} characters (use a random UUID): its retry answers with a token"
        )
    return key


def new_nonce() -> str:
    return secrets.token_hex(16)


def token_for_key(key: str, nonce: str, purpose: str) -> str:
    """A bearer token only the holder of ``key`` can recompute (``purpose`` keeps tokens apart)."""
    digest = hmac.new(key.encode("utf-8"), f"{purpose}:{nonce}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
