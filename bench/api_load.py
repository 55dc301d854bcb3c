"""The API against a bare FastAPI endpoint, in one run, plus the reveal latency of subscriptions.

``python bench/api_load.py [--postgres] [--clients 32] [--duration 10] [--warmup 2] [--subscribers 100]
[--rounds 10] [--game SLUG] [--json]``

1. Starts the real server (``python -m api serve``; SQLite in WAL mode in a temporary directory,
   or with ``--postgres`` a fresh database on postgresql://postgres@127.0.0.1:5432 created from
   and dropped via ``test``) and the bare app (``bench/bare_app.py``), each one uvicorn process
   on loopback, served the same way.
2. Runs ``bench/loadgen.py`` as a separate process against each in turn, with the same number of
   concurrent clients: GET choices → POST one choice, counting only the POSTs in the measured
   window (after the warm-up). Prints submits/s, p50/p99 of the POST, and the ratio ours/bare.
3. Runs ``bench/loadgen.py reveal``: N websocket subscribers on one game; once every subscriber
   has received all earlier events, time from sending the last sealing submit of a simultaneous
   decision to the receipt of the reveal by each subscriber.

Everything is bounded in time; both servers are stopped (killed if need be) in ``finally``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PREFERRED_GAME = "im-schutze-der-burg"
POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"
TARGET_RATIO, TARGET_P99_MS, TARGET_REVEAL_P99_MS = 0.5, 50.0, 20.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_healthy(base: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{base} exited with {process.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{base} did not become healthy in {timeout} s: {log.read_text()[-2000:]}")


@dataclass(frozen=True, slots=True)
class Server:
    base: str
    process: subprocess.Popen[bytes]
    log: Path

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the server process so far (Linux ``/proc``; else None)."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def exit_cleanly_on_sigterm() -> None:
    """A bench stopped with SIGTERM (``timeout``, ``kill``) unwinds like Ctrl-C: its ``finally``
    blocks stop the servers and drop the scratch databases it started."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


# Every load client connects from 127.0.0.1: one address must be allowed as many websockets as the
# bench opens (the per-address cap of the fair-play settings is meant for real clients).
LOOPBACK_LOAD = {"TABLETOP_MAX_WEBSOCKETS_PER_CLIENT": "100000", "TABLETOP_MAX_WEBSOCKETS": "100000"}


