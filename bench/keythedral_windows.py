"""How many clicks Keythedral's law windows add to a game, with bots at the seats.

``python bench/keythedral_windows.py [--players 4] [--games 20] [--bots greedy,random] [--seed S]``

Counts, per game: the law windows opened, the seats asked in them (one click each), how many
of those clicks played a card and how many passed, and the decisions kept open with a single
choice because a hidden hand might have offered more (``held``: one click each); beside them,
every click of the game. Windows and held decisions are what the secrecy of the law cards
costs: a seat without a playable card still clicks "pass".
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from domain.bots import choose, context_for  # noqa: E402
from domain.games.keythedral import ENGINE, GAME  # noqa: E402
from domain.model.seeding import rng_for_seed  # noqa: E402


def play(players: int, seed: str, bots: list[str]) -> dict[str, int]:
    state, _ = ENGINE.setup(players, ENGINE.meta.resolve_options(None), rng_for_seed(seed))
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    counts = {"clicks": 0, "windows": 0, "window_clicks": 0, "plays": 0, "held": 0, "rounds": 0}
    while (decision := ENGINE.decision(state)) is not None:
        choices = {}
        for seat in decision.seats:
            context = context_for(ENGINE, state, decision, seat, GAME.search)
            choices[seat] = choose(bots[seat % len(bots)], context, rngs[seat])
        counts["clicks"] += len(decision.seats)
        if decision.kind == "law_window":
            counts["windows"] += 1
            counts["window_clicks"] += len(decision.seats)
            kind = f"clicks_{decision.data['window']}"
            counts[kind] = counts.get(kind, 0) + len(decision.seats)
            counts["plays"] += sum(c.get("action") == "play" for c in choices.values())
        elif len(ENGINE.legal_choices(state, decision.seats[0])) == 1:
            counts["held"] += 1
        ENGINE.apply(state, choices)
    counts["rounds"] = state.round
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--seed", default="windows")
    args = parser.parse_args()
    bots = args.bots.split(",")
    games = [play(args.players, f"{args.seed}-{k}", bots) for k in range(args.games)]
    print(f"{args.games} games, {args.players} players, bots {args.bots}: mean per game (min-max)")
    keys = sorted({k for g in games for k in g})
    for key in keys:
        values = [g.get(key, 0) for g in games]
        print(f"  {key:<14} {statistics.mean(values):8.1f}   ({min(values)}-{max(values)})")
    passes = [g["window_clicks"] - g["plays"] + g["held"] for g in games]
    share = [p / g["clicks"] for p, g in zip(passes, games, strict=True)]
    print(
        f"  extra clicks   {statistics.mean(passes):8.1f}   (window passes + held), "
        f"{statistics.mean(share):.1%} of all clicks"
    )


if __name__ == "__main__":
    main()
