"""Reading what the domain hands out (typed ``domain.engine.JSON``) in a test that asserts on a
path through it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine import JSON


def untyped(value: JSON | Mapping[str, object]) -> Any:
    """``value`` as a test reads it: any path, each one asserted by value (a wrong path fails the
    test at run time instead of at type-checking time)."""
    return value
