"""Pages that go wrong on purpose, each in its own test, for test_browser_watch.py to run in a
pytest of its own and read the outcome of: the suite never collects this file itself (its name
is not test_*.py), since most of these tests are meant to fail. The last two are a browser that
dies in the middle of a journey, and the journey after it.

Each test's name says what the watch of conftest.py must make of it.
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.browser.pad_helpers import expect_saved, field, make_game

pytestmark = pytest.mark.browser

THROWS = "<p>A page</p><script>throw new Error('the page threw')</script>"
INLINE_SCRIPT = """() => {
  const script = document.createElement("script");
  script.textContent = "window.ranInline = true";
  document.body.append(script);
}"""


def test_fails_on_an_uncaught_exception(page: Page):
    page.set_content(THROWS)


def test_fails_on_a_console_error(page: Page):
    page.evaluate("console.error('something broke')")


def test_fails_on_a_script_the_content_security_policy_refuses(page: Page, live_server):
    page.goto(f"{live_server.url}/")
    page.evaluate(INLINE_SCRIPT)
    assert page.evaluate("window.ranInline === undefined"), "the policy let the inline script run"


def test_fails_on_a_page_the_test_opened_itself(browser):
    """As the two-servers and screenshot journeys open theirs: from ``browser``, in a context of
    their own."""
    page = browser.new_context().new_page()
    page.evaluate("console.error('something broke')")


def test_fails_on_a_second_page_of_a_context(page: Page):
    page.context.new_page().evaluate("console.error('something broke')")


def test_passes_with_the_console_error_it_expects(page: Page, browser_watch):
    browser_watch.expect_console_error(r"^expected: 409$")
    page.evaluate("console.error('expected: 409')")


def test_fails_on_a_console_error_it_did_not_expect(page: Page, browser_watch):
    browser_watch.expect_console_error(r"^expected: 409$")
    page.evaluate("console.error('expected: 409')")
    page.evaluate("console.error('expected: 500')")


def test_fails_when_an_expected_console_error_never_comes(page: Page, browser_watch):
    browser_watch.expect_console_error(r"^expected: 409$")
    page.set_content("<p>All is well</p>")


def test_passes_when_an_allowed_console_error_does_not_come(page: Page, browser_watch):
    browser_watch.allow_console_error(r"^maybe: 409$")
    page.set_content("<p>All is well</p>")


def test_fails_on_an_exception_whatever_it_expects(page: Page, browser_watch):
    browser_watch.allow_console_error("the page threw")
    page.set_content(THROWS)


def test_fails_on_a_policy_violation_whatever_it_expects(page: Page, live_server, browser_watch):
    browser_watch.allow_console_error("Content Security Policy")
    browser_watch.allow_console_error("script-src")
    page.goto(f"{live_server.url}/")
    page.evaluate(INLINE_SCRIPT)
    assert page.evaluate("window.ranInline === undefined")  # (and the policy's event has come back meanwhile)


def test_passes_on_a_quiet_page(page: Page, live_server):
    page.goto(f"{live_server.url}/")


def test_fails_when_its_browser_dies_in_the_middle_of_a_journey(page: Page, live_server):
    """Chromium crashes (a machine out of memory kills it so) while a value is being saved."""
    game_id = make_game(["Alice", "Bruno"])
    page.goto(f"{live_server.url}/games/{game_id}/")
    field(page, "recruits", "Alice").fill("4")
    with contextlib.suppress(PlaywrightError):  # (no answer comes: the browser is gone)
        page.context.browser.new_browser_cdp_session().send("Browser.crash")
    expect_saved(page, "s1-recruits")


def test_passes_after_the_browser_died_in_the_journey_before(page: Page, live_server):
    game_id = make_game(["Alice", "Bruno"])
    page.goto(f"{live_server.url}/games/{game_id}/")
    field(page, "recruits", "Alice").fill("4")
    expect_saved(page, "s1-recruits")
