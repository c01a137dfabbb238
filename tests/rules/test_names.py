"""Specification of what a name may hold (``scoring/rules/names.py``), the one rule of the forms and the
game file: no character that hides or reorders text (Unicode's format characters, Cf; control
characters, Cc; line and paragraph separators, Zl and Zp), except the two joiners where a script or
an emoji needs them; every other character of any script kept.

Exhaustive over Unicode as this Python knows it: each character of those categories is tried
wherever it stands in a name; hypothesis tries names of everything else.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.names import (
    DEFAULT_IGNORABLE,
    ZERO_WIDTH_JOINER,
    ZERO_WIDTH_NON_JOINER,
    character_words,
    longest_unbroken,
    name_key,
    one_line,
    refused_character,
)

REFUSED_CATEGORIES = ("Cf", "Cc", "Zl", "Zp")
REFUSED = [chr(code) for code in range(sys.maxunicode + 1) if unicodedata.category(chr(code)) in REFUSED_CATEGORIES]
VIRAMAS = [chr(code) for code in range(sys.maxunicode + 1) if unicodedata.combining(chr(code)) == 9]
JOINERS = (ZERO_WIDTH_NON_JOINER, ZERO_WIDTH_JOINER)

IGNORABLE = [chr(code) for low, high in DEFAULT_IGNORABLE for code in range(low, high + 1)]
VARIATION_SELECTORS = [chr(code) for code in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))]

# Every character a name keeps (surrogates are no characters: the game file and the forms refuse them earlier).
kept = st.characters(exclude_categories=(*REFUSED_CATEGORIES, "Cs"), exclude_characters=IGNORABLE)
# Neighbours that give a joiner nothing to do: Latin and Greek letters, digits, spaces, punctuation.
plain = st.characters(categories=("Lu", "Ll", "Nd", "Zs", "Po", "Pd"))


@pytest.mark.parametrize("where", ["start", "middle", "end", "alone"])
def test_every_such_character_is_refused_wherever_it_stands_in_a_name(where):
    for char in REFUSED:
        name = {"start": char + "Olivia", "middle": "Oli" + char + "via", "end": "Olivia" + char, "alone": char}[where]
        assert refused_character(name) == char, character_words(char)


@pytest.mark.parametrize("where", ["start", "after-a-letter", "end", "alone"])
def test_every_default_ignorable_character_is_refused_where_it_varies_or_joins_nothing(where):
    """The combining grapheme joiner, the Hangul fillers (alone: a blank name), the variation
    selectors after a Latin letter or a space ("Ann" and "Ann" + U+FE00 look the same), alone
    included."""
    for char in IGNORABLE:
        placed = {"start": char + "Olivia", "after-a-letter": "Oli" + char + "via", "end": "Ann " + char}
        name = placed.get(where, char)
        assert refused_character(name) == char, character_words(char)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("\u2764\ufe0f Ann", id="emoji-heart-presentation"),
        pytest.param("1\ufe0f\u20e3", id="keycap-one"),
        pytest.param("\u203c\ufe0f", id="double-exclamation-emoji"),
        pytest.param("\u845b\U000e0100", id="ideograph-variant"),
        pytest.param("\u1820\u180b", id="mongolian-free-variation-selector"),
    ],
)
def test_a_variation_selector_is_kept_after_a_character_it_varies(name):
    assert refused_character(name) is None


@pytest.mark.parametrize(
    ("one", "other"),
    [("Ann", " ann "), ("Ann", "Ann\ufe00"), ("Ann", "A\u034fnn"), ("\u2764\ufe0f Bo", "\u2764 bo")],
)
def test_names_that_differ_only_by_case_spaces_around_or_ignorable_characters_are_one_name(one, other):
    assert name_key(one) == name_key(other)


@given(st.text(kept, min_size=1, max_size=40))
def test_a_name_of_every_other_character_is_kept(name):
    """Letters of any script with their combining marks, digits, punctuation, symbols and emoji,
    spaces, private use and characters newer than this Python's Unicode."""
    assert refused_character(name) is None


