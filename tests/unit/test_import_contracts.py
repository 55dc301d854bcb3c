"""The import-linter contract type of ours (``tests/support/import_contracts.py``) finds a cycle between two
modules wherever they sit, and only then."""

from __future__ import annotations

from grimp import ImportGraph

from tests.support.import_contracts import AcyclicModulesContract


def graph_of(*imports: tuple[str, str]) -> ImportGraph:
    graph = ImportGraph()
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported)
    return graph


def cycles(graph: ImportGraph) -> list[list[str]]:
    contract = AcyclicModulesContract(
        name="no cycles", session_options={}, contract_options={"packages": ["shop"]}
    )
    check = contract.check(graph, verbose=False)
    assert check.kept is (check.metadata["cycles"] == [])
    found: list[list[str]] = check.metadata["cycles"]
    return found


def test_a_module_importing_one_that_imports_it_back_is_a_cycle_across_packages() -> None:
    graph = graph_of(
        ("shop.catalog", "shop.games.chess.catalog"),
        ("shop.games.chess.catalog", "shop.rules"),
        ("shop.rules", "shop.catalog"),
        ("shop.api", "shop.catalog"),
    )
    assert cycles(graph) == [["shop.catalog", "shop.games.chess.catalog", "shop.rules"]]


def test_packages_that_import_each_other_through_different_modules_are_no_cycle() -> None:
    graph = graph_of(("shop.rest.routers", "shop.live.sse"), ("shop.live.stream", "shop.rest.models"))
    assert cycles(graph) == []


def test_each_separate_cycle_is_named_once() -> None:
    graph = graph_of(("shop.a", "shop.b"), ("shop.b", "shop.a"), ("shop.c", "shop.d"), ("shop.d", "shop.c"))
    assert sorted(cycles(graph)) == [["shop.a", "shop.b"], ["shop.c", "shop.d"]]
