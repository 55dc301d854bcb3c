"""``python -m api [--host H] [--port P]`` serves; sub-commands migrate, export-schemas, simulate,
vapid-keys (a key pair for Web Push notices)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

COMMANDS = ("serve", "migrate", "export-schemas", "simulate", "vapid-keys")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args and args[0] in COMMANDS else "serve"
    if command == "migrate":
        return _migrate(args)
    if command == "export-schemas":
        from api.entrypoints.export import export

        for path in export():
            print(f"wrote {path}")
        return 0
    if command == "vapid-keys":
        from persistence.outbound.notice_sender import new_vapid_keys

        private, public = new_vapid_keys()
        print(f"TABLETOP_VAPID_PRIVATE_KEY={private}")
        print(f"# public key (GET /v1/notices serves it to browsers): {public}")
        return 0
    if command == "simulate":
        from api.entrypoints.simulate import main as simulate

        return simulate(args)
    return _serve(args)


def _serve(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m api", description="Serve the Tabletop API.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--workers",
        default="1",
        help="worker processes: a number, or auto for one per core (default 1)",
    )
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="pin each worker process to its own core (default: on with several workers)",
    )
    parser.add_argument(
        "--migrate",
        action="store_true",
        help="migrate the database to the latest schema first (./run serve does)",
    )
    parser.add_argument("--fd", type=int, help=argparse.SUPPRESS)  # a worker: accept on this socket
    parser.add_argument("--worker-index", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--owners", help=argparse.SUPPRESS)  # a worker: the hand-off sockets' directory
    parser.add_argument("--supervisor", type=int, help=argparse.SUPPRESS)  # a worker: its supervisor's pid
    options = parser.parse_args(args)

    from api.app import create_app
    from api.entrypoints.serve import serve
    from api.entrypoints.workers import (
        describe,
        pin_to_cpu,
        serve_worker,
        serve_workers,
        usable_cpus,
        worker_count,
    )
    from api.settings import Settings
    from persistence.errors import DatabaseNotMigrated

    settings = Settings()
    try:
        workers = worker_count(options.workers)
    except ValueError as exc:
        parser.error(str(exc))
    # A worker is pinned only when its supervisor says so (--pin).
    pin = options.pin if options.pin is not None else workers > 1 and options.fd is None
    try:
        if options.fd is None:
            _wait_for_database(settings.database_url, settings.db_startup_wait_seconds)
        if options.migrate and options.fd is None:
            from persistence.migrate import migrate

            migrate(settings.database_url)
        if options.fd is None and not settings.auto_migrate:
            _ensure_migrated(settings.database_url)
        if options.fd is None and workers > 1:
            if settings.auto_migrate:  # once, here, rather than racing in every worker
                from persistence.migrate import migrate

                migrate(settings.database_url)
            redis = settings.redis_url is not None
            print(banner(options.host, options.port), file=sys.stderr)
            print(f"  with {describe(workers, usable_cpus()[:workers], pin, redis)}", file=sys.stderr)
            return serve_workers(options.host, options.port, workers, pin, redis)
        if options.fd is not None:
            index = options.worker_index or 0
            app = create_app(settings)
            serve_worker(app, settings, options.fd, index, pin, workers, options.owners, options.supervisor)
            return 0
        if pin:
            pin_to_cpu(0)

        def announce() -> None:
            print(banner(options.host, options.port), file=sys.stderr, flush=True)

        serve(create_app(settings), settings, options.host, options.port, on_ready=announce)
    except DatabaseNotMigrated as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def banner(host: str, port: int) -> str:
    """Where the service listens and where its pages are (a wildcard address is browsed locally)."""
    from api.app import package_version

    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}.get(host, host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    base = f"http://{shown}:{port}"
    bound = f"[{host}]" if ":" in host else host
    listening = f"http://{bound}:{port} (every interface)" if shown.strip("[]") != host else base
    return "\n".join(
        (
            f"Tabletop {package_version()} listening on {listening}",
            f"  API docs   {base}/docs  (also /redoc and /openapi.json)",
            f"  GraphQL    {base}/graphql  (GraphiQL in a browser, subscriptions over websocket)",
            f"  Play       {base}/play",
        )
    )


def _wait_for_database(database_url: str, seconds: float) -> None:
    """A database that refuses connections at start-up (not yet up, too many clients) is waited
    for, retrying, up to ``TABLETOP_DB_STARTUP_WAIT_SECONDS``, instead of exiting at once."""
    from persistence.database import create_db_engine, wait_until_reachable

    db_engine = create_db_engine(database_url)
    try:
        wait_until_reachable(db_engine, seconds)
    finally:
        db_engine.dispose()


def _ensure_migrated(database_url: str) -> None:
    """Check before uvicorn starts: a failing lifespan only shows up as a traceback in its log."""
    from persistence.database import create_db_engine
    from persistence.migrate import ensure_migrated

    db_engine = create_db_engine(database_url)
    try:
        ensure_migrated(db_engine)
    finally:
        db_engine.dispose()


def _migrate(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m api migrate", description="Migrate the database.")
    parser.parse_args(args)
    from api.settings import Settings
    from persistence.migrate import migrate

    settings = Settings()
    migrate(settings.database_url)
    print("database migrated to the latest schema")
    return 0
