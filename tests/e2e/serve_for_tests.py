"""Serve the real app in its own process, with the test-only game registered beside the real ones.

Usage: python -m tests.e2e.serve_for_tests PORT. Settings come from TABLETOP_* as in production.
"""

from __future__ import annotations

import sys

import uvicorn

from api.app import create_app
from api.settings import Settings
from domain.registry import default_registry
from tests.duel_game import DuelEngine


def main() -> None:
    registry = default_registry()
    registry.register(DuelEngine())
    app = create_app(Settings(), registry=registry)
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
