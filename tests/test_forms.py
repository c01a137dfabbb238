"""Specification of the pad's field input: field names (``pad_field``), what may be typed
(``parse_pad_value``) and the short sums of ``scoring/sums.py``.

A pad field is named ``s<seat>-<category key>``, ``s<seat>-active_workers`` or ``s<seat>-t<sector
position>``. A value is a whole number or, for score entries, a sum such as ``3+6+2``; anything else
is refused with a message in words. No database: seats and sectors are unsaved model instances.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from scoring.categories import CATEGORIES
from scoring.forms import PadField, pad_field, parse_pad_value
from scoring.models import GameSector, Seat
from scoring.sums import MAX_SUM_LENGTH, NotASum, evaluate_sum, is_sum, normalize

SEATS = [Seat(number=1, name="Alice"), Seat(number=2, name="Bruno")]
SECTORS = [GameSector(position=0, first_vp=9, second_vp=4), GameSector(position=1, first_vp=13, second_vp=0)]

NOT_A_NUMBER = "Type a whole number."
NOT_A_NUMBER_OR_SUM = "Type a whole number, such as 12, or a sum, such as 3+6+2."


def field(name: str) -> PadField:
    found = pad_field(SEATS, SECTORS, name)
    assert found is not None, name
    return found


def refusal(name: str, raw: str) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        parse_pad_value(field(name), raw)
    return caught.value


# ---------------------------------------------------------------------------------------------
# pad_field: which field a posted name stands for


def test_every_category_of_every_seat_is_a_field_named_after_its_key():
    for seat in SEATS:
        for category in CATEGORIES:
            found = field(f"s{seat.number}-{category.key}")
            assert (found.seat, found.category, found.sector) == (seat, category, None)
            assert found.name == f"s{seat.number}-{category.key}"
            assert found.id() == f"f-s{seat.number}-{category.key}"


@pytest.mark.parametrize(("name", "kind", "label", "limits"), [
    pytest.param("s1-farm_income", "entry", "Farm income, Alice", (0, 999), id="vp-entry"),
    pytest.param("s2-carvings", "entry", "Conditions on carvings built, Bruno", (-99, 999), id="carvings"),
    pytest.param("s1-farms", "entry", "Farms built, Alice", (0, 99), id="farms"),
    pytest.param("s1-frames_filled", "entry", "Frames filled, Alice", (0, 15), id="frames"),
    pytest.param("s2-hive_mat_full", "flag", "Hive mat filled, Bruno", (0, 1), id="flag"),
    pytest.param("s1-active_workers", "workers", "Active workers, Alice", (0, 4), id="workers"),
    pytest.param("s2-t0", "tokens", "Tokens in sector 1, Bruno", (0, 7), id="tokens-sector-1"),
    pytest.param("s1-t1", "tokens", "Tokens in sector 2, Alice", (0, 7), id="tokens-sector-2"),
])
def test_a_field_knows_its_kind_its_accessible_name_and_its_limits(name, kind, label, limits):
    found = field(name)

    kinds = {"tokens": found.is_tokens, "workers": found.is_workers, "flag": found.is_flag}
    assert [k for k, yes in kinds.items() if yes] == ([] if kind == "entry" else [kind])
    assert found.label == label
    assert found.limits == limits
    assert found.name == name


def test_a_tokens_field_points_to_its_sector():
    assert field("s2-t1").sector is SECTORS[1]
    assert field("s2-t1").seat is SEATS[1]


@pytest.mark.parametrize("name", [
    pytest.param("s3-farms", id="no-such-seat"),
    pytest.param("s0-farms", id="seat-0"),
    pytest.param("s1-t2", id="no-such-sector"),
    pytest.param("s1-nonsense", id="no-such-category"),
    pytest.param("s1-Farms", id="key-in-capitals"),
    pytest.param("farms", id="no-seat"),
    pytest.param("s-farms", id="no-seat-number"),
    pytest.param("s1-", id="nothing-after-the-dash"),
    pytest.param("s1_farms", id="underscore-for-dash"),
    pytest.param("x1-farms", id="wrong-prefix"),
    pytest.param("s1-farms-2", id="trailing-part"),
    pytest.param(" s1-farms", id="leading-space"),
    pytest.param("s1-t", id="tokens-without-sector"),
    pytest.param("s1-tx", id="tokens-sector-not-a-number"),
    pytest.param("", id="empty"),
])
def test_a_name_that_is_no_field_of_the_game_is_none(name):
    assert pad_field(SEATS, SECTORS, name) is None


@pytest.mark.parametrize("name", [
    pytest.param("s01-farms", id="seat-with-leading-zero"),
    pytest.param("s1-t00", id="sector-with-leading-zero"),
    pytest.param("s1-t01", id="sector-1-with-leading-zero"),
    pytest.param("s\u0661-farms", id="seat-in-arabic-indic-digits"),
    pytest.param("s1-t\uff10", id="sector-in-fullwidth-digits"),
])
def test_a_field_is_found_only_under_its_own_name(name):
    """Each field has one name (``PadField.name``); the pages look cells up by it. A spelling that
    only reads as the same numbers is not that field."""
    assert pad_field(SEATS, SECTORS, name) is None


# ---------------------------------------------------------------------------------------------
# parse_pad_value: what may be typed


@pytest.mark.parametrize(("name", "raw", "value", "sum_text"), [
    pytest.param("s1-farm_income", "12", 12, "", id="whole-number"),
    pytest.param("s1-farm_income", " 12 ", 12, "", id="spaces-around"),
    pytest.param("s1-farm_income", "", 0, "", id="empty-is-0"),
    pytest.param("s1-farm_income", "   ", 0, "", id="blank-is-0"),
    pytest.param("s1-farm_income", "007", 7, "", id="leading-zeros"),
    pytest.param("s1-farm_income", "+5", 5, "", id="plus-sign-is-no-sum"),
    pytest.param("s1-farm_income", "3+6+2", 11, "3+6+2", id="sum"),
    pytest.param("s1-farm_income", "3 + 6 + 2", 11, "3+6+2", id="sum-with-spaces"),
    pytest.param("s1-farm_income", "14-3", 11, "14-3", id="difference"),
    pytest.param("s1-farm_income", "14\u22123", 11, "14-3", id="unicode-minus"),
    pytest.param("s1-farm_income", "14\u20133", 11, "14-3", id="en-dash"),
    pytest.param("s1-farm_income", "3\uff0b4", 7, "3+4", id="fullwidth-plus"),
    pytest.param("s1-farm_income", "999", 999, "", id="highest"),
    pytest.param("s1-carvings", "-3", -3, "", id="negative-carvings"),
    pytest.param("s1-carvings", "-99", -99, "", id="lowest-carvings"),
    pytest.param("s1-carvings", "2-5", -3, "2-5", id="carvings-sum-below-0"),
    pytest.param("s1-farms", "99", 99, "", id="99-farms"),
    pytest.param("s1-farms", "40+2", 42, "40+2", id="farms-as-a-sum"),
    pytest.param("s1-frames_filled", "15", 15, "", id="15-frames"),
    pytest.param("s1-t0", "7", 7, "", id="7-tokens"),
    pytest.param("s1-t0", "0", 0, "", id="0-tokens"),
    pytest.param("s1-t0", "", 0, "", id="no-tokens"),
    pytest.param("s1-active_workers", "4", 4, "", id="4-workers"),
])
def test_accepted_values(name, raw, value, sum_text):
    parsed = parse_pad_value(field(name), raw)

    assert (parsed.value, parsed.sum_text) == (value, sum_text)


@pytest.mark.parametrize(("raw", "checked"), [
    pytest.param("1", True, id="1"),
    pytest.param("on", True, id="on"),
    pytest.param("true", True, id="true"),
    pytest.param("yes", True, id="yes"),
    pytest.param(" Yes ", True, id="yes-any-case"),
    pytest.param("0", False, id="0"),
    pytest.param("", False, id="empty"),
    pytest.param("off", False, id="off"),
])
def test_a_checkbox_is_checked_or_not(raw, checked):
    assert parse_pad_value(field("s1-hive_mat_full"), raw).value is checked


@pytest.mark.parametrize(("name", "raw", "message", "code"), [
    pytest.param("s1-farm_income", "abc", NOT_A_NUMBER_OR_SUM, "not_a_number", id="letters"),
    pytest.param("s1-farm_income", "12abc", NOT_A_NUMBER_OR_SUM, "not_a_number", id="number-then-letters"),
    pytest.param("s1-farm_income", "2+", NOT_A_NUMBER_OR_SUM, "not_a_number", id="unfinished-sum"),
    pytest.param("s1-farm_income", "3++2", NOT_A_NUMBER_OR_SUM, "not_a_number", id="double-plus"),
    pytest.param("s1-farm_income", "1.5", NOT_A_NUMBER_OR_SUM, "not_a_number", id="decimal"),
    pytest.param("s1-farm_income", "1,5", NOT_A_NUMBER_OR_SUM, "not_a_number", id="decimal-comma"),
    pytest.param("s1-farm_income", "3*2", NOT_A_NUMBER_OR_SUM, "not_a_number", id="product"),
    pytest.param("s1-farm_income", "1e3", NOT_A_NUMBER_OR_SUM, "not_a_number", id="exponent"),
    pytest.param("s1-farm_income", "+", NOT_A_NUMBER_OR_SUM, "not_a_number", id="sign-alone"),
    pytest.param("s1-farm_income", "1+" * 30 + "1", NOT_A_NUMBER_OR_SUM, "not_a_number", id="sum-too-long"),
    pytest.param("s1-farm_income", "1000", "Must be from 0 to 999, not 1000.", "out_of_range", id="1000"),
    pytest.param("s1-explore_tokens", "-1", "Must be from 0 to 999, not -1.", "out_of_range", id="negative"),
    pytest.param("s1-farm_income", "3-5", "3-5 makes -2; this must be from 0 to 999.", "out_of_range",
                 id="sum-below-0"),
    pytest.param("s1-carvings", "-100", "Must be from -99 to 999, not -100.", "out_of_range", id="carvings-100"),
    pytest.param("s1-farms", "120", "Must be from 0 to 99, not 120.", "out_of_range", id="120-farms"),
    pytest.param("s1-farms", "90+20", "90+20 makes 110; this must be from 0 to 99.", "out_of_range",
                 id="farms-sum-too-high"),
    pytest.param("s1-frames_filled", "16", "Must be from 0 to 15, not 16.", "out_of_range", id="16-frames"),
    pytest.param("s1-t0", "8", "Must be from 0 to 7, not 8.", "out_of_range", id="8-tokens"),
    pytest.param("s1-t0", "-1", "Must be from 0 to 7, not -1.", "out_of_range", id="negative-tokens"),
    pytest.param("s1-t0", "3+1", NOT_A_NUMBER, "not_a_number", id="tokens-as-a-sum"),
    pytest.param("s1-t0", "abc", NOT_A_NUMBER, "not_a_number", id="tokens-letters"),
    pytest.param("s1-active_workers", "5", "Must be from 0 to 4, not 5.", "out_of_range", id="5-workers"),
    pytest.param("s1-active_workers", "1+1", NOT_A_NUMBER, "not_a_number", id="workers-as-a-sum"),
    pytest.param("s1-active_workers", "two", NOT_A_NUMBER, "not_a_number", id="workers-in-words"),
])
def test_refused_values_say_why_in_words(name, raw, message, code):
    error = refusal(name, raw)

    assert error.messages == [message]
    assert error.code == code


# ---------------------------------------------------------------------------------------------
# sums.py


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param(" 3 + 6\t+ 2 ", "3+6+2", id="spaces-and-tabs-removed"),
    pytest.param("14\u22123", "14-3", id="minus-sign"),
    pytest.param("14\u20133", "14-3", id="en-dash"),
    pytest.param("3\uff0b4\uff0d1", "3+4-1", id="fullwidth-signs"),
    pytest.param("12", "12", id="unchanged"),
    pytest.param("", "", id="empty"),
])
def test_normalize_removes_spaces_and_plain_ascii_signs(text, expected):
    assert normalize(text) == expected


@pytest.mark.parametrize(("text", "value"), [
    pytest.param("12", 12, id="number"),
    pytest.param("0", 0, id="zero"),
    pytest.param("3+6+2", 11, id="sum"),
    pytest.param("14-3", 11, id="difference"),
    pytest.param("-3", -3, id="negative"),
    pytest.param("+3", 3, id="plus-sign"),
    pytest.param("-3+5", 2, id="negative-then-sum"),
    pytest.param("2-5", -3, id="sum-below-zero"),
    pytest.param(" 1 + 1 ", 2, id="spaces"),
    pytest.param("14\u22123", 11, id="unicode-minus"),
])
def test_evaluate_sum(text, value):
    assert evaluate_sum(text) == value


@pytest.mark.parametrize("text", [
    pytest.param("", id="empty"),
    pytest.param("   ", id="blank"),
    pytest.param("+", id="plus-alone"),
    pytest.param("-", id="minus-alone"),
    pytest.param("3+", id="trailing-plus"),
    pytest.param("3++2", id="double-plus"),
    pytest.param("3+-2", id="plus-minus"),
    pytest.param("1.5", id="decimal"),
    pytest.param("1,5", id="decimal-comma"),
    pytest.param("abc", id="letters"),
    pytest.param("3*2", id="product"),
    pytest.param("(3+2)", id="brackets"),
    pytest.param("0x10", id="hexadecimal"),
])
def test_evaluate_sum_refuses_anything_but_whole_numbers_with_plus_and_minus(text):
    with pytest.raises(NotASum):
        evaluate_sum(text)


def test_not_a_sum_is_a_value_error():
    assert issubclass(NotASum, ValueError)


def test_a_sum_may_be_up_to_60_characters_not_counting_spaces():
    longest = "10" + "+1" * 29
    assert len(longest) == MAX_SUM_LENGTH == 60

    assert evaluate_sum(longest) == 39
    assert evaluate_sum(" + ".join(longest.split("+"))) == 39  # the spaces do not count
    with pytest.raises(NotASum):
        evaluate_sum("1" + longest)


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("3+6+2", True, id="sum"),
    pytest.param("14-3", True, id="difference"),
    pytest.param("3 + 1", True, id="sum-with-spaces"),
    pytest.param("14\u22123", True, id="unicode-minus"),
    pytest.param("12", False, id="number"),
    pytest.param("-3", False, id="negative-number"),
    pytest.param("+3", False, id="plus-sign"),
    pytest.param("", False, id="empty"),
])
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
