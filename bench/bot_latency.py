"""Human submits while strong bots think: the p99 of a person's submit with 50 games of strong
bots running against the same load without them, in one run (issue 29 item 3).

``python bench/bot_latency.py [--clients 8] [--duration 10] [--warmup 2] [--bot-games 50]
[--game SLUG] [--bot-game SLUG] [--rounds 2] [--json]``

Starts the real server (``python -m api serve``, SQLite in a temporary directory; rate limits off,
the same for every round) and alternates rounds: ``without`` (no bot game running) and ``with``
(``--bot-games`` games of two ``strong`` bots each, started just before the round and aborted
after it, so the next ``without`` round has none). Each round runs ``bench/loadgen.py submit``:
``--clients`` people, each on games of its own, GET choices → POST one choice in a loop; the
p50/p99 of the POSTs in the measured window. Reported per round: submits/s, p50, p99, the bot
decisions committed during the round, and the machine's load; then the ratio of the p99s.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from api_load import database, loadgen, serve  # noqa: E402  (bench/api_load.py)

TARGET_RATIO = 1.2
SERVER_ENV = {
    "TABLETOP_AUTO_MIGRATE": "true",
    "TABLETOP_RATE_LIMIT_ENABLED": "false",
    "TABLETOP_MAX_BOT_ONLY_GAMES": "1000",
    "TABLETOP_BOT_BUDGET_SECONDS": "1.0",
}


def start_bot_games(base: str, slug: str, count: int) -> list[tuple[str, str]]:
    """``count`` started games of two strong bots; their ids and host tokens."""
    games = []
    with httpx.Client(base_url=base, timeout=30) as client:
        for _ in range(count):
            game = client.post("/v1/games", json={"type": slug}).json()
            headers = {"Authorization": f"Bearer {game['host_token']}"}
            for _seat in range(2):
                joined = client.post(f"/v1/games/{game['id']}/seats", json={"bot": "strong"}, headers=headers)
                joined.raise_for_status()
            client.post(f"/v1/games/{game['id']}/start", headers=headers).raise_for_status()
            games.append((game["id"], game["host_token"]))
    return games


def bot_versions(base: str, games: list[tuple[str, str]]) -> int:
    """The sum of the games' versions: it grows by one per committed bot decision."""
    total = 0
    with httpx.Client(base_url=base, timeout=30) as client:
        for game_id, _ in games:
            total += int(client.get(f"/v1/games/{game_id}").json()["version"])
    return total


def abort_all(base: str, games: list[tuple[str, str]]) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        for game_id, token in games:
            client.post(f"/v1/games/{game_id}/abort", headers={"Authorization": f"Bearer {token}"})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python bench/bot_latency.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--bot-games", type=int, default=50)
    parser.add_argument("--game", default="im-schutze-der-burg", help="the people's game")
    parser.add_argument("--bot-game", default="carcassonne", help="the bots' game")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each kind, alternated")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="tabletop-bot-latency-") as scratch:
        directory = Path(scratch)
        with database(False, directory) as url:
            env = {"TABLETOP_DATABASE_URL": url, **SERVER_ENV}
            with serve([sys.executable, "-m", "api", "serve"], env, directory / "server.log") as server:
                for round_number in range(args.rounds):
                    for kind in ("without", "with"):
                        games = (
                            start_bot_games(server.base, args.bot_game, args.bot_games)
                            if kind == "with"
                            else []
                        )
                        if games:
                            time.sleep(2.0)  # every game has its first decision queued
                        before = bot_versions(server.base, games)
                        load = os.getloadavg()[0]
                        result = loadgen(
                            [
                                "submit",
                                "--base",
                                server.base,
                                "--game",
                                args.game,
                                "--clients",
                                str(args.clients),
                                "--warmup",
                                str(args.warmup),
                                "--duration",
                                str(args.duration),
                            ],
                            args.warmup + args.duration + 120,
                            server,
                        )
                        decisions = bot_versions(server.base, games) - before
                        abort_all(server.base, games)
                        rows.append(
                            {
                                "round": round_number + 1,
                                "bots": kind,
                                "submits_per_s": result.get("submits_per_s"),
                                "p50_ms": result.get("p50_ms"),
                                "p99_ms": result.get("p99_ms"),
                                "errors": result.get("errors"),
                                "bot_decisions": decisions,
                                "server_cpu_share": result.get("server_cpu_share"),
                                "load_1min": [round(load, 1), round(os.getloadavg()[0], 1)],
                            }
                        )
                        if not args.json:
                            print(json.dumps(rows[-1]), flush=True)
    p99 = {
        kind: [r["p99_ms"] for r in rows if r["bots"] == kind and r["p99_ms"] is not None]
        for kind in ("without", "with")
    }
    summary: dict[str, Any] = {"rows": rows}
    if p99["without"] and p99["with"]:
        ratio = (sum(p99["with"]) / len(p99["with"])) / (sum(p99["without"]) / len(p99["without"]))
        summary["p99_ratio_with_over_without"] = round(ratio, 2)
        summary["target"] = TARGET_RATIO
        summary["verdict"] = "PASS" if ratio <= TARGET_RATIO else "FAIL"
    print(json.dumps(summary if args.json else {k: v for k, v in summary.items() if k != "rows"}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
