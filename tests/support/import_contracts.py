"""An import-linter contract type that import-linter lacks: no import cycle between two modules.

``acyclic_siblings`` judges packages as wholes (``api.rest`` importing ``api.live`` and
``api.live.sse`` importing ``api.rest.models`` is a cycle to it, although no module is on one).
This one follows module to module, so a cycle such as ``domain.catalog`` importing a game's
catalog that imports ``domain.catalog`` back is caught wherever the two modules sit. Configured in
pyproject.toml (``[tool.importlinter]``), run by ``lint-imports`` in ``./run test``."""

from __future__ import annotations

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


class AcyclicModulesContract(Contract):
    """No module of ``packages`` imports, directly or not, a module that imports it back."""

    type_name = "acyclic_modules"
    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        roots = tuple(str(package) for package in self.packages)  # type: ignore[attr-defined]
        ours = sorted(m for m in graph.modules if m in roots or m.startswith(tuple(f"{r}." for r in roots)))
        imports = {m: sorted(set(graph.find_modules_directly_imported_by(m)) & set(ours)) for m in ours}
        cycles = [_one_cycle(graph, group) for group in _strongly_connected(ours, imports) if len(group) > 1]
        return ContractCheck(kept=not cycles, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error(" -> ".join([*cycle, cycle[0]]))
            output.new_line()


def _strongly_connected(modules: list[str], imports: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm, without recursion: each group of modules that import each other."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in modules:
        if start in order:
            continue
        work = [(start, 0)]
        while work:
            module, next_edge = work.pop()
            if next_edge == 0:
                order[module] = low[module] = len(order)
                stack.append(module)
                on_stack.add(module)
            targets = imports[module]
            if next_edge < len(targets):
                work.append((module, next_edge + 1))
                target = targets[next_edge]
                if target not in order:
                    work.append((target, 0))
                elif target in on_stack:
                    low[module] = min(low[module], order[target])
                continue
            if low[module] == order[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                groups.append(sorted(group))
            if work:
                caller = work[-1][0]
                low[caller] = min(low[caller], low[module])
    return groups


def _one_cycle(graph: ImportGraph, group: list[str]) -> list[str]:
    """A shortest cycle through the group's first module, to name in the report."""
    first = group[0]
    for target in sorted(graph.find_modules_directly_imported_by(first)):
        if target in group:
            back = graph.find_shortest_chain(importer=target, imported=first)
            if back is not None:
                return [first, *back[:-1]]
    return group
