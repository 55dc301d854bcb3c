"""The web client's modules pass TypeScript's checker (``tsc --checkJs``, strict null checks).

The client is plain JavaScript served as it is; JSDoc comments carry its types. TypeScript, pinned
by ``web/package-lock.json``, is installed at test time from npm into a cache outside the repository
(``~/.cache/tabletop-tests``, or ``$TABLETOP_TEST_CACHE``), once per version, through npm's own cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from api.pages.web_client import web_root

CACHE = Path(os.environ.get("TABLETOP_TEST_CACHE", Path.home() / ".cache" / "tabletop-tests"))


def web() -> Path:
    root = web_root()
    assert root is not None
    return root


def typescript() -> Path:
    """The ``tsc`` script of the locked TypeScript, installed by ``npm ci`` the first time."""
    lock = (web() / "package-lock.json").read_bytes()
    folder = CACHE / f"web-typescript-{hashlib.sha256(lock).hexdigest()[:16]}"
    tsc = folder / "node_modules" / "typescript" / "bin" / "tsc"
    if tsc.exists():
        return tsc
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("CI") == "true":
            pytest.fail("npm is needed to install TypeScript for the web client's type check")
        pytest.skip("no npm to install TypeScript")
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as scratch:
        for name in ("package.json", "package-lock.json"):
            shutil.copy(web() / name, Path(scratch) / name)
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--silent"],
            cwd=scratch,
            check=True,
            timeout=300,
        )
        try:
            Path(scratch).rename(folder)
        except OSError:  # another run installed the same lock meanwhile
            assert tsc.exists(), folder
    return tsc


def test_every_module_asks_for_the_check_and_none_opts_out() -> None:
    modules = sorted((web() / "js").rglob("*.js"))
    assert modules
    for path in modules:
        code = path.read_text()
        assert code.startswith("// @ts-check\n"), path
        for escape in ("@ts-ignore", "@ts-nocheck", "@ts-expect-error"):
            assert escape not in code, (path, escape)


def test_the_web_client_type_checks() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is needed for the web client's type check")
        pytest.skip("no node to run tsc")
    done = subprocess.run(
        [node, str(typescript()), "-p", str(web() / "tsconfig.json")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
