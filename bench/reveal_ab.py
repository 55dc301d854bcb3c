"""Reveal latency and fan-out CPU of two servers, in one run (issue 23 item 2).

``.venv/bin/python bench/reveal_ab.py --a-root DIR [--system ours-sqlite|ours-pg]
[--subscribers 100,1000] [--pairs 2] [--rounds 5]``

Starts two servers as ``bench-peers`` does (each on its own fresh store; with ``--pin`` on CPU 0
and the load generator on CPU 1): A and B differ by their checkout (``--a-root`` / ``--b-root``,
e.g. a ``git worktree`` with a patch of ``bench/patches/`` applied) or their settings (``--a`` /
``--b``). For each subscriber count, ``--pairs`` alternations (A B, B A, …) of
``bench/loadgen.py reveal`` (Im Schutze der Burg, spectators on ``gameEvents``, ``--rounds``
reveals each): reveal p50/p99 from the sealing submit to each subscriber, and the server's CPU per
delivered event (µs per subscriber per event, measured over the rounds, subscribing excluded).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import peers  # noqa: E402  (bench/peers.py)
from ab import settings  # noqa: E402  (bench/ab.py)
from api_load import ROOT, exit_cleanly_on_sigterm  # noqa: E402
from peers import DEFAULT_SCRATCH, load1, progress, run_json, system_server  # noqa: E402

KEYS = ("p50_ms", "p99_ms", "server_cpu_us_per_delivery")


def reveal(base: str, pid: int, subscribers: int, rounds: int) -> dict[str, Any]:
    before = load1()
    command = [
        sys.executable, str(BENCH / "loadgen.py"), "reveal", "--base", base,
        "--game", "im-schutze-der-burg", "--subscribers", str(subscribers),
        "--rounds", str(rounds), "--time-limit", "300", "--server-pid", str(pid),
    ]  # fmt: skip
    result = run_json(command, ROOT)
    result.update(load_before=before, load_after=load1())
    return result


def run(args: argparse.Namespace) -> dict[str, Any]:
    sides = {"A": settings(args.a), "B": settings(args.b)}
    roots = {"A": args.a_root or ROOT, "B": args.b_root or ROOT}
    counts = [int(n) for n in args.subscribers.split(",")]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        servers = {
            side: stack.enter_context(
                system_server(
                    args.system,
                    DEFAULT_SCRATCH,
                    Path(tmp) / side,
                    pin=args.pin,
                    extra_env=env,
                    root=roots[side],
                )
            )[0]
            for side, env in sides.items()
        }
        for server in servers.values():  # warm-up, unreported
            reveal(server.bases[0], server.pids[0], 10, 2)
        for count in counts:
            for number in range(args.pairs):
                for side in ("A", "B") if number % 2 == 0 else ("B", "A"):
                    progress(f"{count} subscribers, pair {number + 1}: {side}")
                    server = servers[side]
                    try:
                        row = reveal(server.bases[0], server.pids[0], count, args.rounds)
                    except RuntimeError as failed:  # reported as failed; the other rows still run
                        progress(f"failed: {str(failed)[-300:]}")
                        row = {
                            "failed": True,
                            "samples": 0,
                            "timeouts": 0,
                            "load_before": 0.0,
                            "load_after": 0.0,
                        }
                        row |= dict.fromkeys(("p50_ms", "p99_ms", "max_ms", "server_cpu_us_per_delivery"))
                    rows.append({"subscribers": count, "pair": number + 1, "side": side, **row})
                    if args.json_lines:
                        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return {
        "system": args.system,
        "settings": sides,
        "roots": {side: str(root) for side, root in roots.items()},
        "rows": rows,
        "cpus": os.cpu_count(),
    }


def _f(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def report(result: dict[str, Any]) -> str:
    roots = result.get("roots", {})
    sides = ", ".join(
        f"{side}: {env}" + (f" from {roots[side]}" if roots.get(side, str(ROOT)) != str(ROOT) else "")
        for side, env in result["settings"].items()
    )
    lines = [
        f"{result['system']} ({sides})",
        "",
        "| subscribers | pair | side | samples | timeouts | p50 ms | p99 ms | max ms "
        "| server CPU µs per subscriber per event | load before→after |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        lines.append(
            f"| {r['subscribers']} | {r['pair']} | {r['side']} | {r['samples']} | {r['timeouts']} "
            f"| {_f(r['p50_ms'])} | {_f(r['p99_ms'])} | {_f(r['max_ms'])} "
            f"| {_f(r['server_cpu_us_per_delivery'])} | {r['load_before']:.1f}→{r['load_after']:.1f} |"
        )
    lines += ["", "| subscribers | side | " + " | ".join(KEYS) + " |", "|---|---|" + "---|" * len(KEYS)]
    for count in sorted({r["subscribers"] for r in result["rows"]}):
        means = {}
        for side in ("A", "B"):
            rows = [r for r in result["rows"] if r["subscribers"] == count and r["side"] == side]
            means[side] = [
                statistics.fmean(v) if (v := [r[k] for r in rows if r.get(k) is not None]) else None
                for k in KEYS
            ]
            lines.append(f"| {count} | {side} | " + " | ".join(_f(v, 2) for v in means[side]) + " |")
        ratios = [b / a if a and b is not None else None for a, b in zip(means["A"], means["B"], strict=True)]
        lines.append(f"| {count} | B ÷ A | " + " | ".join(_f(v, 2) for v in ratios) + " |")
    return "\n".join(lines)


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
    parser.add_argument("--subscribers", default="100,1000")
    parser.add_argument("--pairs", type=int, default=2, help="alternations A B / B A per subscriber count")
    parser.add_argument("--rounds", type=int, default=5, help="reveals per run")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--pin", action="store_true", help="servers on CPU 0, load generators on CPU 1")
    parser.add_argument(
        "--start-timeout", type=float, default=300.0, help="seconds a server may take to start"
    )
    parser.add_argument("--json-lines", action="store_true", help="also each row to stderr as it ends")
    args = parser.parse_args(argv)
    if args.pin and (os.cpu_count() or 1) >= 2:
        os.sched_setaffinity(0, {1})  # the load generators off the servers' CPU 0
    # A server pinned to one core of a loaded machine can take minutes to start.
    peers.wait_healthz = partial(peers.wait_healthz, timeout=args.start_timeout)
    result = run(args)
    print(json.dumps(result) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
