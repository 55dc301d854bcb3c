"""axe-core, the accessibility checker, injected into pages by the browser tests.

It is not in the repository: the pinned version is packed from npm at test time (``npm pack``) into
a cache outside the repository (``~/.cache/tabletop-tests``, or ``$TABLETOP_TEST_CACHE``), with its
licence (MPL-2.0) beside it, once per machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
CACHE = Path(os.environ.get("TABLETOP_TEST_CACHE", Path.home() / ".cache" / "tabletop-tests"))

SERIOUS = """
async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                   nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")) }));
}
"""


def axe_script() -> Path:
    """The path of axe.min.js, packed from npm into the cache the first time."""
    folder = CACHE / f"axe-core-{AXE_VERSION}"
    script = folder / "axe.min.js"
    if script.exists():
        return script
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("CI") == "true":
            pytest.fail("npm is needed to fetch axe-core for the accessibility tests")
        pytest.skip("no npm to fetch axe-core")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(
            [npm, "pack", f"axe-core@{AXE_VERSION}", "--silent"], cwd=scratch, check=True, timeout=300
        )
        with tarfile.open(next(Path(scratch).glob("axe-core-*.tgz"))) as archive:
            for name in ("axe.min.js", "LICENSE"):
                member = archive.extractfile(f"package/{name}")
                assert member is not None, name
                (folder / f"{name}.part").write_bytes(member.read())
    (folder / "LICENSE.part").replace(folder / "LICENSE")
    (folder / "axe.min.js.part").replace(script)
    return script


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """axe's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_script()))
    result: list[dict[str, Any]] = page.evaluate(SERIOUS)
    return result


RULE = """
async (rule) => {
  const only = { runOnly: { type: "rule", values: [rule] }, resultTypes: ["violations"] };
  const result = await axe.run(document, only);
  return result.violations.flatMap((v) => v.nodes.map((n) =>
    ({ id: v.id, target: n.target.join(" "), summary: n.failureSummary })));
}
"""


def rule_violations(page: Page, rule: str) -> list[dict[str, Any]]:
    """The nodes that break one axe rule, also one axe leaves out of its default run (an
    experimental one such as ``label-content-name-mismatch``)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_script()))
    result: list[dict[str, Any]] = page.evaluate(RULE, rule)
    return result
