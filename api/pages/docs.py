"""The API's documentation pages, self-hosted: Swagger UI at ``/docs``, ReDoc at ``/redoc`` and
GraphiQL at ``/graphql`` load every script, style sheet and icon from this service, so they work
offline and behind a firewall, and no visitor's browser calls a CDN.

The assets come from two installed packages that ship them as files: ``fastapi-standalone-docs``
(Swagger UI, and a ReDoc bundle whose Redocly logo is fetched from beside the page instead of a CDN;
only its files are used, not its patching of FastAPI) and ``graphene-django-graphiql-static``
(React, GraphiQL, its explorer plugin and graphql-ws; only its files, nothing of Django). We serve
those folders as they are.
"""

from __future__ import annotations

from hashlib import sha256
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from starlette.staticfiles import StaticFiles
from strawberry import Schema

ASSETS = "/docs/assets"
SWAGGER_ASSETS = f"{ASSETS}/swagger"
GRAPHIQL_ASSETS = f"{ASSETS}/graphiql"
FAVICON = f"{ASSETS}/fastapi/favicon.png"
REDOC_ASSETS = "/redoc/"
"""ReDoc's bundle loads its logo from ``<page path>/logo-mini.svg``: the folder goes beside it."""
STANDALONE = "fastapi_standalone_docs"
GRAPHIQL_TEMPLATE = Path(__file__).with_name("templates") / "graphiql.html"
GUIDE = Path(__file__).with_name("guide.md")
"""The developer's guide: the one source of the OpenAPI ``info.description`` (rendered by
``/docs`` and ``/redoc``) and of the README's section "Guide for client developers"."""
README_GUIDE_START = "<!-- guide: generated from api/pages/guide.md; edit it there -->"
README_GUIDE_END = "<!-- end of guide -->"


def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def readme_with_guide(readme: str) -> str:
    """``readme`` with the text between the guide markers replaced by the guide."""
    head, start, rest = readme.partition(README_GUIDE_START)
    _, end, tail = rest.partition(README_GUIDE_END)
    if not start or not end:
        raise ValueError("the README lacks the guide markers")
    return f"{head}{start}\n{guide()}{end}{tail}"


def _package_folder(package: str, *parts: str) -> Path:
    """A folder of files shipped inside an installed package."""
    return Path(str(files(package).joinpath(*parts)))


def install_docs(app: FastAPI) -> None:
    """Serve ``/docs``, ``/redoc`` and their assets (the app is created with both URLs off)."""

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} (Swagger UI)",
            swagger_js_url=f"{SWAGGER_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{SWAGGER_ASSETS}/swagger-ui.css",
            swagger_favicon_url=FAVICON,
            swagger_ui_parameters={"validatorUrl": None},  # no badge from validator.swagger.io
        )

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} (ReDoc)",
            redoc_js_url=f"{REDOC_ASSETS}redoc.standalone.js",
            redoc_favicon_url=FAVICON,
            with_google_fonts=False,
        )

    standalone = ((SWAGGER_ASSETS, "swagger"), (f"{ASSETS}/fastapi", "fastapi"), (REDOC_ASSETS, "redoc"))
    for mount, folder in standalone:
        app.mount(mount.rstrip("/"), StaticFiles(directory=_package_folder(STANDALONE, "static", folder)))
    graphiql = _package_folder("graphene_django_graphiql_static", "static", "graphene_django_graphiql_static")
    app.mount(GRAPHIQL_ASSETS, StaticFiles(directory=graphiql))


SDL_PATH = "/graphql/schema.graphql"
"""The GraphQL schema as SDL, for code generators that read a file rather than introspect."""


def install_sdl(app: FastAPI, schema: Schema) -> None:
    """Serve the schema the endpoint runs as SDL text (the same text as ``openapi/schema.graphql``),
    with an ``ETag`` so a generator's cache can ask again cheaply."""
    text = schema.as_str() + "\n"
    tag = '"' + sha256(text.encode()).hexdigest()[:32] + '"'

    @app.get(SDL_PATH, include_in_schema=False)
    def sdl(request: Request) -> Response:
        headers = {"ETag": tag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        return PlainTextResponse(text, headers=headers)


def graphiql_page() -> str:
    """GraphiQL for ``/graphql`` with its assets from ``/docs/assets/graphiql``."""
    return GRAPHIQL_TEMPLATE.read_text().replace("{{ASSETS}}", GRAPHIQL_ASSETS)
