"""The collector's settings for a server process (Instagram's ``gc.freeze()``).

Everything alive once the app has started (modules, schemas, the registry, pools) is moved out of
the collector's reach, so a full collection no longer walks it; and the youngest generation is
collected after many more allocations than Python's default 700, since a request allocates
hundreds of short-lived objects, nearly all freed by reference counting. Measured in
bench/README.md ("Issue 23").
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_start_up_heap(young_threshold: int) -> Iterator[None]:
    """While the server runs; ``young_threshold`` 0 leaves the collector as Python sets it.
    On exit the heap is unfrozen and the thresholds restored (tests start many apps in one
    process: what each froze must become collectable again)."""
    if young_threshold <= 0:
        yield
        return
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(young_threshold, before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
