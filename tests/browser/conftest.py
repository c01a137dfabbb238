"""Fixtures of the real-browser journeys: Playwright (sync API) driving Debian's Chromium at
the size of a Pixel 7, against pytest-django's live server.

Chromium missing or failing to start is a skip on a laptop and a failure when ``CI=true``:
CI must run the journeys.

Every page a test opens is watched, whichever fixture or test opened it: the ``browser`` a test
gets opens its contexts through ``browser_watch``, which listens to every page of every context
(popups included). A console error, an uncaught exception in a page or a Content Security Policy
violation fails the test at teardown, with what the browser said. A test that causes a console
error on purpose (a refused save is logged by Chromium as "Failed to load resource: the server
responded with a status of 409") says so first: ``browser_watch.expect_console_error(pattern)``.
An exception or a CSP violation is never expected.
"""

from __future__ import annotations

import os
import re
import shutil
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
    # Chromium 156 makes the address bar's popup (two pages of its own, chrome://omnibox-popup.top-chrome)
    # for every context's window, headless too: a fifth of the journeys' processor time, for nothing
    # they show (Playwright adds this to its own list of features turned off).
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
]
PHONE = "Pixel 7"
DEFAULT_TIMEOUT_MS = 10_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

# Every document of a watched context reports its CSP violations to the test (Chromium also logs
# them as console errors, but not for a page whose scripts are off; the event says which
# directive refused what).
CSP_BINDING = "__reportCspViolation"
CSP_LISTENER = f"""
document.addEventListener("securitypolicyviolation", (event) => {{
  window.{CSP_BINDING}(`${{event.effectiveDirective}} refused ${{event.blockedURI || "inline code"}}`
                       + ` in ${{event.sourceFile || document.URL}}:${{event.lineNumber}}`);
}});
"""


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


class Chromium:
    """The session's Chromium, launched for the first journey and again whenever it has died: a
    crash (the machine out of memory, a renderer taking the browser down) fails the test it was
    running, never the ones after it."""

    def __init__(self, playwright):
        self._playwright = playwright
        self._browser = None

    def current(self):
        """The browser, alive: launched again if the last one is gone."""
        if self._browser is None or not self._browser.is_connected():
            self._browser = self._launch()
        return self._browser

    def _launch(self):
        if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
            _unavailable(f"Chromium is missing at {CHROMIUM} (install Debian's chromium, or set CHROMIUM_PATH)")
        try:
            browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        except Exception as error:  # noqa: BLE001 - any launch failure means the same thing here
            _unavailable(f"Chromium at {CHROMIUM} failed to launch: {error}")
        return browser

    def close(self) -> None:
        if self._browser is not None and self._browser.is_connected():
            self._browser.close()


@pytest.fixture(scope="session")
def chromium(playwright_session):
    """The one Chromium of the session (relaunched if it dies). Tests open their contexts through
    ``browser``."""
    chromium = Chromium(playwright_session)
    chromium.current()  # (a machine without Chromium skips, or fails on CI, here)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def phone(playwright_session) -> dict:
    """The browser context options of the phone (viewport, scale, touch, user agent)."""
    return dict(playwright_session.devices[PHONE])


class BrowserWatch:
    """What went wrong in the pages of one test: console errors, uncaught exceptions and
    Content Security Policy violations, each noted with the address of its page."""

    def __init__(self):
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.csp_violations: list[str] = []
        # Only console errors can be expected or allowed, never an exception or a CSP violation.
        self.expected: dict[re.Pattern, int] = {}  # a console error the test causes, and how often it came
        self.allowed: list[re.Pattern] = []  # one it may cause

    def expect_console_error(self, pattern: str) -> None:
        """The test causes a console error matching ``pattern`` (a regular expression searched in
        the message, e.g. ``r"status of 409"``) at least once: one that never comes fails the test
        too, so that the allowance goes when its cause does."""
        self.expected.setdefault(re.compile(pattern), 0)

    def allow_console_error(self, pattern: str) -> None:
        """The test may cause a console error matching ``pattern``, or not, as the timing goes
        (e.g. a poll that falls in the seconds a phone is offline)."""
        self.allowed.append(re.compile(pattern))

    def watch(self, context) -> None:
        """Listen to every page of ``context``, those open now and those to come."""
        context.on("console", self._on_console)
        context.on("weberror", lambda error: self.page_errors.append(f"{_url(error.page)}: {error.error}"))
        context.expose_binding(
            CSP_BINDING, lambda source, text: self.csp_violations.append(f"{_url(source['page'])}: {text}")
        )
        context.add_init_script(CSP_LISTENER)

    def _on_console(self, message) -> None:
        if message.type != "error":
            return
        where = _url(message.page)
        text = message.text
        if message.location.get("url") and message.location["url"] != where:
            text += f" ({message.location['url']})"
        if "Content Security Policy" in text:
            self.csp_violations.append(f"{where}: {text}")
            return
        for pattern in self.expected:
            if pattern.search(text):
                self.expected[pattern] += 1
                return
        if any(pattern.search(text) for pattern in self.allowed):
            return
        self.console_errors.append(f"{where}: {text}")

    def problems(self, *, expectations: bool = True) -> list[str]:
        problems = [f"uncaught exception in {text}" for text in self.page_errors]
        problems += [f"Content Security Policy violation in {text}" for text in self.csp_violations]
        problems += [f"console error in {text}" for text in self.console_errors]
        if expectations:
            problems += [
                f"an expected console error never came: /{pattern.pattern}/"
                for pattern, seen in self.expected.items()
                if not seen
            ]
        return problems


