"""Specification of how numbers and dates are written (``scoring/wording/numbers_and_dates.py``):
whole (a date's parts, never broken across lines) and with a true minus sign."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import translation
from django.utils.translation import gettext

from scoring.templatetags.words import percent
from scoring.wording.numbers_and_dates import figure, game_date


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "Tue\u00a01\u00a0Dec\u00a02026"), ("fr", "mar.\u00a01er\u00a0déc.\u00a02026")],
)
def test_a_games_date_is_one_unit_its_parts_joined_by_no_break_spaces(language, written):
    with translation.override(language):
        assert game_date(date(2026, 12, 1), gettext("D j M Y")) == written  # (the pad's header's format)


@pytest.mark.parametrize(
    ("language", "value", "written"),
    [("en", -1.7, "\u22121.7%"), ("fr", -1.7, "\u22121,7\u202f%"), ("en", 42, "42%"), ("fr", 12.5, "12,5\u202f%")],
)
def test_a_percentage_is_written_as_the_language_writes_it_a_negative_one_with_a_true_minus(language, value, written):
    with translation.override(language):
        assert percent(value) == written


def test_a_negative_figure_has_a_true_minus_sign():
    assert (figure(-3), figure(0), figure(12)) == ("\u22123", "0", "12")
