"""The watch over every page the browser journeys open (conftest.py) fails a test whose pages
went wrong: pages that go wrong on purpose (watched_pages.py) are run in a pytest of their own,
and each test there must end as its name says, with what went wrong listed. A browser that dies
in a journey fails that journey only: the next one passes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.browser import watched_pages

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(watched_pages.__file__)


def outcomes(tmp_path: Path) -> dict[str, str]:
    """Each test of watched_pages.py and how it ended: "passed", or what made it fail."""
    report = tmp_path / "report.xml"
    # A database of its own (SQLite, in a file named after that pytest's process): the pages need
    # a live server, but none of this suite's data, nor the migrations' (its tables made from the
    # models at once: --no-migrations).
    env = {name: value for name, value in os.environ.items() if name != "DATABASE_URL"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(CASES),
            "-q",
            "-p",
            "no:cacheprovider",
            "--no-migrations",
            f"--junitxml={report}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert report.exists(), done.stdout + done.stderr
    ended = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        problems = [
            child.get("message", "") + "\n" + (child.text or "")
            for child in case
            if child.tag in ("failure", "error", "skipped")
        ]
        ended[case.get("name")] = "\n".join(problems) or "passed"
    return ended


CRASH = "test_fails_when_its_browser_dies_in_the_middle_of_a_journey"
AFTER_THE_CRASH = "test_passes_after_the_browser_died_in_the_journey_before"


def test_a_page_that_goes_wrong_fails_its_test_with_what_went_wrong_and_a_dead_browser_only_its_own(chromium, tmp_path):
    """Each test of watched_pages.py ends as its name says: a page gone wrong fails its test with
    what went wrong; a browser that died fails the journey it was in, and the next one passes.
    (One pytest of them for both: it takes a quarter of a minute.)"""
    everything = outcomes(tmp_path)
    assert sorted(everything) == sorted(name for name in vars(watched_pages) if name.startswith("test_"))

    # Chromium crashed in the middle of a journey: that journey fails on it, and the next one has
    # a browser launched anew (conftest.py, ``Chromium.current``).
    assert everything[CRASH] != "passed"
    assert "failed on teardown" not in everything[CRASH], everything[CRASH]  # (its dead contexts: nothing to close)
    assert everything[AFTER_THE_CRASH] == "passed", everything[AFTER_THE_CRASH]

    ended = {name: outcome for name, outcome in everything.items() if name not in (CRASH, AFTER_THE_CRASH)}
    passed = {name for name, outcome in ended.items() if outcome == "passed"}
    assert passed == {
        "test_passes_with_the_console_error_it_expects",
        "test_passes_when_an_allowed_console_error_does_not_come",
        "test_passes_on_a_quiet_page",
    }
    said = {
        "test_fails_on_an_uncaught_exception": ["uncaught exception in about:blank: the page threw"],
        "test_fails_on_a_console_error": ["console error in about:blank: something broke"],
        # Chromium's own line, and the securitypolicyviolation event's
        "test_fails_on_a_script_the_content_security_policy_refuses": [
            "Content Security Policy violation in http://localhost:",
            "violates the following Content Security Policy directive 'script-src",
            "script-src-elem refused inline",
        ],
        "test_fails_on_a_page_the_test_opened_itself": ["console error in about:blank: something broke"],
        "test_fails_on_a_second_page_of_a_context": ["console error in about:blank: something broke"],
        "test_fails_on_a_console_error_it_did_not_expect": ["console error in about:blank: expected: 500"],
        "test_fails_when_an_expected_console_error_never_comes": [
            "an expected console error never came: /^expected: 409$/"
        ],
        "test_fails_on_an_exception_whatever_it_expects": ["uncaught exception in about:blank: the page threw"],
        "test_fails_on_a_policy_violation_whatever_it_expects": ["script-src-elem refused inline"],
    }
    assert set(said) == set(ended) - passed
    for name, words in said.items():
        assert "The browser reported problems" in ended[name], (name, ended[name])
        for text in words:
            assert text in ended[name], (name, text, ended[name])
    assert "expected: 409" not in ended["test_fails_on_a_console_error_it_did_not_expect"]
