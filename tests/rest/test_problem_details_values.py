"""A problem's ``detail`` in German, French or Spanish names the same values as the English one
(the game, the seat, the limit, the field, the seconds to wait): every raise site of every domain
error, rendered with real-looking values, and the edge's own refusals answered by the server,
asked for by ``Accept-Language`` and by ``lang``."""

from __future__ import annotations

import ast
import itertools
import re
import string
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.graphql.common import in_range
from api.problems.details import localized, problem_codes
from domain import errors
from domain.errors import Range
from domain.i18n import LANGUAGES, platform_texts
from tests.support.client import app_with_test_game, make_settings, seated_game
from tests.support.http import auth

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
SERVER_CODES = {"illegal_choice", "invalid_idempotency_key"}
"""Domain codes whose detail is built by a function: answered by the server below."""
EDGE_CODES = {
    "invalid_request",
    "database_unavailable",
    "too_many_streams",
    "malformed_json",
    "unsupported_content_type",
    "graphql_request_invalid",
    "bad_content_length",
    "not_found",
    "method_not_allowed",
    "request_timeout",
    "payload_too_large",
    "rate_limited",
    "internal_error",
    "graphql_parse_failed",
    "graphql_validation_failed",
    "too_many_tokens",
    "query_too_deep",
    "too_many_aliases",
    "query_too_costly",
    "graphql_deadline_exceeded",
}
"""Codes the edge raises itself (``API_CODES``), answered by the server below."""


def error_classes() -> dict[str, type[errors.DomainError]]:
    """Each domain error class by its name."""
    found: dict[str, type[errors.DomainError]] = {}
    pending = [errors.DomainError]
    while pending:
        error = pending.pop()
        found[error.__name__] = error
        pending.extend(error.__subclasses__())
    return found


WORDS = {
    "stand_in": "resigned",
    "meta.name": "Carcassonne",
    "self.name": "rounds",
    "name": "increment",
    "mode": "fischer",
    "slug": "keythedral",
    "type": "keythedral",
    "whose": "player",
    "level": "expert",
    "code": "gg_wp",
    "bot": "expert",
}
"""Values that are words, by the expression's last name (as they are at run time)."""
LISTS = ("known", "allowed", "unknown", "waiting", "check")
"""Fields whose value is a list of names."""


