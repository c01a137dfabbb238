"""The flake hunt's report (scripts/flake_report.py): each test's runs counted under its own name,
whatever pytest-repeat added to it, its failures and errors told apart from its passes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "flake_report.py"
spec = importlib.util.spec_from_file_location("flake_report", SCRIPT)
flake_report = sys.modules["flake_report"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(flake_report)

# Three runs each of a plain test and of a parametrized one, as pytest --count 3 writes them.
REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
  <testcase classname="tests.browser.test_offline" name="test_a_copy[1-3]" time="1"/>
  <testcase classname="tests.browser.test_offline" name="test_a_copy[2-3]" time="1">
    <failure message="AssertionError: Locator expected to be hidden&#10;Actual value: visible">trace</failure>
  </testcase>
  <testcase classname="tests.browser.test_offline" name="test_a_copy[3-3]" time="1"/>
  <testcase classname="tests.browser.test_offline" name="test_told[online-1-3]" time="1"/>
  <testcase classname="tests.browser.test_offline" name="test_told[online-2-3]" time="1">
    <error message="failed on setup with TargetClosedError">trace</error>
  </testcase>
  <testcase classname="tests.browser.test_offline" name="test_told[online-3-3]" time="1"/>
  <testcase classname="tests.browser.test_offline" name="test_told[13-3-3]" time="1"/>
  <testcase classname="tests.browser.test_offline" name="test_told[13-1-3]" time="1"/>
  <testcase classname="tests.browser.test_offline" name="test_told[13-2-3]" time="1"/>
</testsuite></testsuites>
"""


@pytest.fixture
def report(tmp_path) -> str:
    path = tmp_path / "hunt.xml"
    path.write_text(REPORT, encoding="utf-8")
    return str(path)


def test_each_tests_runs_are_counted_under_its_own_name_with_its_first_failures_words(report):
    tallies = flake_report.tally(report, runs=3)

    assert {name: (one.runs, one.failed) for name, one in tallies.items()} == {
        "tests/browser/test_offline.py::test_a_copy": (3, 1),
        "tests/browser/test_offline.py::test_told[online]": (3, 1),
        "tests/browser/test_offline.py::test_told[13]": (3, 0),
    }
    assert tallies["tests/browser/test_offline.py::test_a_copy"].first_words == (
        "AssertionError: Locator expected to be hidden"
    )
    assert tallies["tests/browser/test_offline.py::test_told[online]"].outcomes["error"] == 1


def test_the_hunt_fails_when_a_run_failed_and_passes_when_none_did(report, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["flake_report.py", report, "--runs", "3", "--about", "seed 7"])
    assert flake_report.main() == 1
    said = capsys.readouterr().out
    assert said.startswith("flake hunt (seed 7): 3 tests, 9 runs, 2 failed, 0 skipped")
    assert "1/3 failed  tests/browser/test_offline.py::test_a_copy\n" in said

    quiet = tmp_path / "quiet.xml"
    quiet.write_text(
        REPORT.replace("<failure", "<system-out")
        .replace("</failure>", "</system-out>")
        .replace("<error", "<system-err")
        .replace("</error>", "</system-err>"),
        encoding="utf-8",
    )
    monkeypatch.setattr("sys.argv", ["flake_report.py", str(quiet), "--runs", "3"])
    assert flake_report.main() == 0


def test_a_test_with_fewer_runs_than_asked_or_no_report_fails_the_hunt(tmp_path, monkeypatch, capsys):
    short = tmp_path / "short.xml"  # (a run that never reported: its worker crashed)
    short.write_text(
        REPORT.replace('<testcase classname="tests.browser.test_offline" name="test_a_copy[3-3]" time="1"/>', "")
    )
    monkeypatch.setattr("sys.argv", ["flake_report.py", str(short), "--runs", "3"])
    assert flake_report.main() == 1
    assert "only 2/3 runs recorded  tests/browser/test_offline.py::test_a_copy" in capsys.readouterr().out

    monkeypatch.setattr("sys.argv", ["flake_report.py", str(tmp_path / "missing.xml"), "--runs", "3"])
    assert flake_report.main() == 1
    assert "no report to read" in capsys.readouterr().out
