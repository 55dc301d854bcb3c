"""Browser tests: Playwright driving Debian's Chromium against a real server process.

The browser is the system one (``/usr/bin/chromium``, installed by ``./run test`` when missing),
never a download. Each test gets a fresh browser context; at its end the page's screenshot is saved
under ``test-artifacts/browser/`` and any JavaScript error on the page fails the test.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.support.browser import ARTIFACTS, new_page
from tests.support.servers import ServerProcess

# Playwright's assertions retry for 5 s by default; on a busy CI machine a page redrawn after a
# server's answer can take longer. An assertion that holds ends its wait at once.
expect.set_options(timeout=15_000)

CHROMIUM = Path(os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One for the browser tests (each test still gets fresh contexts), closed after the last of
    them: Playwright's sync API keeps an event loop running in this thread while it is open, which
    would break tests elsewhere that call ``asyncio.run``."""
    if not CHROMIUM.exists():
        message = f"no Chromium at {CHROMIUM} (./run test installs Debian's chromium package)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="package")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real server on a fresh SQLite file, shared by the browser tests (its start-up, mostly
    imports, took 7 to 70 s each on a busy machine); each test makes its own games and people.
    A test may stop and start it again on the same port."""
    folder = tmp_path_factory.mktemp("browser")
    server = ServerProcess(
        {
            "TABLETOP_DATABASE_URL": f"sqlite:///{folder / 'tabletop.db'}",
            "TABLETOP_AUTO_MIGRATE": "true",
            # Every page of a module comes from 127.0.0.1 and lists the games it creates.
            "TABLETOP_MAX_OPEN_LISTED_GAMES_PER_ADDRESS": "1000",
            # The lobby seats the strong bot by default: it searches a twentieth of a second per
            # decision here, and at most 20 iterations, so a whole game in a browser tests the
            # page, not the search (on a machine whose cores another session takes, a decision's
            # CPU is what makes the person wait; an Im Schutze der Burg game waited over 300 s so
            # once, when the pool still ran at niceness 19 here).
            "TABLETOP_BOT_BUDGET_SECONDS": "0.05",
            "TABLETOP_BOT_MAX_ITERATIONS": "20",
        },
        folder,
    )
    server.start(wait=False)
    server.wait_healthy(timeout=120)  # generous: start-up is mostly imports, slow on a busy machine
    yield server
    server.stop()


@pytest.fixture
def open_page(
    browser: Browser, web_server: ServerProcess, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Page]]:
    """A factory of pages (one per simulated person); screenshots and JS errors checked at the end."""

    def factory(**context_options: Any) -> Page:
        return new_page(browser, web_server.base, request, **context_options)

    yield factory
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    failures = []
    for index, (page, errors) in enumerate(getattr(request.node, "browser_pages", [])):
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}-{index}.png"), full_page=True)
        except Exception as error:  # a closed page cannot be photographed; the test says why
            failures.append(f"screenshot: {error}")
        failures.extend(errors)
        page.context.close()
    assert not [f for f in failures if not f.startswith("screenshot")], failures
