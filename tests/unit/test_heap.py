"""The server's collector settings (``api.entrypoints.heap``): frozen while serving, restored after."""

from __future__ import annotations

import gc

from api.entrypoints.heap import frozen_start_up_heap


def test_the_start_up_heap_is_frozen_while_serving_and_released_after() -> None:
    before = gc.get_threshold()
    start_up = [object(), {"kept": "alive"}]

    with frozen_start_up_heap(40_000):
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (40_000, before[1], before[2])
        assert start_up  # alive at the freeze: among the frozen objects

    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_a_threshold_of_zero_leaves_the_collector_alone() -> None:
    before = gc.get_threshold()
    with frozen_start_up_heap(0):
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == before
