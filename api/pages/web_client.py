"""The reference web client at ``/play``: static ES modules and SVG, served by the API itself.

The client lives in the top-level ``web/`` folder and uses only the public API (REST and the
GraphQL subscription), so serving it is a plain static mount: no templating, no build step, no Node.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import RedirectResponse
from starlette.staticfiles import StaticFiles

MOUNT = "/play"


def web_root() -> Path | None:
    """The ``web/`` folder: beside the source tree (editable install) or in the working directory
    (the Docker image copies it to ``/app/web``); None when neither exists."""
    for candidate in (Path(__file__).resolve().parents[2] / "web", Path.cwd() / "web"):
        if (candidate / "index.html").is_file():
            return candidate
    return None


def install_web_client(app: FastAPI) -> None:
    """Serve ``web/`` under ``/play/`` (``/play`` redirects there so relative module paths resolve)."""
    root = web_root()
    if root is None:
        return

    @app.get(MOUNT, include_in_schema=False)
    def play() -> RedirectResponse:
        return RedirectResponse(f"{MOUNT}/", status_code=308)

    app.mount(MOUNT, StaticFiles(directory=root, html=True), name="web")
