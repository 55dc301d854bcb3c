"""Side by side with boardgame.io and Colyseus: the same game, the same load, one run, one table.

``python bench/peers.py [--grid 1x2000,50x100,200x50] [--systems ...] [--sections ...] [--json]``

Installs the peers (versions pinned in ``bench/peers/package.json``) with the machine's npm into a
scratch folder outside the repository (``~/.cache/tabletop-bench-peers``, or ``--scratch``),
copies our server and client scripts (``bench/peers/*.js``) next to them, then for each system
starts its server on loopback pinned to CPU 0 (``taskset``) while this harness and the load
generators run on CPU 1, and measures:

- ``grid``: M matches × K moves, two clients per match, each following its match on the server's
  push channel; a move is one submit by the seat whose turn it is; latency = move sent → that
  client receives the new state. Ours: ``bench/matches.py`` (push loop, Carcassonne); peers:
  ``bench/peers/client.js`` (the two-seat duel of ``bench/peers/duel.js``).
- ``length``: one match of 1,000 moves; latency at moves 5–15 against the last 100 moves
  (ours: Keythedral, the longest hosted game).
- ``stored``: a single-client row on an empty database, then again after 10,000 finished games
  were copied into it (durable systems only).
- ``reveal``: one move (ours: the submit that reveals a simultaneous decision) → each of N
  subscribers (1, 100, 1,000) receives it.
- ``memory``: server RSS per in-progress game and per open subscription.
- ``processes``: ours with one server process against two (not pinned): one and two workers on
  SQLite, one instance and two behind HAProxy (``deploy/haproxy.cfg``) on PostgreSQL + Redis.

Made for a shared machine: a row that fails is tried once more, then reported as failed while the
rest runs; each section's table is printed as soon as it is complete, and every finished row is
written to the JSON file of ``--out`` at once (so an interrupted run keeps what it measured).
``--ports``, ``--db-prefix`` and ``--redis-db`` keep two runs (or a run and the tests) apart.

Everything is bounded in time; servers, load generators and databases are stopped in ``finally``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO, Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from api_load import ROOT, database, exit_cleanly_on_sigterm, free_port  # noqa: E402
from peers_report import (  # noqa: E402
    PortPool,
    attempt,
    cpu_ms_per_move,
    early_late,
    grid_table,
    parse_grid,
    parse_port_range,
    parse_stat,
    parse_vm_rss_kib,
    per_item_kib,
)

PEERS_SRC = BENCH / "peers"
DEFAULT_SCRATCH = Path.home() / ".cache" / "tabletop-bench-peers"
SYSTEMS = {
    "colyseus": "Colyseus 0.16 (memory)",
    "bgio": "boardgame.io 0.50 (memory)",
    "bgio-pg": "boardgame.io 0.50 + PostgreSQL (bgio-postgres)",
    "ours-sqlite": "Tabletop, SQLite",
    "ours-pg": "Tabletop, PostgreSQL + Redis",
}
DURABLE = ("bgio-pg", "ours-sqlite", "ours-pg")
SECTIONS = ("grid", "length", "stored", "reveal", "memory", "processes")
OURS_ENV = {
    "TABLETOP_AUTO_MIGRATE": "true",
    "TABLETOP_RATE_LIMIT_PER_SECOND": "1000000",
    "TABLETOP_RATE_LIMIT_BURST": "1000000",
    "TABLETOP_MAX_WEBSOCKETS": "100000",
    "TABLETOP_MAX_WEBSOCKETS_PER_CLIENT": "100000",
    "TABLETOP_MAX_SUBSCRIPTIONS_PER_CONNECTION": "20",
}
REDIS_URL = "redis://127.0.0.1:6379/{db}"
SERVER_CPU, LOADGEN_CPU = 0, 1
START_CPUS = sorted(os.sched_getaffinity(0))
"""The cores this process may use before it pins itself (an unpinned server gets them all)."""
ROW_TIMEOUT = 900.0
MEMORY_WARMUP_GAMES = 20  # as WARMUP_GAMES in bench/peers/client.js


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def load1() -> float:
    return round(os.getloadavg()[0], 2)


# -- scratch folder with the peers ----------------------------------------------------------------------


def install(scratch: Path) -> None:
    """npm-install the pinned peers into ``scratch`` (once; again when the pins change) and copy
    our scripts next to them, so that ``require`` finds the peers' modules."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"bench-peers needs {' and '.join(missing)} (e.g. apt-get install nodejs npm)")
    scratch.mkdir(parents=True, exist_ok=True)
    wanted = (PEERS_SRC / "package.json").read_text()
    stamp = scratch / ".installed-package.json"
    if not (scratch / "node_modules").is_dir() or not stamp.exists() or stamp.read_text() != wanted:
        (scratch / "package.json").write_text(wanted)
        progress(f"npm install into {scratch} (pinned in bench/peers/package.json)")
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=scratch,
            check=True,
            timeout=600,
        )
        stamp.write_text(wanted)
    for script in PEERS_SRC.glob("*.js"):
        shutil.copyfile(script, scratch / script.name)


