"""Problem details (RFC 9457) as the REST API answers them."""

from __future__ import annotations

from pydantic import BaseModel, Field


class FieldProblem(BaseModel):
    loc: list[str] = Field(description="Where: `body`, `query`, `header` or `path`, then the field.")
    msg: str


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str
    title: str
    status: int
    code: str = Field(description="Stable machine-readable error code (see the README's table).")
    detail: str
    errors: list[FieldProblem] | None = Field(
        None, description="`invalid_request` (422) from request validation: one entry per field."
    )
