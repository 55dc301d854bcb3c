"""The TypeScript client sample (clients/typescript) against a real server on 127.0.0.1.

It installs the pinned npm packages (package-lock.json; npm's cache in the sample's ignored
``.npm-cache``, and no reinstall while ``node_modules`` holds that lock's packages),
generates a REST client from the served /openapi.json and GraphQL types from the served schema,
compiles them with ``tsc --strict``, then plays a whole game of each type through each API against
random bots and verifies the Standard Webhooks signatures of a host's endpoint on 127.0.0.1. Any
error (install, generation, compilation, a refused move, a bad signature) fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import running_server

pytestmark = pytest.mark.timeout(900)
SAMPLE = Path(__file__).resolve().parents[2] / "clients" / "typescript"
GAMES = ("im-schutze-der-burg", "keythedral", "carcassonne")
NPM_CACHE = SAMPLE / ".npm-cache"
INSTALLED = SAMPLE / "node_modules" / ".installed-from-lock"
"""A copy of the package-lock.json the packages in node_modules were installed from."""


def run(*command: str, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        command, cwd=SAMPLE, env={**os.environ, **(env or {})}, capture_output=True, text=True,
        timeout=timeout, check=False,
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def test_the_sample_source_has_no_casts_and_no_non_null_assertions() -> None:
    for path in sorted((SAMPLE / "src").glob("*.ts")):
        code = re.sub(r"//.*|/\*.*?\*/", "", path.read_text(), flags=re.S)
        assert not re.search(r"\bas\s+(?!const\b)[\w{(\[]", code), f"{path.name}: an `as` cast"
        assert not re.search(r"\bas\s+const\b", code), f"{path.name}: `as const`"
        assert not re.search(r"[\w)\]]!(?!=)", code), f"{path.name}: a `!` non-null assertion"


def install() -> None:
    """``npm ci`` from the lock, unless node_modules already holds exactly its packages."""
    lock = (SAMPLE / "package-lock.json").read_text()
    if INSTALLED.exists() and INSTALLED.read_text() == lock:
        return
    run("npm", "ci", "--no-audit", "--no-fund", "--prefer-offline",
        env={"npm_config_cache": str(NPM_CACHE)})
    INSTALLED.write_text(lock)


def test_generated_clients_compile_strictly_and_play_every_game(tmp_path: Path) -> None:
    for tool in ("node", "npm"):
        assert shutil.which(tool), f"{tool} is needed (Debian: apt-get install nodejs npm)"
    env = {
        "TABLETOP_DATABASE_URL": f"sqlite:///{tmp_path / 'tabletop.db'}",
        "TABLETOP_AUTO_MIGRATE": "true",
        "TABLETOP_RATE_LIMIT_PER_SECOND": "100000",
        "TABLETOP_RATE_LIMIT_BURST": "100000",
        "TABLETOP_WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",  # the receiver is on 127.0.0.1
        "TABLETOP_WEBHOOK_POLL_SECONDS": "0.1",
    }
    install()
    with running_server(env) as base:
        url = {"TABLETOP_URL": base}
        run("node", "scripts/generate.mjs", env=url)
        run("node", "node_modules/typescript/bin/tsc", "-p", "tsconfig.json")
        out = run("node", "dist/src/main.js", env=url, timeout=600)
    for game in GAMES:
        assert re.search(rf"^REST {game}: finished after \d+ own moves", out, re.M), out
        assert re.search(rf"^webhook {game}: [1-9]\d* deliveries verified", out, re.M), out
        assert re.search(rf"^GraphQL {game}: finished after \d+ own moves, .*, (\d+)/\1 events typed$",
                         out, re.M), out
