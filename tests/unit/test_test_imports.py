"""No test module imports another: what tests share lives in ``tests/support``.

A test module (``test_*.py``) or a ``conftest.py`` is never imported, so running or deleting one
never changes another. Helpers shared across folders live in ``tests.support``; a helper used by
one folder only (a game's scenario builders) may sit beside its tests. ``bench/`` may use
``tests.support`` and nothing else of ``tests``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUPPORT = "tests.support"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """Every module a file imports (for ``from M import N``: ``M.N`` when that is a module), with
    its line; relative imports resolved."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            yield node.lineno, base
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                if is_module(candidate):
                    yield node.lineno, candidate


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def violation(importer: str, target: str) -> str | None:
    """Why ``importer`` may not import ``target``, or None when it may."""
    if target != "tests" and not target.startswith("tests."):
        return None
    leaf = target.rsplit(".", 1)[-1]
    if leaf.startswith("test_") or leaf == "conftest":
        return "a test module"
    if target == SUPPORT or target.startswith(SUPPORT + "."):
        return None
    if target == "tests":
        return None
    folder = importer.rsplit(".", 1)[0]
    if importer.startswith("tests.") and target.rsplit(".", 1)[0] == folder:
        return None  # a helper beside the tests that use it
    return f"a helper outside {SUPPORT}"


def violations(root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted([*(root / "tests").rglob("*.py"), *(root / "bench").rglob("*.py")]):
        importer = module_name(path)
        for line, target in imported(path):
            why = violation(importer, target)
            if why is not None:
                found.append(f"{path.relative_to(root)}:{line} imports {target}: {why}")
    return found


def test_no_module_imports_a_test_module_or_a_helper_outside_tests_support() -> None:
    found = violations()
    assert not found, "move what is shared into tests/support:\n" + "\n".join(found)


def test_the_rule_refuses_what_it_should() -> None:
    assert violation("tests.rest.test_a", "tests.rest.test_b") == "a test module"
    assert violation("tests.rest.test_a", "tests.rest.conftest") == "a test module"
    assert violation("tests.support.client", "tests.e2e.test_live_fanout") == "a test module"
    assert violation("tests.rest.test_a", "tests.e2e.helpers") == "a helper outside tests.support"
    assert violation("bench.save_cost", "tests.unit.carcassonne.support") == "a helper outside tests.support"
    assert violation("tests.rest.test_a", "tests.support.client") is None
    assert violation("tests.unit.carcassonne.test_bot", "tests.unit.carcassonne.support") is None
    assert violation("bench.save_cost", "tests.support.fakes") is None
    assert violation("tests.rest.test_a", "api.app") is None
