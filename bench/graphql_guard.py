"""What refusing a fragment bomb costs (issue 19 item 1): the document whose fragments each
spread the next one twice, posted to ``/graphql`` in process, timed per fragment count.

``python bench/graphql_guard.py [--fragments 21,30,60,120] [--rounds 50]``

Prints, per fragment count, the document's size, the median and the slowest of ``rounds``
refusals (the whole request: parse, validation, the problem's JSON), and the number of selections
the limit check looked at (``visits``): it grows by the same step per fragment, while the
expanded document would double per fragment.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient  # noqa: E402
from graphql import OperationDefinitionNode, parse  # noqa: E402

from api.app import create_app  # noqa: E402
from api.graphql.limits import DocumentMeasure  # noqa: E402
from api.settings import Settings  # noqa: E402


def fragment_chain(fragments: int) -> str:
    lines = ["query { ...F0 }"]
    lines += [f"fragment F{n} on Query {{ ...F{n + 1} ...F{n + 1} }}" for n in range(fragments)]
    lines.append(f"fragment F{fragments} on Query {{ gameTypes {{ slug }} }}")
    return "\n".join(lines)


def visits(source: str) -> int:
    document = parse(source)
    measure = DocumentMeasure.of(document)
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            measure.operation(definition)
    return measure.visits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fragments", default="21,30,60,120")
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            database_url=f"sqlite:///{Path(folder) / 'bench.db'}",
            auto_migrate=True,
            rate_limit_per_second=1e6,
            rate_limit_burst=10**6,
            log_level="WARNING",
        )
        with TestClient(create_app(settings)) as client:
            print(f"{'fragments':>9} {'bytes':>6} {'median ms':>10} {'max ms':>8} {'visits':>7}  code")
            for fragments in (int(n) for n in args.fragments.split(",")):
                document = fragment_chain(fragments)
                times = []
                code = ""
                for _ in range(args.rounds):
                    started = time.perf_counter()
                    answer = client.post("/graphql", json={"query": document})
                    times.append(time.perf_counter() - started)
                    errors = answer.json().get("errors") or [{"extensions": {"code": "accepted"}}]
                    code = errors[0]["extensions"]["code"]
                print(
                    f"{fragments:>9} {len(document):>6} {statistics.median(times) * 1000:>10.2f} "
                    f"{max(times) * 1000:>8.2f} {visits(document):>7}  {code}"
                )


if __name__ == "__main__":
    main()
