"""Two settings of our server compared in one run: ``./run bench-ab``.

``./run bench-ab --system ours-sqlite --a TABLETOP_HOT_STATES=0 --b TABLETOP_HOT_STATES=500
--row 20x100 --rounds 3``

Starts two servers of the same kind (``ours-sqlite`` or ``ours-pg``, as ``bench-peers`` does:
pinned to CPU 0, each on its own fresh store, default settings plus ``--a`` / ``--b``) and drives
them in alternating rounds (A B B A A B …) with the same ``bench/matches.py --loop push`` load, so
that the machine's noise falls on both. Per round: moves/s, p50/p99, server CPU per move, the
median latency of early moves (move 1–20 of a game) and late ones (move 80+), load before→after;
then the mean of each side and the ratio B ÷ A.

``--a-submit`` / ``--b-submit`` (``rest`` or ``socket``): how that side's clients send their moves
(``bench/matches.py --submit``), e.g. the same server driven over REST and over the socket.

``--a-root DIR`` / ``--b-root DIR`` run that side's server from another checkout (e.g. ``git worktree
add /tmp/before HEAD~1``): a before/after of a change that no setting switches.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from api_load import ROOT, exit_cleanly_on_sigterm  # noqa: E402
from peers import (  # noqa: E402  (bench/peers.py)
    DEFAULT_SCRATCH,
    Placement,
    measured_row,
    ours_matches,
    progress,
    system_server,
)
from peers_report import PortPool, parse_grid, parse_port_range  # noqa: E402

EARLY, LATE = 20, 80


def settings(pairs: Sequence[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        out[name] = value
    return out


def early_late_ms(trace: Sequence[Sequence[float]]) -> tuple[float | None, float | None]:
    early = [ms for number, ms in trace if number <= EARLY]
    late = [ms for number, ms in trace if number >= LATE]
    return (
        statistics.median(early) if early else None,
        statistics.median(late) if late else None,
    )


def run_rounds(args: argparse.Namespace) -> dict[str, Any]:
    ((matches, moves),) = parse_grid(args.row)
    sides = {"A": settings(args.a), "B": settings(args.b)}
    roots = {"A": args.a_root or ROOT, "B": args.b_root or ROOT}
    order = [("A", "B") if r % 2 == 0 else ("B", "A") for r in range(args.rounds)]
    ports = PortPool(parse_port_range(args.ports)) if args.ports else None
    # Each side its own PostgreSQL database and Redis key prefix (rate limits, channels).
    places = {side: Placement(ports, f"{args.db_prefix}{side.lower()}_", args.redis_db) for side in sides}
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        servers = {
            side: stack.enter_context(
                system_server(
                    args.system,
                    DEFAULT_SCRATCH,
                    Path(tmp) / side,
                    extra_env=env,
                    root=roots[side],
                    place=places[side],
                )
            )[0]
            for side, env in sides.items()
        }
        for warm in servers.values():  # warm-up, unreported
            ours_matches(warm.bases, args.game, 2, 20)
        for number, pair in enumerate(order, 1):
            for side in pair:
                server = servers[side]
                progress(f"round {number}: {side}")
                submit = args.a_submit if side == "A" else args.b_submit
                row = measured_row(
                    server, partial(ours_matches, server.bases, args.game, matches, moves, True, submit)
                )
                early, late = early_late_ms(row.pop("trace", []))
                rows.append({"round": number, "side": side, "early_ms": early, "late_ms": late, **row})
    return {
        "system": args.system,
        "row": args.row,
        "settings": sides,
        "submits": {"A": args.a_submit, "B": args.b_submit},
        "roots": {side: str(root) for side, root in roots.items()},
        "rounds": rows,
    }


def _mean(rows: Sequence[dict[str, Any]], key: str) -> float | None:
    values = [row[key] for row in rows if row.get(key) is not None]
    return statistics.fmean(values) if values else None


def report(result: dict[str, Any]) -> str:
    roots = result.get("roots", {})
    submits = result.get("submits", {})
    sides = ", ".join(
        f"{side}: {env}"
        + (f" from {roots[side]}" if roots.get(side) != str(ROOT) else "")
        + (f", moves over {submits[side]}" if submits.get(side, "rest") != "rest" else "")
        for side, env in result["settings"].items()
    )
    lines = [
        f"{result['system']}, {result['row']} ({sides})",
        "",
        "| round | side | moves/s | p50 ms | p99 ms | server CPU ms/move | early ms | late ms "
        "| load before→after |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in result["rounds"]:
        lines.append(
            f"| {row['round']} | {row['side']} | {_f(row.get('moves_per_s'))} | {_f(row.get('p50_ms'))} "
            f"| {_f(row.get('p99_ms'))} | {_f(row.get('cpu_ms_per_move'), 2)} | {_f(row.get('early_ms'))} "
            f"| {_f(row.get('late_ms'))} | {row['load_before']:.1f}→{row['load_after']:.1f} |"
        )
    lines.append("")
    keys = ("moves_per_s", "p50_ms", "p99_ms", "cpu_ms_per_move", "early_ms", "late_ms")
    by_side = {side: [r for r in result["rounds"] if r["side"] == side] for side in ("A", "B")}
    lines.append("| mean | " + " | ".join(keys) + " |")
    lines.append("|---|" + "---|" * len(keys))
    means = {side: [_mean(rows, key) for key in keys] for side, rows in by_side.items()}
    for side, values in means.items():
        lines.append(f"| {side} | " + " | ".join(_f(v, 2) for v in values) + " |")
    ratios = [b / a if a and b is not None else None for a, b in zip(means["A"], means["B"], strict=True)]
    lines.append("| B ÷ A | " + " | ".join(_f(v, 2) for v in ratios) + " |")
    return "\n".join(lines)


def _f(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def main(argv: Sequence[str] | None = None) -> int:
    exit_cleanly_on_sigterm()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--system", choices=("ours-sqlite", "ours-pg"), default="ours-sqlite")
    parser.add_argument("--a", action="append", default=[], help="NAME=VALUE for server A (repeatable)")
    parser.add_argument("--b", action="append", default=[], help="NAME=VALUE for server B (repeatable)")
    parser.add_argument(
        "--a-root", type=Path, help="run server A from this checkout (a `git worktree` of another commit)"
    )
    parser.add_argument("--b-root", type=Path, help="run server B from this checkout")
    parser.add_argument("--a-submit", choices=("rest", "socket"), default="rest", help="side A's moves over")
    parser.add_argument("--b-submit", choices=("rest", "socket"), default="rest", help="side B's moves over")
    parser.add_argument("--row", default="20x100", help="MATCHESxMOVES per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; each runs A and B once")
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ports", help="port range for the two servers, LOW-HIGH (default: any free port)")
    parser.add_argument("--db-prefix", default="tabletop_ab_", help="PostgreSQL database name prefix")
    parser.add_argument("--redis-db", type=int, default=0, help="Redis database number (ours-pg)")
    args = parser.parse_args(argv)
    result = run_rounds(args)
    print(json.dumps(result) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