@given(st.text(kept, max_size=20), st.sampled_from(REFUSED), st.text(max_size=20))
def test_the_first_such_character_is_the_one_named(before, char, after):
    """(After a space, a joiner has nothing to join.)"""
    assert refused_character(before + " " + char + after) == char


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", id="persian-non-joiner-between-letters"),
        pytest.param("\u0646\u0627\u0645\u0647\u0654\u200c\u0627\u06cc", id="persian-non-joiner-after-a-mark"),
        pytest.param("\u0dc1\u0dca\u200d\u0dbb\u0dd3", id="sinhala-sri-joiner-after-al-lakuna"),
        pytest.param("\u0d28\u0d4d\u200d", id="malayalam-chillu-joiner-after-virama"),
        pytest.param("\u0915\u094d\u200c\u0937", id="devanagari-non-joiner-after-virama"),
        pytest.param("Sam \U0001f469\u200d\U0001f4bb", id="emoji-woman-technologist"),
        pytest.param("\U0001f3f3\ufe0f\u200d\U0001f308", id="emoji-rainbow-flag-with-variation-selector"),
        pytest.param("\U0001f468\U0001f3fd\u200d\U0001f373", id="emoji-cook-with-skin-tone"),
        pytest.param("\U0001f468\u200d\U0001f469\u200d\U0001f467", id="emoji-family"),
    ],
)
def test_a_joiner_is_kept_where_a_script_or_an_emoji_needs_it(name):
    assert refused_character(name) is None


@pytest.mark.parametrize("joiner", JOINERS)
def test_both_joiners_are_kept_after_every_virama(joiner):
    """Conjuncts and half forms of the Indic scripts (RFC 5892 A.1 and A.2)."""
    for virama in VIRAMAS:
        assert refused_character("\u0915" + virama + joiner + "\u0915") is None, character_words(virama)


@given(plain, st.sampled_from(JOINERS), plain)
def test_a_joiner_between_letters_that_do_not_join_is_refused(before, joiner, after):
    assert refused_character(before + joiner + after) == joiner


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("\u200cOlivia", id="non-joiner-first"),
        pytest.param("\u0645\u200d\u062e", id="joiner-between-arabic-letters"),  # (the non-joiner's place)
        pytest.param("\u0645\u200c", id="non-joiner-after-the-last-arabic-letter"),
        pytest.param("\U0001f469\u200c\U0001f4bb", id="non-joiner-between-emoji"),
        pytest.param("\U0001f469\u200d", id="joiner-after-the-last-emoji"),
        pytest.param("\u0dc1\u0dca\u200d\u200d\u0dbb", id="a-second-joiner-after-a-virama"),
    ],
)
def test_a_joiner_is_refused_where_it_joins_nothing(name):
    assert refused_character(name) in JOINERS


def test_a_character_is_named_by_its_code_and_its_unicode_name():
    assert character_words("\u202e") == "U+202E RIGHT-TO-LEFT OVERRIDE"
    assert character_words("\U000e0041") == "U+E0041 TAG LATIN CAPITAL LETTER A"
    assert character_words("\t") == "U+0009"  # (a control character has no Unicode name)


@pytest.mark.parametrize(
    ("typed", "kept_as"),
    [
        ("  Ann  ", "Ann"),
        ("Ann \t\n Lee", "Ann Lee"),
        ("Ann\u2028Lee", "Ann Lee"),  # a line separator is a space between words
        ("Ann\u2029Lee", "Ann Lee"),
    ],
)
def test_a_typed_name_is_one_line(typed, kept_as):
    assert one_line(typed) == kept_as


@pytest.mark.parametrize(
    ("name", "letters"),
    [
        ("Dominique-Alexandre", 10),  # "Dominique-": a line breaks after the hyphen
        ("Marie Charlotte", 9),
        ("Bo", 2),
        ("Jean-Baptiste de la Tour", 8),
        ("Emmanuelle", 10),
        ("Anne\u2011Sophie", 11),  # a non-breaking hyphen holds the name together
        ("", 0),
    ],
)
def test_the_longest_unbroken_piece_of_a_name(name, letters):
    assert longest_unbroken(name) == letters
