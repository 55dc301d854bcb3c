"""The documentation pages work offline (issue 12, section 5): Swagger UI, ReDoc and GraphiQL
render in Chromium with every request to another host blocked, and none is even attempted."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from playwright.sync_api import Page, Response, Route

from tests.support.servers import ServerProcess


def offline_page(open_page: Callable[..., Page], base: str) -> tuple[Page, list[str]]:
    """A page whose requests to anywhere but the service are aborted and recorded."""
    page = open_page()
    elsewhere: list[str] = []

    def only_the_service(route: Route) -> None:
        url = route.request.url
        if url.startswith(base) or url.startswith("data:"):
            route.continue_()
        else:
            elsewhere.append(url)
            route.abort()

    page.route("**/*", only_the_service)
    return page, elsewhere


def test_swagger_ui_renders_every_operation_offline(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    page, elsewhere = offline_page(open_page, web_server.base)
    page.goto("/docs")
    # Swagger UI parses the whole 1.2 MB document in the page before it draws an operation: about
    # 4 s on a quiet machine, over 30 s once in CI's run beside three other test workers.
    page.locator("#operations-games-createGame").wait_for(timeout=120_000)
    assert page.locator(".opblock").count() >= 25
    assert elsewhere == []


def test_redoc_renders_offline(open_page: Callable[..., Page], web_server: ServerProcess) -> None:
    page, elsewhere = offline_page(open_page, web_server.base)
    page.goto("/redoc")
    page.locator("h2").filter(has_text="Submit Choice").first.wait_for()
    assert elsewhere == []


def test_graphiql_loads_the_schema_and_answers_a_query_offline(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    page, elsewhere = offline_page(open_page, web_server.base)
    with page.expect_response(lambda r: r.url.endswith("/graphql") and r.request.method == "POST") as first:
        page.goto("/graphql")
    assert first.value.status == 200 and "__schema" in first.value.text()  # introspection
    page.locator(".graphiql-container").wait_for()
    editor = page.locator(".graphiql-query-editor .CodeMirror").first
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("{ gameTypes { slug")

    def answered(response: Response) -> bool:
        return response.url.endswith("/graphql") and "gameTypes" in (response.request.post_data or "")

    with page.expect_response(answered):
        page.locator(".graphiql-execute-button").click()
    page.locator(".graphiql-response").get_by_text("carcassonne").wait_for()
    assert elsewhere == []


def test_graphiql_follows_a_subscription_over_the_websocket(
    open_page: Callable[..., Page], web_server: ServerProcess
) -> None:
    game = httpx.post(f"{web_server.base}/v1/games", json={"type": "im-schutze-der-burg"}).json()
    httpx.post(f"{web_server.base}/v1/games/{game['id']}/seats", json={"name": "Ann"})
    page, elsewhere = offline_page(open_page, web_server.base)
    with page.expect_response(lambda r: r.url.endswith("/graphql") and r.request.method == "POST"):
        page.goto("/graphql")  # the schema is loaded: GraphiQL no longer resets the editor
    page.locator(".graphiql-query-editor .CodeMirror").first.wait_for()
    subscription = f'subscription {{ gameEvents(gameId: "{game["id"]}", after: 0) {{ seq type }} }}'
    page.wait_for_function(
        """text => {
            const editor = document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror;
            if (editor.getValue() !== text) editor.setValue(text);
            return editor.getValue() === text;
        }""",
        arg=subscription,
        polling=250,
    )
    page.wait_for_timeout(300)
    assert "gameEvents" in page.evaluate(
        "() => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.getValue()"
    )
    page.locator(".graphiql-execute-button").click()
    page.locator(".graphiql-response").get_by_text("seat_joined").wait_for()
    assert elsewhere == []
