"""Summarise a py-spy profile in its raw (collapsed stacks) format: where the samples are.

``python bench/profile_summary.py FILE [--top 25]``

Prints the share of samples by area (a sample counts once for every area on its stack, so the
shares add up to more than 100%), then the functions with the most own samples (leaf frames).
``bench/peers.py --py-spy DIR`` writes such files for our servers during the grid rows.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Area → substrings of a frame's "function (file:line)" text; the first area that matches wins.
AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("domain (rules, views)", ("/domain/",)),
    ("persistence (ours)", ("/persistence/",)),
    ("api (ours)", ("/api/",)),
    ("SQLAlchemy / SQLModel", ("/sqlalchemy/", "/sqlmodel/")),
    ("database driver", ("/sqlite3", "/psycopg/", "/psycopg_pool/", "/redis/")),
    ("GraphQL (strawberry, graphql-core)", ("/strawberry/", "/graphql/")),
    ("FastAPI / Starlette", ("/fastapi/", "/starlette/")),
    ("pydantic", ("/pydantic/", "/pydantic_core/")),
    ("uvicorn / h11 / httptools", ("/uvicorn/", "/h11/", "/httptools/")),
    ("websockets", ("/websockets/", "/wsproto/")),
    ("anyio / thread hops", ("/anyio/", "/threading.py", "/concurrent/futures/")),
    ("asyncio", ("/asyncio/",)),
    ("json", ("/json/", "/orjson")),
    ("logging", ("/logging/",)),
)


def parse_collapsed(lines: Iterable[str]) -> list[tuple[list[str], int]]:
    """``"a (f.py:1);b (g.py:2) 7"`` → ``[(["a (f.py:1)", "b (g.py:2)"], 7)]``; blank lines skipped."""
    stacks = []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        frames, _, count = line.rpartition(" ")
        stacks.append((frames.split(";"), int(count)))
    return stacks


def area_of(frame: str) -> str | None:
    """The area of a frame, from its file: py-spy writes paths under site-packages relative
    (``sqlalchemy/engine/default.py``) and others absolute, hence the leading ``/`` added."""
    where = "/" + frame[frame.rfind("(") + 1 :]
    for area, needles in AREAS:
        if any(needle in where for needle in needles):
            return area
    return None


@dataclass(frozen=True, slots=True)
class Summary:
    samples: int
    areas: list[tuple[str, float]]
    """(area, % of samples with it on the stack), most first."""
    own: list[tuple[str, float]]
    """(leaf frame, % of samples), most first."""


def summarise(stacks: Sequence[tuple[list[str], int]], top: int = 25) -> Summary:
    total = sum(count for _, count in stacks)
    areas: Counter[str] = Counter()
    own: Counter[str] = Counter()
    for frames, count in stacks:
        for area in {a for a in map(area_of, frames) if a is not None}:
            areas[area] += count
        own[frames[-1]] += count
    if not total:
        return Summary(0, [], [])
    return Summary(
        total,
        [(area, round(100 * n / total, 1)) for area, n in areas.most_common()],
        [(frame, round(100 * n / total, 1)) for frame, n in own.most_common(top)],
    )


def report(summary: Summary) -> str:
    lines = [f"{summary.samples} samples", "", "share of samples with the area on the stack:"]
    lines += [f"  {share:5.1f}%  {area}" for area, share in summary.areas]
    lines += ["", "most own samples (leaf frame):"]
    lines += [f"  {share:5.1f}%  {frame}" for frame, share in summary.own]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("file")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    with open(args.file) as handle:
        print(report(summarise(parse_collapsed(handle), args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
