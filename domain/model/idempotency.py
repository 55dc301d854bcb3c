"""Idempotency keys: what makes a retry "the same request", and tokens a retry can answer again.

A key is remembered with a fingerprint of the request body; a retry with the same key and body
gets the first answer, the same key with another body is refused (``IdempotencyKeyReused``), as
the IETF Idempotency-Key draft asks. A retried create or join must answer with the same token,
yet tokens are never stored: they are ``HMAC(key, nonce)``, recomputed from the client's key and a
stored random nonce. So create and join keys must be secret-strength: 16 to 128 characters that
look random (``check_token_key``), and they are scoped to the caller (``scoped_key_hash``), so that
someone who learns a key cannot replay it to get the token it was answered with.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json
import math
import re
import secrets
from collections import Counter
from dataclasses import dataclass

from domain.engine import JSON, Stored
from domain.errors import Detail, IdempotencyKeyReused, InvalidIdempotencyKey, Range
from domain.model.tokens import new_token

MIN_TOKEN_KEY_LENGTH = 16
MAX_KEY_LENGTH = 128
TOKEN_KEY_PATTERN = f"^[\\x21-\\x7e]{{{MIN_TOKEN_KEY_LENGTH},{MAX_KEY_LENGTH}}}$"
"""Printable ASCII without spaces (the create and join key's shape, for the schemas)."""
MIN_KEY_BITS = 32
"""A create or join key's characters, counted as a sample, must carry at least this many bits."""
MIN_DISTINCT_CHARACTERS = 5
TOKEN_KEY_RULE_DETAIL = Detail(
    "{lengths:to} printable ASCII characters that look random: at least {min_distinct} different "
    "characters, at least {min_bits} bits by their frequencies (length × Shannon entropy, of one "
    "period for a key that repeats itself, as passwordpassword does), at most "
    "three quarters of neighbours consecutive (as in {letters!q} or {digits!q}). A random UUID fits. "
    "The key is scoped to the caller (its bearer token, else its client address): another caller's "
    "retry with the same key is a new request.",
    {
        "lengths": Range(MIN_TOKEN_KEY_LENGTH, MAX_KEY_LENGTH),
        "min_distinct": MIN_DISTINCT_CHARACTERS,
        "min_bits": MIN_KEY_BITS,
        "letters": "abcd",
        "digits": "1234",
    },
)
TOKEN_KEY_RULE = TOKEN_KEY_RULE_DETAIL.english


@dataclass(frozen=True, slots=True)
class Remembered:
    """The first answer to a key, and the fingerprint of the request that got it (None for rows
    stored before fingerprints existed: those match any body)."""

    response: Stored
    fingerprint: str | None


def fingerprint(body: JSON) -> str:
    """The same for equal JSON bodies, whatever their key order."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def same_request(earlier: Remembered, request: str) -> None:
    """Refuses a key reused for another request (``request`` is the new one's fingerprint)."""
    if earlier.fingerprint is not None and earlier.fingerprint != request:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was used for a different request; use a new key per request"
        )


def key_hash(key: str, caller: str = "") -> str:
    """Where a key is remembered. With ``caller`` (a create or join key), the same key sent by
    another caller is another key: a key is never a credential that answers with a token."""
    scoped = f"{caller}\x00{key}" if caller else key
    return hashlib.sha256(scoped.encode("utf-8")).hexdigest()


def caller_of(token_hash: str | None, address: str) -> str:
    """Who sends a create or join: its bearer token when it has one, else its client address."""
    return f"token:{token_hash}" if token_hash is not None else f"address:{address}"


def check_token_key(key: str) -> str:
    """A key whose retry answers with a token: long and random enough that nobody guesses it."""
    if not (re.fullmatch(TOKEN_KEY_PATTERN, key) and _looks_random(key)):
        raise InvalidIdempotencyKey(
            "an Idempotency-Key for creating a game or taking a seat is " + TOKEN_KEY_RULE_DETAIL.template,
            **TOKEN_KEY_RULE_DETAIL.values,
        )
    return key


def _period(key: str) -> int:
    """The length of the shortest unit the key repeats (``passwordpass``: 8); the key's length
    when it repeats nothing."""
    return next(
        (p for p in range(1, len(key)) if all(key[i] == key[i + p] for i in range(len(key) - p))),
        len(key),
    )


def _looks_random(key: str) -> bool:
    """A word said twice carries the bits of the word once: the measure is of one period."""
    key = key[: _period(key)]
    counts = Counter(key)
    if len(counts) < MIN_DISTINCT_CHARACTERS:
        return False
    bits = -sum(n * math.log2(n / len(key)) for n in counts.values())
    runs = sum(abs(ord(b) - ord(a)) <= 1 for a, b in itertools.pairwise(key))
    return bits >= MIN_KEY_BITS and runs * 4 <= (len(key) - 1) * 3


def new_nonce() -> str:
    return secrets.token_hex(16)


def token_for_key(key: str, nonce: str, purpose: str) -> str:
    """A bearer token only the holder of ``key`` can recompute (``purpose`` keeps tokens apart)."""
    digest = hmac.new(key.encode("utf-8"), f"{purpose}:{nonce}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


@dataclass(frozen=True, slots=True)
class HostTokens:
    """What a create (a game's, a tournament's) answers with once: the host's token and, for a
    private one, its invite code. With an idempotency key both are ``token_for_key`` of the key and
    a stored ``nonce``, so a retry with the key answers them again; without one they are random."""

    nonce: str
    host_token: str
    invite_code: str | None

    @classmethod
    def new(cls, key: str | None, private: bool) -> HostTokens:
        nonce = new_nonce()
        host_token = token_for_key(key, nonce, "host") if key else new_token()
        invite_code = None
        if private:
            invite_code = token_for_key(key, nonce, "invite") if key else new_token()
        return cls(nonce, host_token, invite_code)

    @classmethod
    def again(cls, key: str, nonce: str, private: bool) -> HostTokens:
        """The tokens the first create with ``key`` (which stored ``nonce``) answered with."""
        invite_code = token_for_key(key, nonce, "invite") if private else None
        return cls(nonce, token_for_key(key, nonce, "host"), invite_code)
