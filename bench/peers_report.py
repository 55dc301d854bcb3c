"""Pure helpers of ``bench/peers.py``: parsing ``/proc``, the per-move figures and the table.

Kept apart from the harness (which starts servers) so that ``tests/unit/test_bench_peers_report.py``
can check them without processes.
"""

from __future__ import annotations

import socket
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any

OURS = ("ours-sqlite", "ours-pg")
TARGET_VS_BGIO_PG, TARGET_VS_BGIO_MEMORY = 2.0, 0.5
TARGET_CPU_MS = {"ours-sqlite": 1.0, "ours-pg": 1.5}
"""Issue 28's CPU per move: 1.0 ms on SQLite, 1.5 ms on PostgreSQL + Redis (issue 23 asked 1.5
and 2)."""
TARGET_P99_MS = 50.0
TARGET_ROW = (50, 100)


def parse_grid(text: str) -> list[tuple[int, int]]:
    """``"1x2000,50x100"`` → ``[(1, 2000), (50, 100)]`` (matches × moves; ``×`` also accepted)."""
    rows = []
    for part in text.replace("×", "x").split(","):
        if not part.strip():
            continue
        matches, _, moves = part.strip().partition("x")
        row = (int(matches), int(moves))
        if row[0] < 1 or row[1] < 1:
            raise ValueError(f"grid row {part!r}: matches and moves must be at least 1")
        rows.append(row)
    if not rows:
        raise ValueError("empty grid")
    return rows


def parse_port_range(text: str) -> range:
    """``"20000-20999"`` → the ports a run may listen on (inclusive bounds)."""
    low, _, high = text.partition("-")
    ports = range(int(low), int(high or low) + 1)
    if not ports or ports.start < 1024 or ports.stop > 65536:
        raise ValueError(f"port range {text!r}: expected LOW-HIGH within 1024-65535")
    return ports


class PortPool:
    """Hands out loopback ports from a range, round robin, skipping ports something else holds
    (several runs on one machine each get their own range: no two servers race for one port)."""

    def __init__(self, ports: range) -> None:
        self._ports = ports
        self._next = 0

    def take(self) -> int:
        for _ in range(len(self._ports)):
            port = self._ports[self._next % len(self._ports)]
            self._next += 1
            with socket.socket() as probe:
                try:
                    probe.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
        raise RuntimeError(f"no free port in {self._ports.start}-{self._ports.stop - 1}")


def attempt(
    what: str,
    run: Callable[[], dict[str, Any]],
    failed: Mapping[str, Any],
    log: Callable[[str], None],
    tries: int = 2,
) -> dict[str, Any]:
    """``run()``, tried again once when it raises; then ``failed`` marked with the last error,
    so that one bad row (a peer's client timing out on a busy machine) never costs the table."""
    error: Exception | None = None
    for trial in range(1, tries + 1):
        try:
            return run()
        except Exception as caught:  # any failure of a row is reported, not raised
            error = caught
            log(f"  {what} failed (try {trial} of {tries}): {_short(caught)}")
    return {**failed, "failed": _short(error)}


def _short(error: BaseException | None) -> str:
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= 300 else f"{text[:140]} … {text[-150:]}"


def parse_stat(text: str) -> tuple[int, int]:
    """``/proc/<pid>/stat`` → (parent pid, user + system CPU in clock ticks).

    The command name (field 2) is in parentheses and may hold spaces or parentheses itself, so the
    fields are counted from the last ``)``: after it come state, ppid, …, utime (14), stime (15).
    """
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[1]), int(fields[11]) + int(fields[12])


def parse_vm_rss_kib(text: str) -> int:
    """``VmRSS`` of ``/proc/<pid>/status`` in KiB (0 for a process without memory, e.g. a zombie)."""
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_ms_per_move(cpu_seconds: float, moves: int) -> float | None:
    return round(cpu_seconds * 1000 / moves, 3) if moves else None


def per_item_kib(before: int | None, after: int | None, items: int) -> float | None:
    """RSS growth per item; None when a sample is missing or there were no items."""
    if before is None or after is None or items <= 0:
        return None
    return round((after - before) / items, 1)


