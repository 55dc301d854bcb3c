"""The web client is served by the API itself at /play, from files in web/, with no CDN."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient

from api.pages.web_client import web_root


def test_play_redirects_to_the_client_folder_and_serves_its_page(client: TestClient) -> None:
    moved = client.get("/play", follow_redirects=False)
    assert moved.status_code == 308
    assert moved.headers["location"] == "/play/"
    page = client.get("/play/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="js/app.js">' in page.text


def test_every_module_is_served_as_javascript_and_nothing_comes_from_elsewhere(client: TestClient) -> None:
    root = web_root()
    assert root is not None
    for path in sorted(root.rglob("*.js")):
        served = client.get(f"/play/{path.relative_to(root).as_posix()}")
        assert served.status_code == 200, path
        assert "javascript" in served.headers["content-type"], path
        assert not re.search(r"""(import|from)\s*\(?\s*["']https?://""", served.text), path
    assert "http" not in client.get("/play/index.html").text.replace("http://www.w3.org", "")


def test_every_language_has_every_ui_string() -> None:
    root = web_root()
    assert root is not None
    english = json.loads((root / "i18n" / "en.json").read_text())
    for lang in ("de", "fr", "es"):
        other = json.loads((root / "i18n" / f"{lang}.json").read_text())
        assert set(other) == set(english), (lang, set(english) ^ set(other))
        for key, text in english.items():
            assert set(re.findall(r"\{\w+\}", other[key])) == set(re.findall(r"\{\w+\}", text)), (lang, key)


def _policy(header: str) -> dict[str, str]:
    return {part.split()[0]: part.strip() for part in header.split(";") if part.strip()}


def test_the_game_page_cannot_be_framed_and_allows_only_its_own_scripts(client: TestClient) -> None:
    """Issue 31 item 11: /play (with its resign button) sends a Content-Security-Policy that
    refuses every framing site, scripts from elsewhere and inline scripts, plus X-Frame-Options
    for old browsers and a Referrer-Policy; its modules and styles carry them too."""
    for path in ("/play/", "/play/js/app.js", "/play/style.css"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        policy = _policy(answer.headers["content-security-policy"])
        assert policy["frame-ancestors"] == "frame-ancestors 'none'", path
        assert policy["script-src"] == "script-src 'self'", path
        assert policy["object-src"] == "object-src 'none'" and policy["base-uri"] == "base-uri 'none'"
        assert policy["default-src"] == "default-src 'self'"
        assert answer.headers["x-frame-options"] == "DENY", path
        assert answer.headers["referrer-policy"] == "no-referrer", path
        assert answer.headers["x-content-type-options"] == "nosniff", path


def test_the_documentation_pages_cannot_be_framed_either(client: TestClient) -> None:
    for path in ("/docs", "/redoc", "/graphql"):
        answer = client.get(path, headers={"accept": "text/html"})
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html"), path
        assert (
            _policy(answer.headers["content-security-policy"])["frame-ancestors"] == "frame-ancestors 'none'"
        )
        assert answer.headers["x-frame-options"] == "DENY", path
        assert answer.headers["referrer-policy"] == "no-referrer", path
    api = client.get("/v1/game-types")
    assert "content-security-policy" not in api.headers  # JSON is never a page to frame
