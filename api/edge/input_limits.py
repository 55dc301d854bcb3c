"""Edge limits shared by REST and GraphQL: what both databases can store, checked once before any
use case runs, so PostgreSQL and SQLite refuse nothing the API accepted."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator

INT32_MAX = 2**31 - 1
"""Sequence numbers, versions and offsets are 32-bit integer columns."""

MAX_SEED_LENGTH = 128
MAX_JSON_DEPTH = 32
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,128}")
"""Printable ASCII without spaces, at most 128 characters (the key column is 255 wide)."""


def check_text(value: str) -> str:
    """Refuse NUL (PostgreSQL text cannot hold it) and lone surrogates (not encodable as UTF-8)."""
    if "\x00" in value:
        raise ValueError("must not contain the NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode text (no lone surrogates)") from None
    return value


def check_json_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> Any:
    """Refuse JSON nested deeper than ``limit`` levels (no game's choice or option needs more)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                raise ValueError(f"must not be nested deeper than {limit} levels")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return value


def check_idempotency_key(value: str | None) -> str | None:
    if value is not None and not IDEMPOTENCY_KEY.fullmatch(value):
        raise ValueError("an idempotency key is 1 to 128 printable ASCII characters without spaces")
    return value


Text = Annotated[str, AfterValidator(check_text)]
ShallowJson = Annotated[Any, AfterValidator(check_json_depth)]
