"""The baseline of ``bench/api_load.py``: a bare FastAPI app with the same request shapes and no work.

``GET /v1/games/{id}/choices`` answers a fixed list of choices; ``POST /v1/games/{id}/choices``
validates a body shaped like ours (a choice object and a version) and answers a result shaped like
ours. No database, no middleware, no logging: what FastAPI + uvicorn cost on their own.
Served like the real server: ``uvicorn.run(app, host, port, log_level="warning", access_log=False)``.

``python bench/bare_app.py --port P [--host 127.0.0.1]``
"""

from __future__ import annotations

import argparse
import itertools
from typing import Any, Literal

import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict

CHOICES: list[dict[str, Any]] = [{"card": card} for card in range(1, 9)]


class ChoiceSubmit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    choice: dict[str, Any]
    version: int | None = None


class Decision(BaseModel):
    kind: str
    prompt: str
    seats: list[int]
    simultaneous: bool
    sealed: list[int]
    data: dict[str, Any]


class Choices(BaseModel):
    version: int
    decision: Decision | None
    choices: list[dict[str, Any]]


class SubmitResult(BaseModel):
    status: Literal["sealed", "applied"]
    version: int
    events: list[dict[str, Any]]


def create_app() -> FastAPI:
    app = FastAPI(title="bare baseline")
    versions = itertools.count(1)

    @app.get("/healthz")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/v1/games/{game_id}/choices")
    async def get_choices(game_id: str) -> Choices:
        decision = Decision(kind="pick", prompt="Pick", seats=[0], simultaneous=False, sealed=[], data={})
        return Choices(version=1, decision=decision, choices=CHOICES)

    @app.post("/v1/games/{game_id}/choices")
    async def submit_choice(game_id: str, body: ChoiceSubmit) -> SubmitResult:
        return SubmitResult(status="applied", version=next(versions), events=[])

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the bare baseline app.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
