"""What counting the limits in the supervisor's hub costs per request (issue 19 item 6).

``python bench/limit_hub.py [--hits 20000] [--concurrency 1,32] [--rounds 3]``

Charges ``hits`` requests to ``RateLimiter.hit`` (the call every request makes) with the limiter
counting in process (one worker, as before) and through a ``LimitHub`` run in another process
on a Unix socket (the supervisor's, as ``serve --workers N`` does now), ``concurrency`` charges in
flight at a time, in alternating rounds. Prints, per charge (medians of the rounds): wall-clock
microseconds, and CPU microseconds of the worker and of the hub process (CPU does not depend on
how busy the machine is; wall clock does). Keys cycle over 1,000 client addresses with a budget
that never refuses, so only the counting is compared.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api.edge.rate_limits import RateLimiter  # noqa: E402
from api.settings import Settings  # noqa: E402
from persistence.limits.hub import LimitHub  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def charge(limiter: RateLimiter, hits: int, concurrency: int) -> tuple[float, float]:
    """Wall-clock and CPU seconds of this process per charge."""
    keys = [f"a:10.0.{n // 250}.{n % 250}" for n in range(1000)]
    started, cpu = time.perf_counter(), time.process_time()

    async def lane(offset: int) -> None:
        for n in range(offset, hits, concurrency):
            verdict = await limiter.hit(keys[n % len(keys)])
            assert verdict.allowed

    await asyncio.gather(*(lane(k) for k in range(concurrency)))
    return (time.perf_counter() - started) / hits, (time.process_time() - cpu) / hits


def run_hub(path: str) -> None:
    async def serve() -> None:
        await LimitHub(path).start()
        await asyncio.Event().wait()

    asyncio.run(serve())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hits", type=int, default=20_000)
    parser.add_argument("--concurrency", default="1,32")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "limits.sock")
        supervisor = multiprocessing.get_context("spawn").Process(target=run_hub, args=(path,), daemon=True)
        supervisor.start()
        while not Path(path).exists():
            time.sleep(0.05)
        local_budget = Settings(rate_limit_per_second=1e6, rate_limit_burst=10**7, database_url="sqlite://")
        hub_budget = local_budget.model_copy(update={"limit_hub": path})
        print("in flight | in process: wall µs, CPU µs | through hub: wall µs, worker CPU µs, hub CPU µs")
        for concurrency in (int(c) for c in args.concurrency.split(",")):
            local: list[tuple[float, float]] = []
            shared: list[tuple[float, float, float]] = []
            for _ in range(args.rounds):
                local.append(asyncio.run(charge(RateLimiter(local_budget), args.hits, concurrency)))
                hubbed = RateLimiter(hub_budget)
                hub_cpu = cpu_seconds(supervisor.pid or 0)
                wall, cpu = asyncio.run(charge(hubbed, args.hits, concurrency))
                shared.append((wall, cpu, (cpu_seconds(supervisor.pid or 0) - hub_cpu) / args.hits))
            a, b = (statistics.median(x[i] for x in local) * 1e6 for i in range(2))
            c, d, e = (statistics.median(x[i] for x in shared) * 1e6 for i in range(3))
            print(f"{concurrency:>9} | {a:8.1f} {b:8.1f} | {c:8.1f} {d:8.1f} {e:8.1f}")
        supervisor.terminate()


if __name__ == "__main__":
    main()
