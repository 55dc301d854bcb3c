"""``./run serve`` and the installs behind it (issue 12, section 5): ``--help`` answers without
touching the database, serving says where it listens and where the docs and the web client are,
serving needs none of the dev tools, and every install is pinned by ``constraints.txt``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import tomllib
from importlib.metadata import version
from pathlib import Path

import httpx
import pytest

from tests.support.servers import ROOT, free_port

pytestmark = pytest.mark.timeout(120)

DEV_ONLY = ("pytest", "mypy", "ruff", "schemathesis", "playwright", "jsonschema", "py_spy", "hypothesis")


def env_with_database(tmp_path: Path) -> tuple[dict[str, str], Path]:
    database = tmp_path / "tabletop.db"
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_AUTO_MIGRATE"}
    env.update({"TABLETOP_DATABASE_URL": f"sqlite:///{database}", "TABLETOP_LOG_LEVEL": "WARNING"})
    return env, database


def test_serve_help_answers_without_touching_the_database(tmp_path: Path) -> None:
    env, database = env_with_database(tmp_path)
    answer = subprocess.run(
        [sys.executable, "-m", "api", "serve", "--help"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 0, answer.stderr
    assert "--host" in answer.stdout and "--port" in answer.stdout and "--migrate" in answer.stdout
    assert not database.exists()


def _stamped(name: str) -> bool:
    stamp = ROOT / ".venv" / name
    newest_input = max((ROOT / "pyproject.toml").stat().st_mtime, (ROOT / "constraints.txt").stat().st_mtime)
    return stamp.exists() and stamp.stat().st_mtime > newest_input


def test_run_serve_help_answers_without_touching_the_database(tmp_path: Path) -> None:
    if not (_stamped(".installed-dev") or _stamped(".installed-serve")):
        pytest.skip("the .venv was not installed by ./run: ./run serve --help would install first")
    env, database = env_with_database(tmp_path)
    answer = subprocess.run(
        ["bash", str(ROOT / "run"), "serve", "--help"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert answer.returncode == 0, answer.stderr
    assert "usage:" in answer.stdout and "--workers" in answer.stdout
    assert not database.exists()


def test_serving_says_where_it_listens_and_where_the_pages_are(tmp_path: Path) -> None:
    env, database = env_with_database(tmp_path)
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", "api", "serve", "--migrate", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            deadline = time.monotonic() + 90
            while "listening on" not in log.read_text() and time.monotonic() < deadline:
                assert server.poll() is None, log.read_text()
                time.sleep(0.2)
            text = log.read_text()
            base = f"http://127.0.0.1:{port}"
            assert f"listening on {base}" in text, text
            for page in ("/docs", "/graphql", "/play"):
                assert f"{base}{page}" in text, (page, text)
            assert "/redoc" in text and "/openapi.json" in text
            assert httpx.get(f"{base}/docs", timeout=10).status_code == 200  # it listens once it says so
            assert database.exists()  # --migrate made the database
        finally:
            server.terminate()
            server.wait(timeout=20)


def test_the_service_needs_none_of_the_dev_tools(tmp_path: Path) -> None:
    """Build the app, its OpenAPI document and its pages with every dev-only package unimportable."""
    script = f"""
import sys
for name in {DEV_ONLY!r}:
    sys.modules[name] = None
from fastapi.testclient import TestClient
from api.app import create_app
from api.settings import Settings
app = create_app(Settings(database_url="sqlite:///{tmp_path / "db.sqlite"}", auto_migrate=True))
with TestClient(app) as client:
    for path in ("/openapi.json", "/docs", "/redoc", "/play/", "/v1/game-types"):
        assert client.get(path, headers={{"Accept": "text/html"}}).status_code == 200, path
print("served")
"""
    answer = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=90
    )
    assert answer.returncode == 0 and "served" in answer.stdout, answer.stderr[-2000:]


def _requirement_names() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    return {_normalise(re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0]) for r in requirements}


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, pinned = line.split("==")
            pins[_normalise(name)] = pinned.strip()
    return pins


def test_constraints_pin_every_dependency_and_the_venv_follows_them() -> None:
    pins = _pins()
    missing = _requirement_names() - set(pins)
    assert not missing, f"not pinned in constraints.txt (run ./run lock): {missing}"
    assert "playwright" in pins and "uvicorn" in pins and "pip" in pins and "uv" in pins
    for name in _requirement_names():
        assert version(name) == pins[name], f"{name}: installed {version(name)}, pinned {pins[name]}"


def test_every_install_goes_through_the_constraints() -> None:
    run = (ROOT / "run").read_text()
    installs = [line for line in run.splitlines() if "pip install" in line and "$scratch" not in line]
    assert installs and all("--constraint constraints.txt" in line for line in installs), installs
    assert "exec ./run test" in (ROOT / ".ci" / "run").read_text()
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "constraints.txt" in dockerfile.split("RUN pip install")[0]  # copied before the install
    assert "pip install --no-cache-dir --constraint constraints.txt ." in dockerfile  # no dev extra
    assert re.search(r"serve\)\n\s+ensure_env serve\n", run)  # ./run serve installs no dev tools