# -- processes ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a run's servers live: their ports, their PostgreSQL databases' names, their Redis db."""

    ports: PortPool | None = None
    db_prefix: str = "tabletop_bench_"
    redis_db: int = 0

    def port(self) -> int:
        return self.ports.take() if self.ports is not None else free_port()


@dataclass(frozen=True, slots=True)
class Running:
    """A started server: its URL(s) and root process (CPU and RSS are summed over its children)."""

    bases: list[str]
    pids: list[int]

    def cpu_seconds(self) -> float:
        return sum(tree_cpu_seconds(pid) for pid in self.pids)

    def rss_kib(self) -> int:
        return sum(tree_rss_kib(pid) for pid in self.pids)


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from ``/proc``."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = parse_stat((entry / "stat").read_text())[0]
        except (OSError, ValueError, IndexError):
            continue
        parents.setdefault(ppid, []).append(int(entry.name))
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        queue.extend(parents.get(current, []))
    return found


def tree_cpu_seconds(pid: int) -> float:
    ticks = 0
    for member in _tree(pid):
        with contextlib.suppress(OSError, ValueError, IndexError):
            ticks += parse_stat(Path(f"/proc/{member}/stat").read_text())[1]
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_rss_kib(pid: int) -> int:
    total = 0
    for member in _tree(pid):
        with contextlib.suppress(OSError):
            total += parse_vm_rss_kib(Path(f"/proc/{member}/status").read_text())
    return total


def wait_port(port: int, process: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"server did not listen on {port} in {timeout} s: {log.read_text()[-2000:]}")