@contextlib.contextmanager
def serve(command: Sequence[str], env: Mapping[str, str], log: Path) -> Iterator[Server]:
    """Start a server process on a free loopback port; yield it; stop it (kill if need be) after."""
    port = free_port()
    handle: IO[bytes] = log.open("wb")
    process = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, **LOOPBACK_LOAD, **env},
        stdout=handle,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, process, log)
        yield Server(base, process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        handle.close()


@contextlib.contextmanager
def database(postgres: bool, directory: Path, prefix: str = "tabletop_bench_") -> Iterator[str]:
    """The database URL for the server: a SQLite file, or a fresh PostgreSQL database (named
    ``prefix`` + random, so runs sharing one PostgreSQL tell theirs apart) dropped after."""
    if not postgres:
        yield f"sqlite:///{directory / 'bench.db'}"
        return
    import psycopg

    name = f"{prefix}{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def choose_game(requested: str | None) -> tuple[str, list[str]]:
    """The game to play and how to start the real server so that it hosts it."""
    from domain.registry import default_registry

    registered = sorted(engine.meta.slug for engine in default_registry())
    serve_command = [sys.executable, "-m", "api", "serve"]
    wanted = requested or PREFERRED_GAME
    if wanted in registered:
        return wanted, serve_command
    if requested is None and registered:
        return registered[0], serve_command
    raise SystemExit(
        f"error: game '{wanted}' is not registered (registered: {', '.join(registered) or 'none'})"
    )


def loadgen(arguments: Sequence[str], timeout: float, server: Server) -> dict[str, Any]:
    """Run the load generator; its JSON result plus the server's CPU use while it ran."""
    cpu_before, started = server.cpu_seconds(), time.perf_counter()
    completed = subprocess.run(
        [sys.executable, str(BENCH / "loadgen.py"), *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if completed.returncode != 0:
        log = server.log.read_text(errors="replace").splitlines() if server.log.exists() else []
        errors = "\n".join(line for line in log if '"request"' not in line)[-3000:]
        raise RuntimeError(
            f"load generator failed ({completed.returncode}): {completed.stderr[-3000:]}\n"
            f"server log (requests left out):\n{errors}"
        )
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    cpu_after, elapsed = server.cpu_seconds(), time.perf_counter() - started
    if cpu_before is not None and cpu_after is not None:
        result["server_cpu_share"] = round((cpu_after - cpu_before) / elapsed, 3)
    return result


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def report(results: dict[str, Any]) -> str:
    ours, bare, reveal = results["ours"], results["bare"], results["reveal"]
    ratio = results["ratio"]
    lines = [
        f"database {results['database']}"
        + "".join(f", {name}={value}" for name, value in results["server_env"].items())
        + f", game {results['game']}, {ours['clients']} clients, "
        f"{ours['duration_s']:.0f} s measured after {results['warmup_s']:.0f} s warm-up",
        f"{'':<8}{'submits/s':>11}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'server CPU':>12}"
        f"{'loadgen CPU':>13}  errors",
    ]
    for name, row in (("ours", ours), ("bare", bare)):
        lines.append(
            f"{name:<8}{row['submits_per_s']:>11,.1f}{_f(row['p50_ms']):>9}{_f(row['p99_ms']):>9}"
            f"{_f(row['max_ms']):>9}{_pct(row.get('server_cpu_share')):>12}"
            f"{_pct(row.get('loadgen_cpu_share')):>13}  "
            f"{json.dumps(row['errors']) if row['errors'] else 'none'}"
        )
    lines.append(
        f"ratio ours/bare {ratio:.3f}   {verdict(ratio >= TARGET_RATIO)} (target >= {TARGET_RATIO} "
        f"at 32 clients)"
    )
    p99 = ours["p99_ms"]
    lines.append(
        f"ours p99 {_f(p99)} ms   {verdict(p99 is not None and p99 <= TARGET_P99_MS)} "
        f"(target <= {TARGET_P99_MS:.0f} ms)"
    )
    lines.append(
        f"games created {ours['games_created']}, finished {ours['games_finished']}; GETs ours "
        f"{ours['gets']}, bare {bare['gets']}"
    )
    lines.append(
        f"machine load average (1/5/15 min) before {results['load_average_before']}, "
        f"after {results['load_average_after']}; {results['cpus']} CPUs"
    )
    if reveal is None:
        lines.append("reveal: skipped")
    else:
        rp99 = reveal["p99_ms"]
        lines.append(
            f"reveal: {reveal['subscribers']} subscribers x {reveal['rounds']} rounds = "
            f"{reveal['samples']} samples (timeouts {reveal['timeouts']}, "
            f"handshake retries {reveal.get('open_retries', 0)}): p50 {_f(reveal['p50_ms'])} ms, "
            f"p99 {_f(rp99)} ms, max {_f(reveal['max_ms'])} ms   "
            f"{verdict(rp99 is not None and rp99 <= TARGET_REVEAL_P99_MS)} "
            f"(target p99 <= {TARGET_REVEAL_P99_MS:.0f} ms)"
        )
    return "\n".join(lines)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%} core"


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def limits_cost(
    args: argparse.Namespace, game: str, serve_command: list[str], rounds: int, server_env: dict[str, str]
) -> dict[str, Any]:
    """Submit throughput of the real server with the rate limiter on (default settings) and off
    (``TABLETOP_RATE_LIMIT_ENABLED=false``), two servers side by side, measured in alternating
    rounds so that a change in the machine's load hits both alike."""
    timing = ["--warmup", str(args.warmup), "--duration", str(args.duration), "--clients", str(args.clients)]
    budget = args.warmup + args.duration + 120
    totals: dict[str, list[dict[str, Any]]] = {"on": [], "off": []}
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as tmp:
        directory = Path(tmp)
        (directory / "on").mkdir()
        (directory / "off").mkdir()
        with (
            database(args.postgres, directory / "on") as url_on,
            database(args.postgres, directory / "off") as url_off,
        ):
            on_env = {"TABLETOP_DATABASE_URL": url_on, "TABLETOP_AUTO_MIGRATE": "true", **server_env}
            off_env = {
                **server_env,
                "TABLETOP_DATABASE_URL": url_off,
                "TABLETOP_AUTO_MIGRATE": "true",
                "TABLETOP_RATE_LIMIT_ENABLED": "false",
            }
            with (
                serve(serve_command, on_env, directory / "on.log") as on_server,
                serve(serve_command, off_env, directory / "off.log") as off_server,
            ):
                for round_number in range(rounds):
                    order = [("on", on_server), ("off", off_server)]
                    if round_number % 2:
                        order.reverse()
                    for name, server in order:
                        print(f"… round {round_number + 1}/{rounds}: limits {name}", file=sys.stderr)
                        totals[name].append(
                            loadgen(
                                [
                                    "submit",
                                    "--base",
                                    server.base,
                                    "--game",
                                    game,
                                    "--options",
                                    args.options,
                                    *timing,
                                ],
                                budget,
                                server,
                            )
                        )
    on_rate = sum(r["submits_per_s"] for r in totals["on"]) / rounds
    off_rate = sum(r["submits_per_s"] for r in totals["off"]) / rounds
    return {
        "database": "postgresql" if args.postgres else "sqlite (WAL)",
        "clients": args.clients,
        "rounds": rounds,
        "duration_s": args.duration,
        "on": [r["submits_per_s"] for r in totals["on"]],
        "off": [r["submits_per_s"] for r in totals["off"]],
        "on_errors": [r["errors"] for r in totals["on"]],
        "off_errors": [r["errors"] for r in totals["off"]],
        "on_p99_ms": [r["p99_ms"] for r in totals["on"]],
        "off_p99_ms": [r["p99_ms"] for r in totals["off"]],
        "on_submits_per_s": round(on_rate, 1),
        "off_submits_per_s": round(off_rate, 1),
        "ratio": round(on_rate / off_rate, 4) if off_rate else 0.0,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def limits_report(result: dict[str, Any]) -> str:
    cost = 1 - result["ratio"]
    return "\n".join(
        [
            f"limits cost: {result['database']}, {result['clients']} clients, {result['rounds']} alternating "
            f"rounds of {result['duration_s']:.0f} s each",
            f"limits on : {result['on_submits_per_s']:,.1f} submits/s (rounds {result['on']}, p99 ms "
            f"{result['on_p99_ms']}, errors {result['on_errors']})",
            f"limits off: {result['off_submits_per_s']:,.1f} submits/s (rounds {result['off']}, p99 ms "
            f"{result['off_p99_ms']}, errors {result['off_errors']})",
            f"ratio on/off {result['ratio']:.3f}, cost {cost:.1%}   {verdict(cost < 0.05)} (target < 5%)",
            f"machine load average after: {result['load_average']}",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    exit_cleanly_on_sigterm()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL instead of SQLite")
    parser.add_argument("--game", help=f"game slug (default {PREFERRED_GAME}, else the first registered)")
    parser.add_argument("--options", default="{}", help="game options as a JSON object")
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients (default 32)")
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds (default 10)")
    parser.add_argument("--warmup", type=float, default=2.0, help="warm-up seconds (default 2)")
    parser.add_argument("--subscribers", type=int, default=100, help="reveal subscribers (default 100)")
    parser.add_argument("--rounds", type=int, default=10, help="reveal rounds (default 10; 0 skips)")
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra environment for the real server, e.g. TABLETOP_SQLITE_SYNCHRONOUS=NORMAL (repeatable)",
    )
    parser.add_argument(
        "--limits-cost",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="instead: submit throughput with the rate limiter on vs off, ROUNDS alternating rounds",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of the report")
    args = parser.parse_args(argv)
    if not (1 <= args.clients <= 1000 and 0 < args.duration <= 600 and 0 <= args.warmup <= 60):
        parser.error("--clients 1-1000, --duration (0, 600], --warmup [0, 60]")
    if not (1 <= args.subscribers <= 1000 and 0 <= args.rounds <= 1000):
        parser.error("--subscribers 1-1000, --rounds 0-1000")

    server_env = dict(item.split("=", 1) for item in args.server_env if "=" in item)
    if len(server_env) != len(args.server_env):
        parser.error("--server-env takes NAME=VALUE")
    game, serve_command = choose_game(args.game)
    if args.limits_cost:
        cost = limits_cost(args, game, serve_command, args.limits_cost, server_env)
        print(json.dumps(cost, indent=2) if args.json else limits_report(cost))
        return 0
    load_before = [round(x, 2) for x in os.getloadavg()]
    timing = ["--warmup", str(args.warmup), "--duration", str(args.duration), "--clients", str(args.clients)]
    budget = args.warmup + args.duration + 120
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as tmp:
        directory = Path(tmp)
        with database(args.postgres, directory) as url:
            env = {"TABLETOP_DATABASE_URL": url, "TABLETOP_AUTO_MIGRATE": "true", **server_env}
            with (
                serve(serve_command, env, directory / "server.log") as ours_server,
                serve(
                    [sys.executable, str(BENCH / "bare_app.py")], {}, directory / "bare.log"
                ) as bare_server,
            ):
                ours_base, bare_base = ours_server.base, bare_server.base
                print(f"… ours at {ours_base}, bare at {bare_base}; driving ours", file=sys.stderr)
                ours = loadgen(
                    ["submit", "--base", ours_base, "--game", game, "--options", args.options, *timing],
                    budget,
                    ours_server,
                )
                print("… driving bare", file=sys.stderr)
                bare = loadgen(["submit", "--base", bare_base, "--bare", *timing], budget, bare_server)
                reveal = None
                if args.rounds:
                    print("… reveal latency", file=sys.stderr)
                    reveal = loadgen(
                        [
                            "reveal",
                            "--base",
                            ours_base,
                            "--game",
                            game,
                            "--options",
                            args.options,
                            "--subscribers",
                            str(args.subscribers),
                            "--rounds",
                            str(args.rounds),
                            "--time-limit",
                            "90",
                        ],
                        180,
                        ours_server,
                    )
    results = {
        "load_average_before": load_before,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "database": "postgresql" if args.postgres else "sqlite (WAL)",
        "server_env": server_env,
        "game": game,
        "warmup_s": args.warmup,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "ours": ours,
        "bare": bare,
        "ratio": ours["submits_per_s"] / bare["submits_per_s"] if bare["submits_per_s"] else 0.0,
        "reveal": reveal,
    }
    print(json.dumps(results, indent=2) if args.json else report(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