def bound(expression: ast.expr, counter: Iterator[int]) -> int | float:
    """A range's bound as written, or a fresh number for one computed at run time."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, int | float):
        return expression.value
    return next(counter)


def sample(field: str, expression: ast.expr, counter: Iterator[int]) -> object:
    """A value like the one the expression gives at run time: an id, a status, a name, a list of
    names or a number (each distinct, so that a translation dropping one is caught)."""
    source = ast.unparse(expression)
    if isinstance(expression, ast.Constant):
        return expression.value
    if isinstance(expression, ast.Call) and ast.unparse(expression.func) == "Range":
        low, high = (bound(b, counter) for b in expression.args)
        return Range(low, high + 100)
    if field in LISTS:
        return [f"alpha{next(counter)}", f"beta{next(counter)}"]
    if source.endswith("id"):
        return uuid.uuid4().hex
    if "status" in source:
        return "finished"
    for key, word in WORDS.items():
        if source == key or source.endswith(f".{key}") or source.startswith(f"{key}["):
            return word
    if "total_seconds" in source or "wait" in source:
        return 2.5 + next(counter)
    return next(counter)


def raise_sites() -> list[tuple[str, errors.DomainError]]:
    """Every ``raise <DomainError>(template, **values)`` of the service: where, and the error
    with sample values."""
    classes = error_classes()
    counter = itertools.count(3)
    sites = []
    for path in sorted(
        [*ROOT.glob("domain/**/*.py"), *ROOT.glob("api/**/*.py"), *ROOT.glob("persistence/**/*.py")]
    ):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            name = node.exc.func
            name_id = name.id if isinstance(name, ast.Name) else getattr(name, "attr", "")
            if name_id not in classes or not node.exc.args:
                continue
            template = node.exc.args[0]
            if not (isinstance(template, ast.Constant) and isinstance(template.value, str)):
                continue
            values = {k.arg: sample(k.arg, k.value, counter) for k in node.exc.keywords if k.arg is not None}
            error = classes[name_id](template.value, **values)
            sites.append((f"{path.relative_to(ROOT)}:{node.lineno}", error))
    return sites


SITES = raise_sites()


def test_every_registered_code_is_raised_somewhere_or_answered_by_the_edge() -> None:
    assert len(SITES) > 80
    raised = {error.code for _, error in SITES}
    covered = raised | SERVER_CODES | EDGE_CODES
    assert set(problem_codes()) <= covered, set(problem_codes()) - covered


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_raise_site_keeps_its_values_in_every_language(lang: str) -> None:
    lost = []
    for where, error in SITES:
        translated = localized(error.code, error.detail, lang)
        assert translated != error.message
        values = [
            v.text for v in error.detail.shown() if errors.FIELDS.get(v.field, errors.Field()).in_translation
        ]
        lost += [
            f"{where} {error.code}: {v!r} missing from {translated!r}" for v in values if v not in translated
        ]
    assert lost == []


def test_every_field_a_raise_site_fills_is_in_its_sentence() -> None:
    for where, error in SITES:
        named = {name for _, name, _, _ in string.Formatter().parse(error.detail.template) if name}
        assert named == set(error.detail.values), (where, error.detail.template)


def said(error: errors.DomainError, lang: str) -> str:
    return localized(error.code, error.detail, lang)


def test_a_translation_names_each_value_with_its_word_in_that_language() -> None:
    missing = errors.SeatNotFound("game {game} has no seat {seat}", game="0f3a", seat=7)
    assert missing.message == "game 0f3a has no seat 7"
    assert said(missing, "de") == "Diesen Platz gibt es in diesem Spiel nicht (Spiel 0f3a; Platz 7)."
    fast = errors.ChatRateLimited(
        "a seat writes at most {max_messages} messages in {window_seconds:g} seconds; "
        "try again in {retry_s:.1f} s",
        retry_after=2.5,
        max_messages=5,
        window_seconds=10.0,
        retry_s=2.5,
    )
    assert fast.message == "a seat writes at most 5 messages in 10 seconds; try again in 2.5 s"
    assert said(fast, "es") == (
        "Escribes demasiado rápido; espera unos segundos "
        "(como máximo 5 mensajes; 10 segundos; reintentar en 2.5 s)."
    )
    over = errors.GameOver("game {game} is {status}", game="0f3a", status="finished")
    assert said(over, "fr").endswith("(partie 0f3a; statut finished).")
    with pytest.raises(errors.InvalidRequest) as refused:
        in_range("limit", 500, 1, 200)
    assert refused.value.message == "limit must be between 1 and 200, not 500"
    assert said(refused.value, "de").endswith("(limit; 1–200; erhalten: 500).")


def test_a_value_quoted_as_json_or_holding_braces_reads_as_the_client_wrote_it() -> None:
    refused = errors.InvalidOptions(
        "option {option!q} must be an integer, got {got!j}", option="{x}", got="é\ud800"
    )
    assert refused.message == "option '{x}' must be an integer, got \"é\\ud800\""
    assert said(refused, "de").endswith("(Option '{x}'; erhalten: \"é\\ud800\").")


VALUE = re.compile(r"""'[^']*'|"[^"]*"|\d+(?:\.\d+)?""")
"""What a detail names, read independently of the service's own reading: quoted names and numbers."""


def named(english: str) -> list[str]:
    return VALUE.findall(english)


def answered_in_every_language(
    client: TestClient, call: Callable[[dict[str, str], dict[str, str]], httpx.Response]
) -> dict[str, httpx.Response]:
    """One request as English, then German by ``Accept-Language``, French by ``lang`` (winning
    over a German ``Accept-Language``), Spanish by both."""
    asked = {
        "en": ({}, {}),
        "de": ({"Accept-Language": "de-AT, en;q=0.5"}, {}),
        "fr": ({"Accept-Language": "de"}, {"lang": "fr"}),
        "es": ({"Accept-Language": "es"}, {"lang": "es"}),
    }
    return {lang: call(headers, params) for lang, (headers, params) in asked.items()}


