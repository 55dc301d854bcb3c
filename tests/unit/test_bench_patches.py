"""The A/B baselines of ``bench/patches/`` still apply to the tree, so a before/after of a kept
path (``bench/ab.py --a-root``) can be rerun at any time. They are written with one line of
context (``git diff -U1``), so that edits near them (an import added above) do not break them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATCHES = sorted((ROOT / "bench" / "patches").glob("*.patch"))


def test_there_are_baselines() -> None:
    assert PATCHES


@pytest.mark.parametrize("patch", PATCHES, ids=[p.stem for p in PATCHES])
def test_the_baseline_applies_to_the_tree(patch: Path) -> None:
    checked = subprocess.run(
        ["git", "apply", "--check", str(patch)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr
