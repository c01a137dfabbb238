"""Specification of the short sums typed into a score field (``scoring/rules/sums.py``): a whole
number, or whole numbers with + and - between them ("3+6+2"), read as the phone reads them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.sums import MAX_SUM_LENGTH, NotASum, evaluate_sum, is_sum, normalize

# The grammar of a typed value: one table of cases, which the phone's tests read too
# (tests/js/sums.test.js against static/scoring/sums.js), so that the two never read a value two ways.
SUM_CASES = json.loads((Path(__file__).parents[1] / "data" / "sum-cases.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", SUM_CASES, ids=[case["why"] for case in SUM_CASES])
def test_a_typed_value_reads_as_the_table_of_cases_says(case):
    text = case["text"]
    if case["value"] is None:
        with pytest.raises(NotASum):
            evaluate_sum(text)
    else:
        assert evaluate_sum(text) == case["value"]
    if "normalized" in case:
        assert normalize(text) == case["normalized"]
    if "sum" in case:
        assert is_sum(text) is case["sum"]


def test_what_the_phone_holds_back_as_incomplete_is_never_a_sum_but_for_a_trailing_space():
    """A value that cannot be complete yet ends with a sign (never a sum the server takes) or a
    space (the server would take it: the phone waits, as more may follow)."""
    incomplete = [case for case in SUM_CASES if case.get("incomplete")]
    assert incomplete
    for case in incomplete:
        assert case["value"] is None or case["text"][-1].isspace(), case


def test_not_a_sum_is_a_value_error():
    assert issubclass(NotASum, ValueError)


def test_a_sum_may_be_up_to_60_characters_not_counting_spaces():
    longest = "10" + "+1" * 29
    assert len(longest) == MAX_SUM_LENGTH == 60

    assert evaluate_sum(longest) == 39
    assert evaluate_sum(" + ".join(longest.split("+"))) == 39  # the spaces do not count
    with pytest.raises(NotASum):
        evaluate_sum("1" + longest)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("3+6+2", True, id="sum"),
        pytest.param("14-3", True, id="difference"),
        pytest.param("3 + 1", True, id="sum-with-spaces"),
        pytest.param("14\u22123", True, id="unicode-minus"),
        pytest.param("12", False, id="number"),
        pytest.param("-3", False, id="negative-number"),
        pytest.param("+3", False, id="plus-sign"),
        pytest.param("", False, id="empty"),
    ],
)
def test_is_sum_tells_a_sum_of_several_terms_from_one_number(text, expected):
    assert is_sum(text) is expected


@given(
    first=st.integers(min_value=-99, max_value=999),
    rest=st.lists(st.tuples(st.sampled_from("+-"), st.integers(min_value=0, max_value=999)), max_size=8),
)
def test_any_short_sum_evaluates_as_arithmetic_and_is_a_sum_when_it_has_several_terms(first, rest):
    text = str(first) + "".join(f"{sign}{number}" for sign, number in rest)

    assert evaluate_sum(text) == first + sum(number if sign == "+" else -number for sign, number in rest)
    assert is_sum(text) is bool(rest)
    assert evaluate_sum(" ".join(text)) == evaluate_sum(text)
