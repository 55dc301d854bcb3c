"""Command line: serve (default), migrate, export-schemas, simulate."""

from api.entrypoints.cli import main

raise SystemExit(main())
