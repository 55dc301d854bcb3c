"""``python -m api [--host H] [--port P]`` serves; sub-commands migrate, export-schemas, simulate."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

COMMANDS = ("serve", "migrate", "export-schemas", "simulate")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args and args[0] in COMMANDS else "serve"
    if command == "migrate":
        return _migrate(args)
    if command == "export-schemas":
        from api.export import export

        for path in export():
            print(f"wrote {path}")
        return 0
    if command == "simulate":
        from api.simulate import main as simulate

        return simulate(args)
    return _serve(args)


def _serve(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m api", description="Serve the Tabletop API.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    options = parser.parse_args(args)

    import uvicorn

    from api.app import create_app
    from api.settings import Settings
    from persistence.errors import DatabaseNotMigrated

    settings = Settings()
    try:
        if not settings.auto_migrate:
            _ensure_migrated(settings.database_url)
        uvicorn.run(
            create_app(settings),
            host=options.host,
            port=options.port,
            log_level="warning",
            access_log=False,
        )
    except DatabaseNotMigrated as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _ensure_migrated(database_url: str) -> None:
    """Check before uvicorn starts: a failing lifespan only shows up as a traceback in its log."""
    from persistence.database import create_db_engine
    from persistence.schema import ensure_migrated

    db_engine = create_db_engine(database_url)
    try:
        ensure_migrated(db_engine)
    finally:
        db_engine.dispose()


def _migrate(args: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m api migrate", description="Migrate the database.")
    parser.parse_args(args)
    from api.settings import Settings
    from persistence.schema import migrate

    settings = Settings()
    migrate(settings.database_url)
    print("database migrated to the latest schema")
    return 0
