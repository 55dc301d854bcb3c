"""Structured logs: every line on stderr is one JSON object, whoever logs it (our code, uvicorn,
libraries). Only whitelisted fields are written, so tokens and bodies never reach a log, and every
value goes through a JSON encoder (orjson: a request's line costs a fraction of ``json``'s), so a
newline in client input cannot start a forged line."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime

import orjson

FIELDS = (
    "request_id",
    "method",
    "route",
    "status",
    "duration_ms",
    "client",
    "game_id",
    "code",
    "operation",
    "path",
    "error",
)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            if hasattr(record, name):
                entry[name] = getattr(record, name)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(entry, default=str).decode()


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at the time (so redirection and capture work)."""

    @property
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, _: object) -> None:
        pass


def configure_logging(level: str) -> None:
    """One JSON handler on the root logger; ours log at ``level``, the others (uvicorn, asyncio,
    libraries) propagate to it at WARNING and above. Idempotent."""
    handler = StderrHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [h for h in root.handlers if not isinstance(h, StderrHandler)] + [handler]
    root.setLevel(logging.WARNING)
    ours = logging.getLogger("tabletop")
    ours.handlers[:] = []
    ours.setLevel(level.upper())
    ours.propagate = True
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "strawberry", "strawberry.execution"):
        library = logging.getLogger(name)
        library.handlers[:] = []
        library.propagate = True
