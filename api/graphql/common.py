"""What every GraphQL resolver shares: the Problem type, the request's container, token and
language, and running a use case so that expected failures become a ``Problem``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

import strawberry
from pydantic import AfterValidator, TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from api.bootstrap import Container
from api.deps import bearer_from_connection_params, idempotency_caller, parse_bearer
from api.edge.input_limits import check_idempotency_key
from api.problems.details import localized, validation_detail
from domain.errors import Detail, DomainError, InvalidRequest, Range
from domain.i18n import negotiate


@strawberry.type(
    description="An expected failure: the REST problem's `code`, its HTTP status and why. "
    "`httpStatus` (not `status`) so that a union query may also select `Game.status`."
)
class Problem:
    code: str
    http_status: int
    reason: strawberry.Private[Detail]
    """The sentence naming the values at fault, and those values."""

    @strawberry.field(description="Why, in the request's `Accept-Language` (else English).")
    def detail(self, info: Info) -> str:
        return localized(self.code, self.reason, lang_of(info, None))


T = TypeVar("T")


IDEMPOTENCY_KEY_ADAPTER: TypeAdapter[str | None] = TypeAdapter(
    Annotated[str | None, AfterValidator(check_idempotency_key)]
)


def container_of(info: Info) -> Container:
    container: Container = info.context["container"]
    return container


def token_of(info: Info) -> str | None:
    """The bearer token of the HTTP request, or of the websocket's connection parameters."""
    params = info.context.get("connection_params")
    if params is not None:
        return bearer_from_connection_params(params)
    request = info.context.get("request")
    header = request.headers.get("authorization") if request is not None else None
    return parse_bearer(header)


def caller_of_info(info: Info) -> str:
    """Whose create or join key this is, as REST decides it."""
    return idempotency_caller(info.context.get("request"), token_of(info))


def address_of_info(info: Info) -> str:
    """The client address, as REST reads it (the middleware resolved trusted proxies)."""
    connection = info.context.get("request")
    client = connection.client if connection is not None else None
    return client.host if client else "unknown"


def lang_of(info: Info, lang: str | None) -> str:
    """The ``lang`` argument, else the request's Accept-Language (on a websocket: its
    ``connection_init``'s ``accept-language``, in any case, else the handshake's header), else
    English. A browser cannot set a websocket's headers, so a page whose language the person chose
    says it in ``connection_init``, as it gives its token there."""
    return context_language(info.context, lang)


def context_language(context: Any, lang: str | None = None) -> str:
    """``lang_of`` for an operation's context (a resolver's ``info.context``)."""
    header = _connection_language(context.get("connection_params"))
    if header is None:
        request = context.get("request")
        header = request.headers.get("accept-language") if request is not None else None
    return negotiate(lang, header)


def _connection_language(params: object) -> str | None:
    if not isinstance(params, dict):
        return None
    values = [v for k, v in params.items() if isinstance(k, str) and k.lower() == "accept-language"]
    return values[0] if len(values) == 1 and isinstance(values[0], str) else None


def problem_of(exc: Exception) -> Problem:
    if isinstance(exc, DomainError):
        return Problem(code=exc.code, http_status=exc.status, reason=exc.detail)
    assert isinstance(exc, ValidationError)
    detail = validation_detail([(".".join(map(str, e["loc"])), e["msg"]) for e in exc.errors()])
    return Problem(code="invalid_request", http_status=422, reason=detail)


def in_range(name: str, value: int, low: int, high: int) -> int:
    """A paging argument, refused out of range as REST refuses the same query parameter (422)."""
    if not low <= value <= high:
        raise InvalidRequest(
            "{field} must be between {bounds:and}, not {got}", field=name, bounds=Range(low, high), got=value
        )
    return value


async def attempt(work: Callable[[], T]) -> T | Problem:
    """Run a blocking use case off the event loop; expected failures become a Problem."""
    try:
        return await run_in_threadpool(work)
    except (DomainError, ValidationError) as exc:
        return problem_of(exc)


async def attempt_async(work: Callable[[], Awaitable[T]]) -> T | Problem:
    try:
        return await work()
    except (DomainError, ValidationError) as exc:
        return problem_of(exc)
