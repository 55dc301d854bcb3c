"""Bearer tokens: random, shown once, stored only as a hash and compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, token_hash: str | None) -> bool:
    """Whether a token given (an invite code, a host token) is the one stored as ``token_hash``,
    compared in constant time; no token, or nothing stored, never matches."""
    if token is None or token_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)
