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


def configure_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("tabletop")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
