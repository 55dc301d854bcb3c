"""Examples of the take-back schemas (``api.openapi.examples`` shows them in the document)."""

from __future__ import annotations

from typing import Any

TAKEBACKS_OFF: dict[str, Any] = {"allowed": False, "can_take_back": False, "request": None}
"""A game's ``takebacks`` where they are off (the examples' game may be rated)."""

TAKEBACK_EXAMPLES: dict[str, Any] = {
    "TakeBackAnswer": {"accept": True},
    "TakeBackRequestPublic": {"seat": 0, "waiting": [1], "accepted": []},
    "TakeBacksPublic": {
        "allowed": True,
        "can_take_back": False,
        "request": {"seat": 0, "waiting": [1], "accepted": []},
    },
}
