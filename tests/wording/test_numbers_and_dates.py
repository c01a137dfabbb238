"""Specification of how numbers are written (``scoring/wording/numbers_and_dates.py``): with a
true minus sign. (A game's date, in both languages: tests/i18n/test_pages_in_french.py.)"""

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
