"""How pytest-xdist workers share out the suite.

``./run test`` runs the suite on several workers with ``--dist loadscope``: each module goes to
one worker whole, so the servers (and Chromium) that a module of ``tests/e2e`` or
``tests/browser`` shares between its tests start once. (``--dist loadgroup`` would let the other
directories spread test by test, but pytest-xdist 3.8 cannot group under pytest 9: it renames
``item._nodeid``, which pytest 9 no longer reads.)

The same pytest 9 change gives every operation's test that Schemathesis generates from one test
function the function's node id; xdist keys its work by node id and would run one of them
(2 of the 69 Schemathesis tests ran). Each such test gets back the id that names its operation.

With ``--no-loadscope-reorder`` workers take modules in collection order. On a worker the modules
whose single tests run longest (whole games in a browser, npm and tsc, deadlines and restarts) are
collected first, so that no worker starts one of them when the others are nearly done. A run in
one process keeps the usual order.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
LONGEST_FIRST = (
    "browser/test_keythedral.py",
    "e2e/test_typescript_client.py",
    "browser/test_carcassonne.py",
    "e2e/test_turn_clocks.py",
    "e2e/test_webhooks.py",
    "e2e/test_server_wide_limits.py",
    "e2e/test_startup.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    shared = Counter(item.nodeid for item in items)
    for item in items:
        if shared[item.nodeid] > 1 and item.parent is not None:
            item._id = item.parent.id.child(item.name)  # what pytest gives a node it names itself
    assert len({item.nodeid for item in items}) == len(items), "two tests share a node id"

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return

    def rank(item: pytest.Item) -> int:
        relative = item.path.resolve().relative_to(TESTS).as_posix()
        return LONGEST_FIRST.index(relative) if relative in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: everything else keeps its order
