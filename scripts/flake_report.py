"""The flake hunt's report (scripts/flake-hunt.sh): reads the runs' JUnit XML and prints, for each
test, how many of its runs failed, with the first failure's first line. Exits 1 when any run
failed or errored, or when no run was recorded at all.

Usage: python scripts/flake_report.py artifacts/flake-hunt.xml --runs 20 [--about "seed 1, ..."]
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Tally:
    runs: int = 0
    failed: int = 0
    first_words: str = ""
    outcomes: Counter = field(default_factory=Counter)


def test_name(case: ElementTree.Element, runs: int) -> str:
    """The test's node id without the repetition pytest-repeat adds at its end ("[3-20]", or
    "-3-20]" after the test's own parameters)."""
    module = case.get("classname", "").replace(".", "/")
    name = re.sub(rf"\[\d+-{runs}\]$", "", case.get("name", ""))
    name = re.sub(rf"-\d+-{runs}\]$", "]", name)
    return f"{module}.py::{name}"


def tally(path: str, runs: int) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for case in ElementTree.parse(path).iter("testcase"):
        one = tallies.setdefault(test_name(case, runs), Tally())
        one.runs += 1
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            one.failed += 1
            one.outcomes[problem.tag] += 1
            if not one.first_words:
                words = (problem.get("message") or problem.text or "").strip().splitlines()
                one.first_words = words[0][:200] if words else problem.tag
        elif case.find("skipped") is not None:
            one.outcomes["skipped"] += 1
    return tallies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("junit_xml")
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--about", default="")
    arguments = parser.parse_args()
    try:
        tallies = tally(arguments.junit_xml, arguments.runs)
    except (OSError, ElementTree.ParseError) as error:
        print(f"flake hunt: no report to read ({error}); see artifacts/flake-hunt.log")
        return 1
    runs = sum(one.runs for one in tallies.values())
    failed = sum(one.failed for one in tallies.values())
    skipped = sum(one.outcomes["skipped"] for one in tallies.values())
    about = f" ({arguments.about})" if arguments.about else ""
    print(f"flake hunt{about}: {len(tallies)} tests, {runs} runs, {failed} failed, {skipped} skipped")
    for name, one in sorted(tallies.items(), key=lambda item: (-item[1].failed, item[0])):
        if one.failed:
            print(f"  {one.failed}/{one.runs} failed  {name}\n      {one.first_words}")
    short = [name for name, one in tallies.items() if one.runs < arguments.runs]
    for name in sorted(short):
        print(f"  only {tallies[name].runs}/{arguments.runs} runs recorded  {name}")
    return 1 if failed or not runs or short else 0


if __name__ == "__main__":
    sys.exit(main())
