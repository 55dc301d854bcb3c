"""How long ``./run serve`` (until it listens) and ``./run test --co -q`` take from a fresh clone.

The set-up is most of a newcomer's first wait and of every CI run, so it is measured the way they
meet it: a ``git clone`` of this checkout into a temporary folder (no ``.venv``, no mypy cache),
with the machine's package caches as they are, or empty (``--empty-cache``: the user's cache
folder, so pip's, uv's and ./run's own uv, pointed at a new folder: every wheel is downloaded, as
on a new machine). ``--rev A --rev B`` measures two commits in alternating rounds, so both meet
the same load (default: HEAD). The install's share is read from the moment ``./run`` stamps
``.venv/.installed-*``. Loopback only; the server is stopped and the clone removed.

    .venv/bin/python bench/cold_start.py serve [--empty-cache] [--runs N] [--rev COMMIT ...]
    .venv/bin/python bench/cold_start.py test [--empty-cache] [--runs N] [--rev COMMIT ...]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT_S = 900.0


@dataclass
class Timing:
    install_s: float
    total_s: float
    """Until ``./run test`` ended, or until ``./run serve`` logged that it listens."""
    answered_s: float
    """Until the server answered ``/healthz`` (its workers import the app after it listens)."""
    load_before: float
    load_after: float


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def first_answer(port: int) -> float:
    """When ``/healthz`` first answers 200 (``time.monotonic``)."""
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
                if answer.status == 200:
                    return time.monotonic()
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.05)


def environment(scratch: Path, empty_cache: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TABLETOP_", "VIRTUAL_ENV"))}
    env["TABLETOP_DATABASE_URL"] = f"sqlite:///{scratch / 'tabletop.db'}"
    if empty_cache:
        env["XDG_CACHE_HOME"] = str(scratch / "cache")
        env["PIP_CACHE_DIR"] = str(scratch / "cache" / "pip")
        env["UV_CACHE_DIR"] = str(scratch / "cache" / "uv")
    return env


def measure(command: str, empty_cache: bool, rev: str) -> Timing:
    with tempfile.TemporaryDirectory(prefix="tabletop-cold-") as folder:
        scratch = Path(folder)
        clone = scratch / "repo"
        subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "checkout", "--quiet", rev], cwd=clone, check=True)
        env = environment(scratch, empty_cache)
        log = scratch / "run.log"
        stamp = clone / ".venv" / f".installed-{'serve' if command == 'serve' else 'dev'}"
        port = free_port()
        argv = (
            ["./run", "serve", "--port", str(port)] if command == "serve" else ["./run", "test", "--co", "-q"]
        )
        load_before = os.getloadavg()[0]
        with log.open("wb") as out:
            started = time.monotonic()
            process = subprocess.Popen(
                argv, cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
            installed = None
            try:
                while True:
                    now = time.monotonic()
                    if installed is None and stamp.exists():
                        installed = now - started
                    if command == "serve" and "listening on" in log.read_text(errors="replace"):
                        listening = now - started
                        answered = first_answer(port) - started
                        break
                    code = process.poll()
                    if code is not None:
                        if command == "serve" or code != 0:
                            sys.exit(f"./run {command} exited {code}:\n{log.read_text()[-3000:]}")
                        break
                    if now - started > LIMIT_S:
                        sys.exit(f"./run {command} took over {LIMIT_S:.0f} s:\n{log.read_text()[-3000:]}")
                    time.sleep(0.05)
                total = time.monotonic() - started
                if command == "test":
                    listening = answered = total
            finally:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGTERM)
                    try:
                        process.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        os.killpg(process.pid, signal.SIGKILL)
                        process.wait()
        if installed is None:
            sys.exit(f"./run {command} never stamped {stamp.name}")
        return Timing(installed, listening, answered, load_before, os.getloadavg()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["serve", "test"])
    parser.add_argument("--empty-cache", action="store_true", help="download every package again")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--rev", action="append", help="a commit to measure (repeatable: rounds alternate them); default HEAD"
    )
    options = parser.parse_args()
    revs = [
        subprocess.run(
            ["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        for rev in options.rev or ["HEAD"]
    ]
    cache = "empty" if options.empty_cache else "as is"
    print(f"./run {options.command} from a fresh clone, package caches {cache}")
    print("run | commit | install s | total s | first answer s | load average before -> after")
    for index in range(options.runs):
        for rev in revs:
            timing = measure(options.command, options.empty_cache, rev)
            print(
                f"{index + 1} | {rev} | {timing.install_s:.1f} | {timing.total_s:.1f} | "
                f"{timing.answered_s:.1f} | {timing.load_before:.1f} -> {timing.load_after:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
