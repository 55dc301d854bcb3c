"""What loading a game costs against its length, with kept states (``TABLETOP_HOT_STATES``) off
and on, interleaved in one run: ``.venv/bin/python bench/load_cost.py [--game carcassonne]``.

G games of bots on a fresh SQLite file (``synchronous=FULL``), played together to move N; then
rounds alternate between a repository without kept states and one with them, each loading every
game in turn (``get`` in its own unit of work, as a reader does: with kept states a reader gets a
copy, while a submit's ``get(for_update=True)`` takes the kept state itself and costs less) L times. More
games than Carcassonne's cache of 16 rebuilt boards, so a load without kept states rebuilds the
board as it does on a busy server. Prints the median ms per load at each N, and the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.registry import default_registry
from domain.services.bundle import Services
from persistence.clock import SystemClock
from persistence.database import create_db_engine
from persistence.hot_states import HotStates
from persistence.migrate import migrate
from persistence.pubsub import InProcessBroker
from persistence.uow import SqlUnitOfWorkFactory


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--steps", default="10,60,110", help="moves played before each measurement")
    parser.add_argument("--loads", type=int, default=5, help="loads of every game per round")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/load_cost.db"
        migrate(url)
        db = create_db_engine(url, sqlite_synchronous="FULL")
        registry = default_registry()
        factories = {
            "off": SqlUnitOfWorkFactory(db, registry),
            "on": SqlUnitOfWorkFactory(db, registry, HotStates(10 * args.games)),
        }
        games = Services.build(factories["on"], registry, InProcessBroker(), SystemClock())
        ids = []
        for number in range(args.games):
            created = games.lobby.create_game(args.game, None, f"load-cost-{number}")
            for _ in range(2):
                games.seats.join(created.match.id, "bot", "random", created.host_token)
            games.seats.start(created.match.id, created.host_token)
            ids.append(created.match.id)
        played = 0
        print(f"{args.game}, {args.games} games, load average {os.getloadavg()[0]:.1f}")
        print("| moves played | off ms/load | on ms/load | on ÷ off |\n|---|---|---|---|")
        for target in (int(step) for step in args.steps.split(",")):
            while played < target:
                for game_id in ids:
                    games.play.play_bot_turn(game_id)
                played += 1
            times: dict[str, list[float]] = {"off": [], "on": []}
            for number in range(args.rounds):
                order = ("off", "on") if number % 2 == 0 else ("on", "off")
                for name in order:
                    started = time.perf_counter()
                    for _ in range(args.loads):
                        for game_id in ids:
                            with factories[name]() as uow:
                                uow.games.get(game_id)
                    elapsed = time.perf_counter() - started
                    times[name].append(elapsed / (args.loads * len(ids)) * 1000)
            off, on = statistics.median(times["off"]), statistics.median(times["on"])
            print(f"| {played} | {off:.3f} | {on:.3f} | {on / off:.2f} |")
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
