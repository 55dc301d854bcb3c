"""Structured JSON logs. Only whitelisted fields are written, so tokens and bodies never reach a log."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

FIELDS = ("request_id", "method", "route", "status", "duration_ms", "game_id", "error")


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
        return json.dumps(entry)


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at the time (so redirection and capture work)."""

    @property
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, _: object) -> None:
        pass


def configure_logging(level: str) -> None:
    handler = StderrHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("tabletop")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
