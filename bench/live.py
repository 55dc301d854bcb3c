"""Matches followed live, on the production layouts: one command, one table.

``python bench/live.py [--grid 50x100,200x50] [--game carcassonne] [--layouts ...] [--submits rest,socket]
[--json]``

For each layout (default: 1 instance + Redis, 2 instances + Redis, on PostgreSQL; and one worker
per core on SQLite; also ``pg-1`` without Redis and ``sqlite-1``, one process), starts the servers
on loopback, then runs ``bench/matches.py`` for each grid
row (M matches × K moves, two clients per match following the game on the GraphQL subscription),
once with the polling loop (GET choices after events) and once with the push loop (the decision
comes with the event), and per ``--submits`` with moves posted over REST or sent over each seat's
websocket. Prints moves/s, p50/p99 of "submit sent → own event received", GETs per
move, events never delivered, subscriptions never started, stalls and clients that failed (a
refused websocket, a dropped connection), with the load average
before and after each row. Everything is bounded in time and stopped in ``finally``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from api_load import ROOT, Server, database, exit_cleanly_on_sigterm, serve  # noqa: E402

LAYOUTS = {
    "pg-1": "PostgreSQL, 1 instance, no Redis",
    "pg-redis-1": "PostgreSQL + Redis, 1 instance",
    "pg-redis-2": "PostgreSQL + Redis, 2 instances",
    "sqlite-1": "SQLite, one process",
    "sqlite-workers": "SQLite, one worker per core (event hub)",
}
DEFAULT_LAYOUTS = "pg-redis-1,pg-redis-2,sqlite-workers"
UNLIMITED = {"TABLETOP_RATE_LIMIT_PER_SECOND": "1000000", "TABLETOP_RATE_LIMIT_BURST": "1000000"}


@contextlib.contextmanager
def layout(name: str, directory: Path) -> Iterator[list[Server]]:
    postgres = name.startswith("pg")
    with database(postgres, directory) as url:
        env = {**UNLIMITED, "TABLETOP_DATABASE_URL": url, "TABLETOP_AUTO_MIGRATE": "true"}
        serve_command = [sys.executable, "-m", "api", "serve"]
        if name.startswith("pg-redis"):
            env["TABLETOP_REDIS_URL"] = "redis://127.0.0.1:6379/0"
        if name == "sqlite-workers":
            serve_command += ["--workers", "auto"]
        count = 2 if name == "pg-redis-2" else 1
        with contextlib.ExitStack() as stack:
            servers = [
                stack.enter_context(serve(serve_command, env, directory / f"{name}-{i}.log"))
                for i in range(count)
            ]
            yield servers


def load() -> float:
    return round(os.getloadavg()[0], 2)


def run_row(
    servers: list[Server], game: str, matches: int, moves: int, loop: str, submit: str = "rest"
) -> dict[str, Any]:
    before = load()
    completed = subprocess.run(
        [
            sys.executable,
            str(BENCH / "matches.py"),
            "--base",
            ",".join(server.base for server in servers),
            "--game",
            game,
            "--matches",
            str(matches),
            "--moves",
            str(moves),
            "--loop",
            loop,
            "--submit",
            submit,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"matches.py failed: {completed.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    result["load_before"], result["load_after"] = before, load()
    return result


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| layout | grid | loop | submit | moves/s | p50 ms | p99 ms | GETs/move | never delivered | "
        "never started | stalled | client failures | load before→after |"
    )
    lines = [head, "|" + "---|" * 13]
    for r in rows:
        lines.append(
            f"| {LAYOUTS[r['layout']]} | {r['matches']}×{r['moves_per_match']} | {r['loop']} | "
            f"{r['submit']} | "
            f"{r['moves_per_s']} | {r['p50_ms']} | {r['p99_ms']} | {r['gets_per_move']} | "
            f"{r['never_delivered']} | {r['never_started']} | {r['stalled']} | "
            f"{len(r['client_failures'])} | {r['load_before']}→{r['load_after']} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    exit_cleanly_on_sigterm()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--grid", default="50x100,200x50", help="rows as MATCHESxMOVES, comma-separated")
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--layouts", default=DEFAULT_LAYOUTS, help=f"some of {', '.join(LAYOUTS)}")
    parser.add_argument("--loops", default="poll,push")
    parser.add_argument("--submits", default="rest", help="rest, socket or both (comma-separated)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    grid = [tuple(int(n) for n in row.split("x")) for row in args.grid.split(",")]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="tabletop-live-bench-") as scratch:
        for name in args.layouts.split(","):
            with layout(name, Path(scratch)) as servers:
                for matches, moves in grid:
                    for loop in args.loops.split(","):
                        for submit in args.submits.split(","):
                            result = run_row(servers, args.game, matches, moves, loop, submit)
                            result["layout"] = name
                            rows.append(result)
                            print(json.dumps(result), file=sys.stderr)
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    failures = sum(r["never_delivered"] + r["never_started"] + len(r["client_failures"]) for r in rows)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
