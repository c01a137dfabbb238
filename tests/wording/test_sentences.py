"""``scoring.wording.sentences.clause``: a refusal written as a sentence of its own goes on after a
label and its colon in lowercase, a name or a word of capitals left as it is."""

from __future__ import annotations

import pytest
from django.utils.safestring import SafeData, mark_safe

from scoring.wording.sentences import clause, isolated


@pytest.mark.parametrize(
    ("message", "goes_on"),
    [
        ("The value must be from 0 to 99 (not 120).", "the value must be from 0 to 99 (not 120)."),
        ("La valeur doit être comprise entre 0 et 99.", "la valeur doit être comprise entre 0 et 99."),
        ("VP cannot be negative.", "VP cannot be negative."),  # (a word of capitals)
        ("BG Stats keeps it.", "BG Stats keeps it."),
        ("already lowercase.", "already lowercase."),
        ("", ""),
    ],
)
def test_a_refusal_goes_on_after_a_colon_in_lowercase(message, goes_on):
    assert clause(message) == goes_on


def test_a_name_at_its_start_stays_as_it_is_and_html_stays_html():
    named = isolated("Alice") + mark_safe(" has placed too many tokens.")
    assert clause(named) == named
    lowered = clause(mark_safe("Type <b>a</b> whole number."))
    assert lowered == "type <b>a</b> whole number." and isinstance(lowered, SafeData)
