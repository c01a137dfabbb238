"""Specification of how numbers are written (``scoring/wording/numbers_and_dates.py``): with a
true minus sign, its thousands grouped. (A game's date, in both languages: tests/i18n/test_pages_in_french.py.)"""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.templatetags.words import percent
from scoring.wording.numbers_and_dates import figure


@pytest.mark.parametrize(
    ("language", "value", "written"),
    [("en", -1.7, "\u22121.7%"), ("fr", -1.7, "\u22121,7\u202f%"), ("en", 42, "42%"), ("fr", 12.5, "12,5\u202f%")],
)
def test_a_percentage_is_written_as_the_language_writes_it_a_negative_one_with_a_true_minus(language, value, written):
    with translation.override(language):
        assert percent(value) == written


def test_a_negative_figure_has_a_true_minus_sign():
    assert (figure(-3), figure(0), figure(12)) == ("\u22123", "0", "12")


@pytest.mark.parametrize(
    ("language", "value", "written"),
    [
        ("en", 1500, "1,500"),
        ("fr", 1500, "1\u202f500"),  # (a narrow no-break space: never « 1 » at the end of a line)
        ("en", 10000, "10,000"),
        ("fr", -12345, "\u221212\u202f345"),
        ("fr", 1234.5, "1\u202f234,5"),
        ("en", 999, "999"),
    ],
)
def test_a_figure_over_999_has_its_thousands_grouped_as_the_language_writes_them(language, value, written):
    """Issue 50: « Plus de 10000 parties », "1500"."""
    with translation.override(language):
        assert figure(value) == written
