"""The checks on a GraphQL document cost time linear in its size (issue 19 item 1): fragments
that spread the next one twice are measured once each, not expanded, and the totals stay exact;
a document still running at the deadline is stopped with a problem."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from graphql import OperationDefinitionNode, parse

from api.graphql.deadline import WithinDeadline
from api.graphql.limits import DocumentMeasure
from tests.support.graphql import fragment_chain


def measured(source: str) -> tuple[int, int, int]:
    document = parse(source)
    measure = DocumentMeasure.of(document)
    (operation,) = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    tally = measure.operation(operation)
    return tally.cost, tally.roots, measure.visits


def test_a_fragment_chain_is_measured_exactly_with_work_linear_in_its_fragments() -> None:
    works = {}
    for fragments in (10, 21, 30, 60):
        cost, roots, visits = measured(fragment_chain(fragments))
        assert cost == 2 * 2**fragments  # gameTypes + slug, once per leaf of the expansion
        assert roots == 2**fragments
        works[fragments] = visits
    per_fragment = (works[30] - works[21]) / 9
    assert per_fragment == (works[60] - works[30]) / 30 == (works[21] - works[10]) / 11
    assert works[60] < 4 * 60


def test_list_sizes_count_at_the_top_level_only_through_fragments_too() -> None:
    source = """query { ...Top }
    fragment Top on Query { games(limit: 7) { ...Item } }
    fragment Item on GamePage { items { id } }"""
    cost, roots, _ = measured(source)
    assert (cost, roots) == (1 + 7 * 2, 1)


def test_cyclic_fragments_end_the_measure() -> None:
    cost, _, visits = measured("query { ...A } fragment A on Query { ...B } fragment B on Query { ...A x }")
    assert (cost, visits) == (1, 4)


class SlowSchema:
    """Stands for Strawberry's schema: an operation that would run far longer than the deadline."""

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(30)
        return "finished"

    async def stream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async def results() -> AsyncIterator[Any]:
            await asyncio.sleep(30)
            yield "finished"

        return results()


class Guarded(WithinDeadline, SlowSchema):
    deadline_seconds = 0.05


def test_an_operation_outlasting_the_deadline_is_stopped_with_a_problem() -> None:
    async def run() -> tuple[Any, list[Any]]:
        schema = Guarded()
        query = "{ games { ... on GamePage { total } } }"
        answered = await schema.execute(query)
        streamed = [result async for result in await schema.stream(query)]
        return answered, streamed

    answered, streamed = asyncio.run(asyncio.wait_for(run(), 10))
    for result in [answered, *streamed]:
        (error,) = result.errors
        assert error.extensions == {"code": "graphql_deadline_exceeded"}
    assert len(streamed) == 1