def check_values(answers: dict[str, httpx.Response], code: str, *values: str) -> None:
    english = answers["en"].json()
    assert english["code"] == code, english
    expected = [*named(english["detail"]), *values]
    assert all(value in english["detail"] for value in values), english["detail"]
    for lang in ("en", *TRANSLATED):  # refusals made before routing (413, 429) included
        assert answers[lang].headers.get("content-language") == lang, (code, lang)
    for lang in TRANSLATED:
        detail = answers[lang].json()["detail"]
        assert detail.startswith(platform_texts(lang)[f"problem.{code}"].rstrip(".")), detail
        assert [v for v in expected if v not in detail] == [], (lang, english["detail"], detail)


def test_the_server_names_the_values_in_every_language(client: TestClient) -> None:
    game, tokens = seated_game(client, 2, options={"rounds": 1})
    client.post(f"/v1/games/{game['id']}/start", headers=auth(game["host_token"]))
    base = f"/v1/games/{game['id']}"

    def get(path: str, **extra: Any) -> Callable[[dict[str, str], dict[str, str]], httpx.Response]:
        return lambda headers, params: client.get(path, headers={**headers, **extra}, params=params)

    check_values(
        answered_in_every_language(client, get("/v1/games/nope-4711")), "game_not_found", "nope-4711"
    )
    check_values(answered_in_every_language(client, get(f"{base}/replay")), "invalid_request", "query.at")
    check_values(answered_in_every_language(client, get("/v1/no-such-thing")), "not_found")
    choice = {"choice": {"card": "no-such-card"}}
    illegal = answered_in_every_language(
        client,
        lambda headers, params: client.post(
            f"{base}/choices", json=choice, headers={**headers, **auth(tokens[0])}, params=params
        ),
    )
    check_values(illegal, "illegal_choice", '{"card": "no-such-card"}')
    key = answered_in_every_language(
        client,
        lambda headers, params: client.post(
            "/v1/games", json={"type": "duel"}, headers={**headers, "Idempotency-Key": "k"}, params=params
        ),
    )
    check_values(key, "invalid_idempotency_key")
    big = answered_in_every_language(
        client,
        lambda headers, params: client.post(
            "/v1/games", json={"type": "duel", "seed": "x" * 100_000}, headers=headers, params=params
        ),
    )
    check_values(big, "payload_too_large")
    aliases = "{ " + " ".join(f"a{i}: gameTypes {{ slug }}" for i in range(40)) + " }"
    graphql = answered_in_every_language(
        client,
        lambda headers, params: client.post(
            "/graphql", json={"query": aliases}, headers=headers, params=params
        ),
    )
    details = {lang: answer.json()["errors"][0]["extensions"]["detail"] for lang, answer in graphql.items()}
    assert graphql["en"].json()["errors"][0]["extensions"]["code"] == "too_many_aliases"
    for lang in TRANSLATED:
        assert [v for v in named(details["en"]) if v not in details[lang]] == [], (
            details["en"],
            details[lang],
        )


def test_a_rate_limited_caller_reads_its_wait_in_every_language(tmp_path: Path) -> None:
    # a token back per 100 s: however slow the machine, the second request is refused
    settings = make_settings(tmp_path, rate_limit_per_second=0.01, rate_limit_burst=1)
    with TestClient(app_with_test_game(settings)) as client:
        answers = {}
        for lang, (headers, params) in {
            "en": ({}, {}),
            "de": ({"Accept-Language": "de"}, {}),
            "fr": ({}, {"lang": "fr"}),
            "es": ({"Accept-Language": "de"}, {"lang": "es"}),
        }.items():
            for _ in range(5):
                answer = client.get("/v1/game-types", headers=headers, params=params)
                if answer.status_code == 429:
                    break
            answers[lang] = answer
        wait = answers["en"].headers["retry-after"]
        check_values(answers, "rate_limited", f"{wait} s")