def wait_healthz(base: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 60.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {log.read_text()[-2000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=1.0).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{base} not healthy in {timeout} s: {log.read_text()[-2000:]}")


@contextlib.contextmanager
def process(
    command: list[str], env: dict[str, str], cwd: Path, log: Path, ready: Callable[..., None]
) -> Iterator[subprocess.Popen[bytes]]:
    """Start one server process; wait until ``ready``; terminate it (kill if need be) after."""
    handle: IO[bytes] = log.open("wb")
    child = subprocess.Popen(
        command, cwd=cwd, env={**os.environ, **env}, stdout=handle, stderr=subprocess.STDOUT
    )
    try:
        ready(child)
        yield child
    finally:
        child.terminate()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=10)
        handle.close()


def pinned(command: list[str], pin: bool) -> list[str]:
    """``pin``: on the server's core. Otherwise on every core the harness was given at start: a
    child inherits the harness's own pinning to the load generators' core, which put the unpinned
    servers of ``processes`` (both workers, both instances) on that one core until 2026-11-26."""
    if pin:
        return ["taskset", "-c", str(SERVER_CPU), *command]
    if shutil.which("taskset") is None:
        return command
    return ["taskset", "-c", ",".join(map(str, START_CPUS)), *command]


@contextlib.contextmanager
def system_server(
    name: str,
    scratch: Path,
    work: Path,
    *,
    pin: bool = True,
    instances: int = 1,
    workers: int = 1,
    balanced: bool = False,
    extra_env: dict[str, str] | None = None,
    place: Placement = Placement(),
    root: Path = ROOT,
) -> Iterator[tuple[Running, str | None]]:
    """Start ``name`` on a fresh store; yield it and its database URL (None for memory).
    ``balanced``: HAProxy with ``deploy/haproxy.cfg`` in front of the (two) instances, whose URL is
    then the only one (its CPU counted with theirs). ``extra_env``: more settings for ours,
    ``root``: the checkout ours runs from (``bench/ab.py`` compares two settings or two commits)."""
    postgres = name in ("bgio-pg", "ours-pg")
    work.mkdir(parents=True, exist_ok=True)
    with database(postgres, work, place.db_prefix) as url, contextlib.ExitStack() as stack:
        bases, pids = [], []
        for _ in range(instances):
            port = place.port()
            log = work / f"{name}-{port}.log"
            base = f"http://127.0.0.1:{port}"
            if name.startswith("ours"):
                env = {**OURS_ENV, "TABLETOP_DATABASE_URL": url, **(extra_env or {})}
                if postgres:
                    env["TABLETOP_REDIS_URL"] = REDIS_URL.format(db=place.redis_db)
                    env["TABLETOP_RATE_LIMIT_PREFIX"] = place.db_prefix.rstrip("_") or "tabletop"
                    # pub/sub ignores the db number: the channels carry the run's prefix too
                    env["TABLETOP_REDIS_CHANNEL_PREFIX"] = f"{env['TABLETOP_RATE_LIMIT_PREFIX']}:game:"
                command = [sys.executable, "-m", "api", "serve", "--host", "127.0.0.1", "--port", str(port)]
                if workers > 1:
                    command += ["--workers", str(workers)]
                ready: Callable[..., None] = lambda child, b=base, lg=log: wait_healthz(b, child, lg)  # noqa: E731
                child = stack.enter_context(process(pinned(command, pin), env, root, log, ready))
            else:
                script = "colyseus_server.js" if name == "colyseus" else "bgio_server.js"
                env = {"DATABASE_URL": url} if postgres else {}
                ready = lambda child, p=port, lg=log: wait_port(p, child, lg)  # noqa: E731
                child = stack.enter_context(
                    process(pinned(["node", script, str(port)], pin), env, scratch, log, ready)
                )
            bases.append(base)
            pids.append(child.pid)
        if balanced:
            port = place.port()
            log = work / f"haproxy-{port}.log"
            env = {"TABLETOP_LB_BIND": f"127.0.0.1:{port}"}
            env |= {f"TABLETOP_API_{n}": base.removeprefix("http://") for n, base in enumerate(bases, 1)}
            command = ["haproxy", "-db", "-f", str(root / "deploy" / "haproxy.cfg")]
            base = f"http://127.0.0.1:{port}"
            ready = lambda child, b=base, lg=log: wait_healthz(b, child, lg)  # noqa: E731
            child = stack.enter_context(process(pinned(command, pin), env, root, log, ready))
            bases, pids = [base], [*pids, child.pid]
        yield Running(bases, pids), (url if postgres or name == "ours-sqlite" else None)


# -- load generators ----------------------------------------------------------------------------------


def run_json(command: list[str], cwd: Path, timeout: float = ROW_TIMEOUT) -> dict[str, Any]:
    completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])}… failed: {completed.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def ours_matches(
    bases: list[str], game: str, matches: int, moves: int, trace: bool = False, submit: str = "rest"
) -> dict[str, Any]:
    command = [
        sys.executable,
        str(BENCH / "matches.py"),
        "--base",
        ",".join(bases),
        "--game",
        game,
        "--matches",
        str(matches),
        "--moves",
        str(moves),
        "--loop",
        "push",
        "--submit",
        submit,
        "--time-limit",
        str(ROW_TIMEOUT - 60),
    ]
    return run_json(command + (["--trace"] if trace else []), ROOT)


def peer_client(scratch: Path, system: str, base: str, *arguments: object) -> dict[str, Any]:
    kind = "colyseus" if system == "colyseus" else "bgio"
    return run_json(["node", "client.js", kind, base, *(str(a) for a in arguments)], scratch)


@contextlib.contextmanager
def py_spy(server: Running, output: Path | None) -> Iterator[None]:
    """Sample the server with py-spy while the body runs, writing collapsed stacks to ``output``
    (nothing when ``output`` is None); a second instance goes to ``<stem>-2.txt``, and so on.
    ``--gil``: only the thread holding the GIL, i.e. Python's CPU work, not threads waiting on a
    queue or on the disk; ``--nonblocking``: never paused; ``--subprocesses``: worker processes."""
    if output is None:
        yield
        return
    executable = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    recorders = []
    for index, pid in enumerate(server.pids):
        target = output if index == 0 else output.with_name(f"{output.stem}-{index + 1}{output.suffix}")
        command = [executable, "record", "--pid", str(pid), "--rate", "200", "--nonblocking", "--gil"]
        command += ["--subprocesses", "--format", "raw", "--output", str(target)]
        recorders.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    try:
        time.sleep(0.5)  # attached before the load starts
        yield
    finally:
        for recorder in recorders:
            recorder.send_signal(signal.SIGINT)
        for recorder in recorders:
            try:
                recorder.wait(timeout=60)
            except subprocess.TimeoutExpired:
                recorder.kill()
                recorder.wait(timeout=10)
        progress(f"  py-spy profile: {output}")


def measured_row(server: Running, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run one load; add the server's CPU per move and the machine's load before and after."""
    before, cpu = load1(), server.cpu_seconds()
    result = run()
    result["cpu_ms_per_move"] = cpu_ms_per_move(server.cpu_seconds() - cpu, result.get("moves", 0))
    result["load_before"], result["load_after"] = before, load1()
    return result


# -- sections -------------------------------------------------------------------------------------------


SOCKET = "+socket"
"""Appended to one of ours' names for its rows whose moves ride the subscription's socket."""


def system_label(name: str) -> str:
    base = name.removesuffix(SOCKET)
    label = SYSTEMS.get(base, base)
    return f"{label}, moves over the socket" if name.endswith(SOCKET) else label


def grid_rows(name: str, server: Running, scratch: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Each grid row; ours once per submit mode of ``--submits`` (a socket row's system is
    ``<name>+socket``), one after the other on the same server."""
    rows = []
    for matches, moves in parse_grid(args.grid):
        modes = args.submits if name.startswith("ours") else ["rest"]
        for submit in modes:
            system = name if submit == "rest" else name + SOCKET
            progress(f"grid {system_label(system)}: {matches}×{moves}")
            profile = None
            if name.startswith("ours"):
                run = partial(ours_matches, server.bases, args.game, matches, moves, submit=submit)
                if args.py_spy is not None:
                    args.py_spy.mkdir(parents=True, exist_ok=True)
                    profile = args.py_spy / f"{system}-{matches}x{moves}.txt"
            else:
                run = partial(peer_client, scratch, name, server.bases[0], "grid", matches, moves)

            def row(
                run: Callable[[], dict[str, Any]] = run, profile: Path | None = profile
            ) -> dict[str, Any]:
                with py_spy(server, profile):
                    return measured_row(server, run)

            key = {"system": system, "matches": matches, "moves_per_match": moves}
            result = {**attempt(f"grid {system} {matches}×{moves}", row, key, progress), **key}
            if "failed" not in result:
                progress(
                    f"  {result['moves_per_s']} moves/s, p50 {result['p50_ms']} ms, "
                    f"p99 {result['p99_ms']} ms, CPU {result['cpu_ms_per_move']} ms/move, "
                    f"load {result['load_before']}→{result['load_after']}"
                )
            rows.append(result)
    return rows


def length_row(name: str, server: Running, scratch: Path, args: argparse.Namespace) -> dict[str, Any]:
    progress(f"length {SYSTEMS[name]}: one match of {args.length} moves")
    run = partial(_length, name, server, scratch, args)
    return attempt(f"length {name}", run, {"system": name}, progress)


def _length(name: str, server: Running, scratch: Path, args: argparse.Namespace) -> dict[str, Any]:
    # Unreported warm-up first, so that "early" does not mean "cold" (JIT, caches, pools).
    if name.startswith("ours"):
        ours_matches(server.bases, args.long_game, 5, 40)
    else:
        peer_client(scratch, name, server.bases[0], "grid", 5, 40)
    before = load1()
    if name.startswith("ours"):
        result = ours_matches(server.bases, args.long_game, 1, args.length, trace=True)
    else:
        result = peer_client(scratch, name, server.bases[0], "length", args.length)
    summary = early_late(result["trace"])
    summary.update(system=name, load_before=before, load_after=load1())
    return summary


def reveal_rows(name: str, server: Running, scratch: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for subscribers in args.subscribers:
        progress(f"reveal {SYSTEMS[name]}: {subscribers} subscribers × {args.reveal_rounds} rounds")
        key = {"system": name, "subscribers": subscribers}
        run = partial(_reveal, name, server, scratch, args, subscribers)
        rows.append({**attempt(f"reveal {name} {subscribers}", run, key, progress), **key})
    return rows


def _reveal(
    name: str, server: Running, scratch: Path, args: argparse.Namespace, subscribers: int
) -> dict[str, Any]:
    before = load1()
    if name.startswith("ours"):
        command = [
            sys.executable,
            str(BENCH / "loadgen.py"),
            "reveal",
            "--base",
            server.bases[0],
            "--game",
            args.reveal_game,
            "--subscribers",
            str(subscribers),
            "--rounds",
            str(args.reveal_rounds),
            "--time-limit",
            "300",
        ]
        result = run_json(command, ROOT)
    else:
        result = peer_client(scratch, name, server.bases[0], "fanout", subscribers, args.reveal_rounds)
    result.update(system=name, load_before=before, load_after=load1())
    return result


def memory_row(name: str, server: Running, scratch: Path, args: argparse.Namespace) -> dict[str, Any]:
    """RSS at three moments: before, with G in-progress games (no client connected, where the
    system allows it), and with S open subscriptions on one more game."""
    progress(f"memory {SYSTEMS[name]}: {args.memory_games} games, {args.memory_subscriptions} subscriptions")
    run = partial(_memory, name, server, scratch, args)
    return attempt(f"memory {name}", run, {"system": name}, progress)


def _memory(name: str, server: Running, scratch: Path, args: argparse.Namespace) -> dict[str, Any]:
    samples: dict[str, int] = {}
    if name.startswith("ours"):
        samples = asyncio.run(ours_memory(server, args.game, args.memory_games, args.memory_subscriptions))
    else:
        kind = "colyseus" if name == "colyseus" else "bgio"
        command = [
            "node",
            "client.js",
            kind,
            server.bases[0],
            "memory",
            str(args.memory_games),
            str(args.memory_subscriptions),
        ]
        child = subprocess.Popen(
            command, cwd=scratch, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        try:
            assert child.stdin is not None and child.stdout is not None
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                line = child.stdout.readline()
                if not line:
                    break
                message = json.loads(line)
                if "phase" not in message:
                    break
                time.sleep(1.0)  # let the server settle (sockets, timers) before sampling
                samples[message["phase"]] = server.rss_kib()
                child.stdin.write("\n")
                child.stdin.flush()
            child.wait(timeout=60)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait(timeout=10)
    return {
        "system": name,
        "rss_baseline_kib": samples.get("baseline"),
        "kib_per_game": per_item_kib(samples.get("baseline"), samples.get("games"), args.memory_games),
        "kib_per_subscription": per_item_kib(
            samples.get("games"), samples.get("subscriptions"), args.memory_subscriptions
        ),
    }


async def ours_memory(server: Running, game: str, games: int, subscriptions: int) -> dict[str, int]:
    """Our memory probe, in this process: games over REST, subscriptions as anonymous spectators."""
    from loadgen import Connection, Subscriber, new_game, pending_choices

    base = server.bases[0]
    conn = Connection(base)
    rng = random.Random(3)
    samples: dict[str, int] = {}
    try:
        for number in range(MEMORY_WARMUP_GAMES + games):
            if number == MEMORY_WARMUP_GAMES:  # warmed up (code paths, pools, heap): the baseline
                await asyncio.sleep(1.0)
                samples["baseline"] = server.rss_kib()
            created = await new_game(conn, game, {}, None)
            for _move in range(2):
                pending = await pending_choices(conn, created, None)
                if pending is None:
                    break
                body = {"choice": rng.choice(pending["choices"]), "version": pending["version"]}
                await conn.request(
                    "POST", f"/v1/games/{created.id}/choices", body, created.tokens[created.seat]
                )
        await asyncio.sleep(1.0)
        samples["games"] = server.rss_kib()
        watched = await new_game(conn, game, {}, None)
        subscribers = [Subscriber(base, watched.id, 0) for _ in range(subscriptions)]
        try:
            for start in range(0, subscriptions, 50):
                await asyncio.gather(*(s.open() for s in subscribers[start : start + 50]))
            await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in subscribers)), 60)
            await asyncio.sleep(1.0)
            samples["subscriptions"] = server.rss_kib()
        finally:
            await asyncio.gather(*(s.close() for s in subscribers), return_exceptions=True)
    finally:
        await conn.close()
    return samples


def stored_rows(name: str, scratch: Path, work: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """The same single-client row on an empty store, then after ``--stored`` finished games."""
    matches, moves = parse_grid(args.stored_row)[0]
    rows = []
    with system_server(name, scratch, work / f"stored-{name}", place=args.place) as (server, url):
        assert url is not None
        # A first, unreported pass warms the server up (and plays the game that gets copied).
        for label in ("warm-up", "empty", f"{args.stored:,} finished"):
            key = {"system": name, "stored": label}
            if label not in ("warm-up", "empty"):
                progress(f"stored {SYSTEMS[name]}: copying {args.stored:,} finished games")
                started = time.perf_counter()
                copied = attempt(f"copy into {name}", partial(_copy, name, url, args.stored), key, progress)
                if "failed" in copied:
                    rows.append(copied)
                    break
                progress(f"  copied in {time.perf_counter() - started:.1f} s")
            progress(f"stored {SYSTEMS[name]} ({label}): {matches}×{moves}")
            if name.startswith("ours"):
                run = partial(ours_matches, server.bases, args.game, matches, moves)
            else:
                run = partial(peer_client, scratch, name, server.bases[0], "grid", matches, moves)
            result = {
                **attempt(f"stored {name} {label}", partial(measured_row, server, run), key, progress),
                **key,
            }
            if label != "warm-up":
                rows.append(result)
    return rows


def _copy(name: str, url: str, count: int) -> dict[str, Any]:
    copy_finished_games(name, url, count)
    return {}


def copy_finished_games(name: str, url: str, count: int) -> None:
    """Copy one played game ``count`` times under new ids, marked finished: what a server that
    has hosted ``count`` games holds (ours: its events and choices too)."""
    if name == "bgio-pg":
        template_sql = 'SELECT id FROM "Games" ORDER BY json_array_length(log) DESC LIMIT 1'
        tables = [("Games", "id")]
        overrides = {"gameover": '\'{"winner": "0"}\''}
    else:
        template_sql = "SELECT id FROM games ORDER BY status = 'finished' DESC, last_seq DESC LIMIT 1"
        tables = [("games", "id"), ("game_events", "game_id"), ("game_choices", "game_id")]
        overrides = {"status": "'finished'"}
    if url.startswith("sqlite"):
        import sqlite3

        # The server has the file open (WAL). A deferred transaction that reads, then writes, gets
        # SQLITE_BUSY at once ("database is locked", no busy wait) when the server committed in
        # between; BEGIN IMMEDIATE takes the write lock first, waiting for it up to the timeout.
        connection: Any = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=60, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        mark = "?"
    else:
        import psycopg

        connection = psycopg.connect(url)
        mark = "%s"
    try:
        cursor = connection.cursor()
        cursor.execute(template_sql)
        row = cursor.fetchone()
        if row is None:
            raise RuntimeError(f"{name}: no played game to copy")
        template = row[0]
        cursor.execute("CREATE TEMP TABLE bench_ids (id VARCHAR(64) PRIMARY KEY)")
        prefix = f"stored-{time.time_ns()}-"
        cursor.executemany(
            f"INSERT INTO bench_ids (id) VALUES ({mark})", [(f"{prefix}{i}",) for i in range(count)]
        )
        for table, key in tables:
            cursor.execute(f'SELECT * FROM "{table}" WHERE 1 = 0')
            columns = [d[0] for d in cursor.description]
            select = ", ".join("n.id" if c == key else overrides.get(c, f't."{c}"') for c in columns)
            names = ", ".join(f'"{c}"' for c in columns)
            cursor.execute(
                f'INSERT INTO "{table}" ({names}) SELECT {select} FROM "{table}" t, bench_ids n '
                f'WHERE t."{key}" = {mark}',
                (template,),
            )
        connection.commit()
        # Settle as a store that grew over time would be: SQLite's WAL checkpointed, PostgreSQL's
        # new rows vacuumed and analysed (what autovacuum does after a while).
        if url.startswith("sqlite"):
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        else:
            connection.autocommit = True
            for table, _ in tables:
                cursor.execute(f'VACUUM ANALYZE "{table}"')
    finally:
        connection.close()


def processes_rows(scratch: Path, work: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Ours on one server process against two, not pinned (each may use both cores)."""
    matches, moves = parse_grid(args.processes_row)[0]
    layouts = [
        ("ours-sqlite", "SQLite, 1 process", {"workers": 1}),
        ("ours-sqlite", "SQLite, 2 worker processes", {"workers": 2}),
        ("ours-pg", "PostgreSQL + Redis, 1 instance", {"instances": 1}),
        ("ours-pg", "PostgreSQL + Redis, 2 instances behind HAProxy", {"instances": 2, "balanced": 1}),
    ]
    rows = []
    runs = [(layout, submit) for layout in layouts for submit in args.submits]
    for index, ((name, label, shape), submit) in enumerate(runs):
        if name not in args.systems:
            continue
        if submit != "rest":
            label = f"{label}, moves over the socket"
        progress(f"processes: {label}, {matches}×{moves}")

        profile = None
        if args.py_spy is not None:
            args.py_spy.mkdir(parents=True, exist_ok=True)
            mode = "" if submit == "rest" else "-socket"
            profile = args.py_spy / f"processes-{name}-{sum(shape.values())}{mode}-{matches}x{moves}.txt"

        def row(
            name: str = name,
            index: int = index,
            shape: dict[str, int] = shape,
            submit: str = submit,
            profile: Path | None = profile,
        ) -> dict[str, Any]:
            folder = work / f"proc-{index}-{time.time_ns()}"
            with contextlib.ExitStack() as stack:
                server, _ = stack.enter_context(
                    system_server(
                        name,
                        scratch,
                        folder,
                        pin=False,
                        instances=shape.get("instances", 1),
                        workers=shape.get("workers", 1),
                        balanced=bool(shape.get("balanced")),
                        place=args.place,
                    )
                )
                stack.enter_context(py_spy(server, profile))
                return measured_row(
                    server, partial(ours_matches, server.bases, args.game, matches, moves, submit=submit)
                )

        key = {"layout": label, "submit": submit, "matches": matches, "moves_per_match": moves}
        rows.append({**attempt(f"processes {label}", row, key, progress), **key})
    return rows


# -- report -------------------------------------------------------------------------------------------


def _v(value: Any) -> str:
    return "-" if value is None else str(value)


def _load(r: dict[str, Any]) -> str:
    text = f"{_v(r.get('load_before'))}→{_v(r.get('load_after'))}"
    return f"{text} FAILED: {r['failed']}" if r.get("failed") else text


def section_table(section: str, rows: list[dict[str, Any]]) -> str:
    """The Markdown table of one section (a failed row shows dashes and why it failed)."""
    out: list[str] = []
    if section == "grid":
        return grid_table(rows, {r["system"]: system_label(r["system"]) for r in rows})
    if section == "length":
        out += [
            "Cost against game length (one match, one client per seat; median latency in ms):",
            "| system | moves 5–15 | last 100 moves (of N) | late/early | load before→after |",
            "|---|---|---|---|---|",
        ]
        for r in rows:
            out.append(
                f"| {SYSTEMS[r['system']]} | {_v(r.get('early_ms'))} | {_v(r.get('late_ms'))} "
                f"(N={_v(r.get('length'))}) | {_v(r.get('ratio'))} | {_load(r)} |"
            )
    elif section == "stored":
        out += [
            "Stored games (the same row on an empty store, then with finished games copied in):",
            "| system | store | moves/s | p50 ms | p99 ms | CPU ms/move | load before→after |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            out.append(
                f"| {SYSTEMS[r['system']]} | {r['stored']} | {_v(r.get('moves_per_s'))} | "
                f"{_v(r.get('p50_ms'))} | {_v(r.get('p99_ms'))} | {_v(r.get('cpu_ms_per_move'))} | "
                f"{_load(r)} |"
            )
    elif section == "reveal":
        out += [
            "Reveal / fan-out latency (move sent → each subscriber receives it):",
            "| system | subscribers | samples | timeouts | p50 ms | p99 ms | max ms | load before→after |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            out.append(
                f"| {SYSTEMS[r['system']]} | {r['subscribers']} | {_v(r.get('samples'))} | "
                f"{_v(r.get('timeouts'))} | {_v(r.get('p50_ms'))} | {_v(r.get('p99_ms'))} | "
                f"{_v(r.get('max_ms'))} | {_load(r)} |"
            )
    elif section == "memory":
        out += [
            "Memory (server RSS, KiB):",
            "| system | baseline RSS | per in-progress game | per open subscription |",
            "|---|---|---|---|",
        ]
        for r in rows:
            failed = f" FAILED: {r['failed']}" if r.get("failed") else ""
            out.append(
                f"| {SYSTEMS[r['system']]} | {_v(r.get('rss_baseline_kib'))} | {_v(r.get('kib_per_game'))} | "
                f"{_v(r.get('kib_per_subscription'))}{failed} |"
            )
    elif section == "processes":
        out += [
            "One server process against two (ours; servers not pinned, the load generator stays on CPU 1):",
            "| layout | grid | moves/s | p50 ms | p99 ms | CPU ms/move | never delivered | load |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in rows:
            out.append(
                f"| {r['layout']} | {r['matches']}×{r['moves_per_match']} | {_v(r.get('moves_per_s'))} | "
                f"{_v(r.get('p50_ms'))} | {_v(r.get('p99_ms'))} | {_v(r.get('cpu_ms_per_move'))} | "
                f"{r.get('never_delivered', '-')} | {_load(r)} |"
            )
    return "\n".join(out)


def served(
    name: str, work: Path, args: argparse.Namespace, body: Callable[[Running], list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """``body``'s rows on a fresh server of ``name``; a server that fails to start (or stop) is
    tried once more, then the section reports one failed row for this system."""
    done: list[list[dict[str, Any]]] = []

    def run() -> dict[str, Any]:
        with system_server(
            name, args.scratch, work / f"{name}-{time.time_ns()}", pin=args.pin, place=args.place
        ) as (
            server,
            _,
        ):
            done.append(body(server))
        return {}

    outcome = attempt(f"{SYSTEMS[name]} server", run, {"system": name}, progress)
    return done[-1] if done else [outcome]


def run_section(section: str, work: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every system's rows of one section, each on a fresh server (``processes`` starts its own)."""
    if section == "processes":
        return processes_rows(args.scratch, work, args)
    rows: list[dict[str, Any]] = []
    for name in args.systems:
        if section == "stored":
            if name in DURABLE:
                key = {"system": name, "stored": "-"}
                outcome = attempt(f"stored {name}", partial(_stored, name, work, args), key, progress)
                rows += outcome.get("rows", [outcome])
        else:
            rows += served(name, work, args, partial(_on_server, section, name, args))
    return rows


def _on_server(section: str, name: str, args: argparse.Namespace, server: Running) -> list[dict[str, Any]]:
    if section == "grid":
        return grid_rows(name, server, args.scratch, args)
    if section == "reveal":
        return reveal_rows(name, server, args.scratch, args)
    if section == "length":
        return [length_row(name, server, args.scratch, args)]
    return [memory_row(name, server, args.scratch, args)]


def _stored(name: str, work: Path, args: argparse.Namespace) -> dict[str, Any]:
    return {"rows": stored_rows(name, args.scratch, work / f"stored-{time.time_ns()}", args)}


def main(argv: Sequence[str] | None = None) -> int:
    exit_cleanly_on_sigterm()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--grid", default="1x2000,50x100,200x50", help="rows as MATCHESxMOVES")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help=f"some of {', '.join(SYSTEMS)}")
    parser.add_argument("--sections", default=",".join(SECTIONS), help=f"some of {', '.join(SECTIONS)}")
    parser.add_argument("--game", default="carcassonne", help="our game for grid, stored, memory, processes")
    parser.add_argument("--long-game", default="keythedral", help="our game for the length section")
    parser.add_argument("--length", type=int, default=1000, help="moves in the length section")
    parser.add_argument("--reveal-game", default="im-schutze-der-burg")
    parser.add_argument("--subscribers", default="1,100,1000", help="reveal subscriber counts")
    parser.add_argument("--reveal-rounds", type=int, default=10)
    parser.add_argument("--stored", type=int, default=10_000, help="finished games copied in")
    parser.add_argument("--stored-row", default="1x300")
    parser.add_argument("--memory-games", type=int, default=200)
    parser.add_argument("--memory-subscriptions", type=int, default=500)
    parser.add_argument("--processes-row", default="50x100")
    parser.add_argument(
        "--submits",
        default="rest",
        help="how ours' clients send moves in the grid and processes rows: rest, socket, or rest,socket",
    )
    parser.add_argument("--scratch", type=Path, default=DEFAULT_SCRATCH, help="where the peers are installed")
    parser.add_argument("--no-pin", action="store_true", help="do not pin server and load generator")
    parser.add_argument(
        "--py-spy",
        type=Path,
        metavar="DIR",
        help="profile our servers with py-spy during each grid and processes row (collapsed stacks into DIR; "
        "summarise with bench/profile_summary.py); the sampling costs the server some CPU",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON at the end")
    parser.add_argument(
        "--out",
        type=Path,
        help="JSON file rewritten after every finished row (default: <scratch>/results/<start time>.json)",
    )
    parser.add_argument("--ports", help="port range for the servers, LOW-HIGH (default: any free port)")
    parser.add_argument(
        "--db-prefix", default="tabletop_bench_", help="name prefix of scratch PostgreSQL databases"
    )
    parser.add_argument(
        "--redis-db", type=int, default=0, help="Redis database number for ours on PostgreSQL"
    )
    parser.add_argument(
        "--peer-timeout", type=float, default=30.0, help="seconds a peer's client waits for its server"
    )
    args = parser.parse_args(argv)
    args.systems = [s for s in args.systems.split(",") if s]
    args.subscribers = [int(n) for n in args.subscribers.split(",") if n]
    args.submits = [m for m in args.submits.split(",") if m]
    if not args.submits or any(m not in ("rest", "socket") for m in args.submits):
        parser.error("--submits: rest, socket or rest,socket")
    sections = [s for s in args.sections.split(",") if s]
    unknown = [s for s in args.systems if s not in SYSTEMS] + [s for s in sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown system or section: {', '.join(unknown)}")
    parse_grid(args.grid)
    try:
        ports = PortPool(parse_port_range(args.ports)) if args.ports else None
    except ValueError as error:
        parser.error(str(error))
    args.place = Placement(ports, args.db_prefix, args.redis_db)
    os.environ["PEERS_EVENT_TIMEOUT_MS"] = str(int(args.peer_timeout * 1000))  # read by client.js

    if "processes" in sections and "ours-pg" in args.systems and shutil.which("haproxy") is None:
        parser.error(
            "the processes section puts two PostgreSQL instances behind HAProxy, which is not "
            "installed: apt-get install -y haproxy (./run bench-peers installs it when run as root)"
        )
    args.pin = not args.no_pin and len(os.sched_getaffinity(0)) >= 2 and shutil.which("taskset") is not None
    if args.pin:
        os.sched_setaffinity(0, {LOADGEN_CPU})  # the harness and every load generator it starts
    if any(not s.startswith("ours") for s in args.systems):
        install(args.scratch)
    results: dict[str, Any] = {
        "pinned": args.pin,
        "cpus": os.cpu_count(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    out = args.out or args.scratch / "results" / f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    progress(f"results: {out} (rewritten after every section)")
    print(
        f"bench-peers {results['started']}, {results['cpus']} CPUs, "
        f"server {'pinned to CPU 0, load generators to CPU 1' if args.pin else 'not pinned'}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix=f"{args.db_prefix}peers-") as tmp:
        for section in SECTIONS:
            if section not in sections:
                continue
            results[section] = run_section(section, Path(tmp) / section, args)
            out.write_text(json.dumps(results, indent=2))
            if results[section] and not args.json:
                print(f"\n{section_table(section, results[section])}", flush=True)
    results["finished"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    out.write_text(json.dumps(results, indent=2))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"\nfinished {results['finished']}; JSON in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
