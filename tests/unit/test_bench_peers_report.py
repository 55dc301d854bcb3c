"""The pure helpers of ``bench/peers.py`` (``bench/peers_report.py``): /proc parsing, per-move
figures and the side-by-side table."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from peers_report import (  # bench/ is not a package: found through sys.path
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

NAMES = {"bgio": "bgio", "bgio-pg": "bgio+pg", "ours-sqlite": "us sqlite", "ours-pg": "us pg"}


def test_grid_rows_parse_with_either_times_sign() -> None:
    assert parse_grid("1x2000, 50×100,") == [(1, 2000), (50, 100)]
    with pytest.raises(ValueError):
        parse_grid("0x10")
    with pytest.raises(ValueError):
        parse_grid("")


def test_stat_fields_are_counted_after_the_last_parenthesis_of_the_command_name() -> None:
    # comm "(a) b)" holds a space and a parenthesis; ppid 77, utime 1200, stime 34.
    text = "4242 ((a) b)) S 77 4242 4242 0 -1 4194304 100 0 0 0 1200 34 0 0 20 0 3 0 100 0 0"
    assert parse_stat(text) == (77, 1234)


def test_vm_rss_is_read_in_kib_and_missing_means_zero() -> None:
    assert parse_vm_rss_kib("Name:\tnode\nVmPeak:\t 900 kB\nVmRSS:\t  81068 kB\n") == 81068
    assert parse_vm_rss_kib("Name:\tzombie\nState:\tZ\n") == 0


def test_per_move_and_per_item_figures() -> None:
    assert cpu_ms_per_move(1.5, 1000) == 1.5
    assert cpu_ms_per_move(1.5, 0) is None
    assert per_item_kib(1000, 3000, 200) == 10.0
    assert per_item_kib(None, 3000, 200) is None


def test_early_moves_are_compared_with_the_last_hundred_of_the_longest_game() -> None:
    trace = [[n, 2.0] for n in range(1, 1001)]
    for n in range(901, 1001):
        trace[n - 1] = [n, 3.0]
    trace.append([7, 2.0])  # an earlier, shorter game adds early samples only
    summary = early_late(trace)
    assert summary == {"length": 1000, "early_ms": 2.0, "late_ms": 3.0, "ratio": 1.5}
    assert early_late([[n, 1.0] for n in range(1, 50)])["late_ms"] is None  # too short to tell


def test_table_shows_ours_over_each_system_and_the_targets() -> None:
    rows = [
        {
            "system": s,
            "matches": 50,
            "moves_per_match": 100,
            "moves_per_s": rate,
            "p50_ms": 5.0,
            "p99_ms": p99,
            "cpu_ms_per_move": cpu,
            "load_before": 1.0,
            "load_after": 1.2,
        }
        for s, rate, p99, cpu in (
            ("bgio", 3000.0, 40.0, 0.4),
            ("bgio-pg", 300.0, 240.0, 2.7),
            ("ours-sqlite", 900.0, 45.0, 0.9),
            ("ours-pg", 450.0, 60.0, 1.5),
            ("ours-pg+socket", 700.0, 50.0, 1.6),
        )
    ]
    rows[0]["stalled"] = 1
    table = grid_table(rows, NAMES)
    assert "| 50×100 | bgio+pg | 300 | 5.00 | 240 | 2.70 | 3.00 | 1.50 | 1.0→1.2 |" in table
    assert "| 50×100 | bgio | 3,000 | 5.00 | 40.00 | 0.40 | 0.30 | 0.15 | 1.0→1.2 {'stalled': 1} |" in table
    assert "PASS SQLite 50×100: 3.0× boardgame.io + PostgreSQL" in table
    assert "MISS PostgreSQL 50×100: 1.5× boardgame.io + PostgreSQL" in table
    assert "MISS SQLite 50×100: 0.3× boardgame.io in memory" in table
    assert "PASS SQLite 50×100: server CPU 0.9 ms/move" in table
    assert "MISS PostgreSQL 50×100: p99 60.0 ms" in table
    assert "PASS PostgreSQL 50×100: server CPU 1.5 ms/move (target ≤ 1.5)" in table
    # moves over the socket: a row and targets of their own
    assert "| 50×100 | ours-pg+socket | 700 |" in table
    assert "PASS PostgreSQL (moves over the socket) 50×100: 2.33× boardgame.io + PostgreSQL" in table
    assert "MISS PostgreSQL (moves over the socket) 50×100: server CPU 1.6 ms/move (target ≤ 1.5)" in table
    assert "PASS PostgreSQL (moves over the socket) 50×100: p99 50.0 ms" in table


def test_profile_summary_counts_areas_once_per_stack_and_leaf_frames_as_own_time() -> None:
    from profile_summary import parse_collapsed, summarise

    lines = [
        "run (/x/uvicorn/main.py:1);submit (/x/api/routers/games.py:9);apply (/x/domain/games/c.py:3) 3\n",
        "run (/x/uvicorn/main.py:1);execute (/x/sqlalchemy/engine.py:5);commit (sqlite3:0) 1\n",
        "\n",
    ]
    summary = summarise(parse_collapsed(lines), top=2)
    assert summary.samples == 4
    assert dict(summary.areas) == {
        "uvicorn / h11 / httptools": 100.0,
        "api (ours)": 75.0,
        "domain (rules, views)": 75.0,
        "SQLAlchemy / SQLModel": 25.0,
        "database driver": 25.0,
    }
    assert summary.own == [("apply (/x/domain/games/c.py:3)", 75.0), ("commit (sqlite3:0)", 25.0)]


def test_a_failed_row_is_tried_once_more_then_reported_with_its_error() -> None:
    calls: list[int] = []
    logged: list[str] = []

    def flaky() -> dict[str, object]:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("socket hang up")
        return {"moves_per_s": 10.0}

    assert attempt("row", flaky, {"system": "bgio"}, logged.append) == {"moves_per_s": 10.0}
    assert len(calls) == 2 and "socket hang up" in logged[0]

    def broken() -> dict[str, object]:
        raise RuntimeError("bgio sync timeout")

    failed = attempt("row", broken, {"system": "bgio"}, logged.append)
    assert failed["system"] == "bgio" and "bgio sync timeout" in failed["failed"]
    assert len(logged) == 3


def test_a_failed_row_shows_dashes_and_why_in_the_table() -> None:
    rows = [
        {"system": "bgio", "matches": 50, "moves_per_match": 100, "failed": "RuntimeError: timeout"},
        {
            "system": "ours-sqlite",
            "matches": 50,
            "moves_per_match": 100,
            "moves_per_s": 300.0,
            "p50_ms": 5.0,
            "p99_ms": 40.0,
            "cpu_ms_per_move": 1.0,
            "load_before": 1,
            "load_after": 1,
        },
    ]
    table = grid_table(rows, NAMES)
    failed_line = next(line for line in table.splitlines() if line.startswith("| 50×100 | bgio |"))
    assert "| - | - | - |" in failed_line and "RuntimeError: timeout" in failed_line
    assert "MISS SQLite 50×100: None× boardgame.io in memory" in table


def test_ports_come_from_the_given_range_and_skip_a_port_in_use() -> None:
    assert parse_port_range("21000-21002") == range(21000, 21003)
    with pytest.raises(ValueError):
        parse_port_range("80-90")
    for _ in range(20):  # another process may hold the port after ours: try another pair
        with socket.socket() as holder:
            holder.bind(("127.0.0.1", 0))
            held = holder.getsockname()[1]
            try:
                taken = PortPool(range(held, held + 2)).take()
            except RuntimeError:
                continue
            assert taken == held + 1  # held is in use
            return
    pytest.fail("every port after one of ours was in use, or the pool never skips a port in use")