def _url(page) -> str:
    return page.url if page is not None else "(no page)"


class WatchedBrowser:
    """The session's Chromium as a test sees it: each context it opens is watched by the test's
    ``BrowserWatch``, waits ``DEFAULT_TIMEOUT_MS`` at most, and is closed at the end of the test."""

    def __init__(self, chromium: Chromium, watch: BrowserWatch):
        self._chromium = chromium.current()
        self._watch = watch
        self.contexts = []

    def new_context(self, **options):
        context = self._chromium.new_context(**options)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        self._watch.watch(context)
        self.contexts.append(context)
        return context

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def close(self) -> None:
        """Closes the test's contexts; a browser that died during the test has none left to close
        (the test has failed on it already, and the next one gets a new browser)."""
        from playwright.sync_api import Error as PlaywrightError

        for context in self.contexts:
            try:
                context.close()
            except PlaywrightError:
                if self._chromium.is_connected():
                    raise


PHASES = pytest.StashKey[dict]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test, so that the browser's teardown knows whether the
    test itself passed (pytest's documented recipe)."""
    report = yield
    item.stash.setdefault(PHASES, {})[report.when] = report
    return report


@pytest.fixture
def browser_watch() -> BrowserWatch:
    return BrowserWatch()


@pytest.fixture
def browser(chromium, browser_watch, request):
    """The browser of one test: every page it opens is watched, and what went wrong there fails
    the test once its contexts are closed."""
    browser = WatchedBrowser(chromium, browser_watch)
    yield browser
    browser.close()
    call = request.node.stash.get(PHASES, {}).get("call")
    # an expected error may not have come because the test stopped short: that test's own
    # failure is the one to read
    problems = browser_watch.problems(expectations=call is not None and call.passed)
    if problems:
        pytest.fail(
            "The browser reported problems:\n" + "\n".join(f"  {problem}" for problem in problems), pytrace=False
        )


@pytest.fixture
def context(browser, phone, live_server):
    """A phone signed in as the journeys' host (tests.browser.pad_helpers.HOST), who owns the
    games that ``make_game`` makes."""
    from scoring.web.limits import counters_clear
    from tests.browser.pad_helpers import sign_in

    counters_clear()  # the rate limits count per address: every journey starts with fresh counters
    context = browser.new_context(**phone)
    sign_in(context, live_server.url)
    return context


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture
def open_phone(browser, phone, live_server):
    """Opens one more phone (its own browser context: its own cookies and storage) and returns
    its page, watched as every page is. ``options`` override the phone's (e.g. SMALL_PHONE,
    java_script_enabled)."""
    from tests.browser.pad_helpers import sign_in

    def open_(signed_in: bool = True, **options):
        """The phone, signed in as the host (who owns the games) unless ``signed_in`` is False."""
        context = browser.new_context(**{**phone, **options})
        if signed_in:
            sign_in(context, live_server.url)
        return context.new_page()

    return open_


@pytest.fixture
def small_phone(open_phone):
    """A page on a small phone (360 x 780), signed in as the host."""
    from tests.browser.pad_helpers import SMALL_PHONE

    return open_phone(**SMALL_PHONE)


# The journeys do not wait in real time for what a table would: the pages read the poll's interval
# and the typing pause from the settings (apiary_site/settings.py), shortened here. A journey that
# proves what the pause does reads it from PAD_SAVE_PAUSE_MS.
POLL_MS = 400
SAVE_PAUSE_MS = 300


@pytest.fixture(autouse=True)
def _quick_table(settings):
    settings.PAD_POLL_MS = POLL_MS
    settings.PAD_SAVE_PAUSE_MS = SAVE_PAUSE_MS


@pytest.fixture(autouse=True)
def _expect_timeout():
    """Web-first assertions wait as long as actions do."""
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
