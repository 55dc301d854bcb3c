"""Command line: serve (default), migrate, export-schemas, simulate."""

from api.cli import main

raise SystemExit(main())
