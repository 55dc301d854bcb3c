"""Serve the real app in its own process, with the test-only game registered beside the real ones.

Usage: ``python -m tests.support.serve_for_tests PORT [WORKERS]`` (several worker processes as with
``python -m api serve --workers N``). Settings come from TABLETOP_* as in production.
"""

from __future__ import annotations

import argparse
import sys

from fastapi import FastAPI

from api.app import create_app
from api.entrypoints.serve import serve
from api.entrypoints.workers import serve_worker, serve_workers
from api.settings import Settings
from domain.registry import default_registry
from persistence.migrate import migrate
from tests.support.duel_game import DuelEngine


def app() -> FastAPI:
    registry = default_registry()
    registry.register(DuelEngine())
    return create_app(Settings(), registry=registry)


def main() -> None:
    settings = Settings()
    if sys.argv[1] == "serve":  # a worker started by serve_workers, with the arguments it gives
        worker = argparse.ArgumentParser()
        worker.add_argument("--fd", type=int)
        worker.add_argument("--worker-index", type=int)
        worker.add_argument("--workers", type=int)
        worker.add_argument("--owners")
        worker.add_argument("--pin", action="store_true")
        worker.add_argument("--supervisor", type=int)
        args = worker.parse_args(sys.argv[2:])
        served = app()
        serve_worker(
            served, settings, args.fd, args.worker_index, args.pin, args.workers, args.owners, args.supervisor
        )
        return
    port = int(sys.argv[1])
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if workers > 1:
        if settings.auto_migrate:
            migrate(settings.database_url)
        serve_workers(
            "127.0.0.1", port, workers, True, settings.redis_url is not None, "tests.support.serve_for_tests"
        )
        return
    serve(app(), settings, "127.0.0.1", port)


if __name__ == "__main__":
    main()
