"""A problem's ``detail`` in German, French or Spanish names the same values as the English one
(the game, the seat, the limit, the field, the seconds to wait): every raise site of every domain
error, rendered with real-looking values, and the edge's own refusals answered by the server,
asked for by ``Accept-Language`` and by ``lang``."""

from __future__ import annotations

import ast
import itertools
import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.problems.details import localized, problem_codes
from domain import errors
from domain.i18n import LANGUAGES, platform_texts
from tests.rest.conftest import make_settings, registry_with_test_game
from tests.rest.test_rest_contract import auth, seated_game

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
SERVER_CODES = {"illegal_choice", "invalid_idempotency_key"}
"""Domain codes whose message is built by a function: answered by the server below."""
EDGE_CODES = {
    "invalid_request",
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


def error_codes() -> dict[str, str]:
    """Each domain error class's name and its code."""
    found: dict[str, str] = {}
    pending = [errors.DomainError]
    while pending:
        error = pending.pop()
        found[error.__name__] = error.code
        pending.extend(error.__subclasses__())
    return found


WORDS = {
    "stand_in": "resigned",
    "meta.name": "Carcassonne",
    "self.name": "rounds",
    "name": "increment",
    "mode": "fischer",
    "slug": "keythedral",
    "whose": "player",
    "level": "expert",
    "code": "gg_wp",
    "bot": "expert",
}
"""Values that are words, by the expression's last name (as they are at run time)."""
WORDING = {"whose"}
"""Expressions that choose the sentence's wording ("this player", "this client address"), not a
value at fault: the translated sentence says it its own way."""


def sample(expression: ast.expr, counter: Iterator[int]) -> object:
    """A value like the one the expression gives at run time: an id, a status, a name, a list of
    names or a number (each distinct, so that a translation dropping one is caught)."""
    source = ast.unparse(expression)
    if ".join(" in source:
        return f"alpha{next(counter)}, beta{next(counter)}"
    if source.startswith("as_json("):
        return f'"value{next(counter)}"'
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


def rendered(node: ast.JoinedStr | ast.Constant, counter: Iterator[int]) -> tuple[str, list[str]]:
    """The English detail of one raise site with sample values, and those values as shown."""
    if isinstance(node, ast.Constant):
        return str(node.value), []
    text, values = "", []
    for part in node.values:
        if isinstance(part, ast.Constant):
            text += str(part.value)
            continue
        assert isinstance(part, ast.FormattedValue)
        if ast.unparse(part.value) in WORDING:
            text += "player"
            continue
        value = sample(part.value, counter)
        if part.conversion == ord("r"):
            value = repr(value)
        spec = "".join(str(c.value) for c in part.format_spec.values) if part.format_spec else ""  # type: ignore[attr-defined]
        shown = format(value, spec)
        text += shown
        values.append(shown)
    return text, values


def raise_sites() -> list[tuple[str, str, str, list[str]]]:
    """Every ``raise <DomainError>(message)`` of the service: where, its code, its English
    detail with sample values, and those values."""
    codes = error_codes()
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
            if name_id not in codes or not node.exc.args:
                continue
            message = node.exc.args[0]
            if not isinstance(message, ast.JoinedStr | ast.Constant):
                continue
            text, values = rendered(message, counter)
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            sites.append((where, codes[name_id], text, values))
    return sites


SITES = raise_sites()


def test_every_registered_code_is_raised_somewhere_or_answered_by_the_edge() -> None:
    assert len(SITES) > 80
    raised = {code for _, code, _, _ in SITES}
    covered = raised | SERVER_CODES | EDGE_CODES
    assert set(problem_codes()) <= covered, set(problem_codes()) - covered


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_raise_site_keeps_its_values_in_every_language(lang: str) -> None:
    lost = []
    for where, code, english, values in SITES:
        translated = localized(code, english, lang)
        assert translated != english
        lost += [f"{where} {code}: {v!r} missing from {translated!r}" for v in values if v not in translated]
    assert lost == []


def test_a_translation_names_each_value_with_its_word_in_that_language() -> None:
    assert localized("seat_not_found", "game 0f3a has no seat 7", "de") == (
        "Diesen Platz gibt es in diesem Spiel nicht (Spiel 0f3a; Platz 7)."
    )
    assert localized(
        "chat_rate_limited", "a seat writes at most 5 messages in 10 seconds; try again in 2.5 s", "es"
    ) == (
        "Escribes demasiado rápido; espera unos segundos "
        "(como máximo 5 mensajes; 10 segundos; reintentar en 2.5 s)."
    )
    assert localized("game_over", "game 0f3a is finished", "fr").endswith("(partie 0f3a; statut finished).")
    assert localized("invalid_request", "limit must be between 1 and 200, not 500", "de").endswith(
        "(limit; 1–200; erhalten: 500)."
    )


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
    settings = make_settings(tmp_path, rate_limit_per_second=1.0, rate_limit_burst=1)
    with TestClient(create_app(settings, registry=registry_with_test_game())) as client:
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