def early_late(
    trace: Sequence[Sequence[float]], early: tuple[int, int] = (5, 15), late_span: int = 100
) -> dict[str, Any]:
    """Median latency of the moves numbered ``early`` (inclusive) against the last ``late_span``
    moves of the longest game in ``trace`` (pairs of move number in its game, latency in ms)."""
    length = int(max((n for n, _ in trace), default=0))
    first = [ms for n, ms in trace if early[0] <= n <= early[1]]
    last = [ms for n, ms in trace if n > length - late_span]
    early_ms = round(statistics.median(first), 2) if first else None
    late_ms = round(statistics.median(last), 2) if last and length > early[1] + late_span else None
    ratio = round(late_ms / early_ms, 2) if early_ms and late_ms is not None else None
    return {"length": length, "early_ms": early_ms, "late_ms": late_ms, "ratio": ratio}


def ratio(ours: float | None, theirs: float | None) -> float | None:
    return round(ours / theirs, 2) if ours and theirs else None


def grid_table(rows: Sequence[Mapping[str, Any]], names: Mapping[str, str]) -> str:
    """One Markdown table, grouped by grid row, with ours ÷ this system, then the targets."""
    by_row: dict[tuple[int, int], dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        by_row.setdefault((row["matches"], row["moves_per_match"]), {})[row["system"]] = row
    lines = [
        "| grid | system | moves/s | p50 ms | p99 ms | server CPU ms/move | ours SQLite ÷ this | "
        "ours PG ÷ this | load before→after |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (matches, moves), systems in by_row.items():
        sqlite = systems.get("ours-sqlite", {}).get("moves_per_s")
        postgres = systems.get("ours-pg", {}).get("moves_per_s")
        for name, r in systems.items():
            rate = r.get("moves_per_s")
            problems = {k: r.get(k) for k in ("stalled", "never_delivered", "never_started") if r.get(k)}
            if r.get("errors"):
                problems["errors"] = r["errors"]
            if r.get("failed"):
                problems["failed"] = r["failed"]
            lines.append(
                f"| {matches}×{moves} | {names.get(name, name)} | {_n(rate)} | {_n(r.get('p50_ms'))} | "
                f"{_n(r.get('p99_ms'))} | {_n(r.get('cpu_ms_per_move'))} | {_n(ratio(sqlite, rate))} | "
                f"{_n(ratio(postgres, rate))} | {r.get('load_before')}→{r.get('load_after')}"
                f"{' ' + str(problems) if problems else ''} |"
            )
    return "\n".join([*lines, "", *targets(by_row)])


def targets(by_row: Mapping[tuple[int, int], Mapping[str, Mapping[str, Any]]]) -> list[str]:
    """PASS/MISS of issues 15, 23 and 28's grid targets, for each of ours that ran, in each submit
    mode that ran (``<name>+socket``: moves over the socket)."""
    out = []
    for name in (system for base in OURS for system in (base, base + "+socket")):
        base = name.removesuffix("+socket")
        label = "SQLite" if base == "ours-sqlite" else "PostgreSQL"
        if name != base:
            label += " (moves over the socket)"
        for (matches, moves), systems in by_row.items():
            ours = systems.get(name)
            if ours is None:
                continue
            row = f"{matches}×{moves}"
            peer = systems.get("bgio-pg")
            if peer is not None:
                r = ratio(ours.get("moves_per_s"), peer.get("moves_per_s"))
                text = f"{label} {row}: {r}× boardgame.io + PostgreSQL (target ≥ {TARGET_VS_BGIO_PG})"
                out.append(_verdict(r is not None and r >= TARGET_VS_BGIO_PG, text))
            peer = systems.get("bgio")
            if peer is not None and (matches, moves) == TARGET_ROW:
                r = ratio(ours.get("moves_per_s"), peer.get("moves_per_s"))
                text = f"{label} {row}: {r}× boardgame.io in memory (target ≥ {TARGET_VS_BGIO_MEMORY})"
                out.append(_verdict(r is not None and r >= TARGET_VS_BGIO_MEMORY, text))
            cpu = ours.get("cpu_ms_per_move")
            text = f"{label} {row}: server CPU {cpu} ms/move (target ≤ {TARGET_CPU_MS[base]})"
            out.append(_verdict(cpu is not None and cpu <= TARGET_CPU_MS[base], text))
            if (matches, moves) == TARGET_ROW:
                p99 = ours.get("p99_ms")
                text = f"{label} {row}: p99 {p99} ms (target ≤ {TARGET_P99_MS:.0f})"
                out.append(_verdict(p99 is not None and p99 <= TARGET_P99_MS, text))
    return out


def _verdict(ok: bool, text: str) -> str:
    return f"{'PASS' if ok else 'MISS'} {text}"


def _n(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    return f"{value:,}" if isinstance(value, int) else str(value)
