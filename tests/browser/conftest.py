"""Fixtures of the real-browser journeys: Playwright (sync API) driving Debian's Chromium at
the size of a Pixel 7, against pytest-django's live server.

Chromium missing or failing to start is a skip on a laptop and a failure when ``CI=true``:
CI must run the journeys. Every page records its console errors and uncaught exceptions; a
test fails when the page threw, or when the browser reported a Content Security Policy
violation.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test's thread, which makes Django believe
# the ORM is called from async code. The live server and the tests' own queries are plain
# synchronous code, so allow them (before any database use).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

try:
    import playwright  # noqa: F401
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI") == "true":
        raise  # CI must run the journeys
    collect_ignore_glob = ["test_*.py"]  # a laptop without the package skips the journeys

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE = "Pixel 7"
DEFAULT_TIMEOUT_MS = 10_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def _unavailable(reason: str):
    """No browser: fail on CI (the journeys must run there), skip elsewhere."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"Browser journeys cannot run: {reason}", pytrace=False)
    pytest.skip(f"Browser journeys skipped: {reason}")


@pytest.fixture(scope="session")
def playwright_session():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:  # pragma: no cover - depends on the machine
        _unavailable(f"the playwright package is not installed ({error})")
    manager = sync_playwright()
    playwright = manager.start()
    try:
        yield playwright
    finally:
        manager.__exit__(None, None, None)


@pytest.fixture(scope="session")
def browser(playwright_session):
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
        _unavailable(f"Chromium is missing at {CHROMIUM} (install Debian's chromium, or set CHROMIUM_PATH)")
    try:
        browser = playwright_session.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    except Exception as error:  # noqa: BLE001 - any launch failure means the same thing here
        _unavailable(f"Chromium at {CHROMIUM} failed to launch: {error}")
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def phone(playwright_session) -> dict:
    """The browser context options of the phone (viewport, scale, touch, user agent)."""
    return dict(playwright_session.devices[PHONE])


@dataclass
class PageErrors:
    """What went wrong inside the pages of one test."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        problems = [f"uncaught exception in the page: {text}" for text in self.page_errors]
        problems += [f"Content Security Policy violation: {text}" for text in self.csp_violations]
        return problems

    def watch(self, page) -> None:
        """Note what goes wrong in ``page``: its uncaught exceptions, its console errors and any
        Content Security Policy violation."""

        def on_console(message):
            text = message.text
            if "Content Security Policy" in text:
                self.csp_violations.append(text)
            if message.type == "error":
                self.console_errors.append(f"{page.url}: {text}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.page_errors.append(f"{page.url}: {error}"))

    def report(self) -> str:
        lines = self.problems()
        if self.console_errors:
            lines.append("console errors seen: " + " | ".join(self.console_errors))
        return "\n".join(lines)


@pytest.fixture
def page_errors() -> PageErrors:
    return PageErrors()


@pytest.fixture
def context(browser, phone, page_errors, live_server):
    """A phone signed in as the journeys' host (tests.browser.pad_helpers.HOST), who owns the
    games that ``make_game`` makes."""
    from scoring.limits import counters_clear
    from tests.browser.pad_helpers import sign_in

    counters_clear()  # the rate limits count per address: every journey starts with fresh counters
    context = browser.new_context(**phone)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    sign_in(context, live_server.url)

    context.on("page", page_errors.watch)
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = context.new_page()
    page.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return page


@pytest.fixture(autouse=True)
def _expect_timeout():
    """Web-first assertions wait as long as actions do (a save is debounced by 500 ms)."""
    try:
        from playwright.sync_api import expect
    except ImportError:  # the browser fixture reports it
        yield
        return
    expect.set_options(timeout=DEFAULT_TIMEOUT_MS)
    yield


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail the test itself (not its teardown) when a page threw or broke the CSP; show what
    the browser reported beside any other failure."""
    errors = getattr(item, "funcargs", {}).get("page_errors")
    try:
        result = yield
    except BaseException:
        if errors is not None and errors.report():
            item.add_report_section("call", "browser", errors.report())
        raise
    if errors is not None and errors.problems():
        pytest.fail("The browser reported problems:\n" + errors.report(), pytrace=False)
    return result
