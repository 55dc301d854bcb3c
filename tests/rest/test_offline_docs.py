"""The documentation pages are self-hosted (issue 12, section 5): Swagger UI (``/docs``), ReDoc
(``/redoc``) and GraphiQL (``/graphql`` in a browser) load every script, style sheet and icon from
the service itself, never from a CDN, and each of those assets answers 200."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from fastapi.testclient import TestClient

PAGES = ("/docs", "/redoc", "/graphql")


class AssetLinks(HTMLParser):
    """Every URL a page loads by itself: script sources, linked style sheets and icons, images."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for attribute in ("src", "href"):
            url = values.get(attribute)
            if url and (tag in ("script", "img", "link", "iframe", "source")):
                self.urls.append(url)


def page_assets(client: TestClient, path: str) -> list[str]:
    page = client.get(path, headers={"Accept": "text/html"})
    assert page.status_code == 200, (path, page.text[:200])
    assert page.headers["content-type"].startswith("text/html")
    parser = AssetLinks()
    parser.feed(page.text)
    return parser.urls


@pytest.mark.parametrize("path", PAGES)
def test_every_asset_of_a_docs_page_is_served_by_the_service(client: TestClient, path: str) -> None:
    urls = page_assets(client, path)
    assert len([u for u in urls if u.endswith(".js")]) >= 1, urls
    for url in urls:
        assert not urlsplit(url).scheme and not urlsplit(url).netloc, f"{path} loads {url} from elsewhere"
        asset = client.get(urljoin(f"http://testserver{path}", url))
        assert asset.status_code == 200, (path, url)
        assert len(asset.content) > 0


def test_no_page_names_a_cdn(client: TestClient) -> None:
    for path in PAGES:
        text = client.get(path, headers={"Accept": "text/html"}).text
        for host in ("cdn.jsdelivr.net", "unpkg.com", "fonts.googleapis.com", "cdnjs", "esm.sh"):
            assert host not in text, (path, host)
    assert '"validatorUrl": null' in client.get("/docs").text  # no badge from validator.swagger.io


def test_graphiql_loads_graphiql_with_subscriptions_and_the_explorer(client: TestClient) -> None:
    urls = page_assets(client, "/graphql")
    names = {url.rsplit("/", 1)[-1] for url in urls}
    assert {
        "react.production.min.js",
        "react-dom.production.min.js",
        "graphiql.min.js",
        "graphiql.min.css",
        "graphql-ws.min.js",
        "graphiql-plugin-explorer.umd.js",
    } <= names


def test_docs_pages_are_not_operations_of_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert not [p for p in paths if p.startswith(("/docs", "/redoc"))]
