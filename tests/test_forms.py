"""Specification of the pad's field input: field names (``pad_field``), what may be typed
(``parse_pad_value``), the pad's plain form (``PadForm``: what a post without JavaScript changed)
and the short sums of ``scoring/sums.py``.

A pad field is named ``s<seat>-<category key>``, ``s<seat>-active_workers`` or ``s<seat>-t<sector
position>``. A value is a whole number or, for score entries, a sum such as ``3+6+2``; anything else
is refused with a message in words; an empty field is None (not entered). No database: seats and
sectors are unsaved model instances.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from scoring.categories import CATEGORIES
from scoring.forms import (
    PadField,
    PadFlagField,
    PadForm,
    PadValueField,
    ParsedValue,
    pad_field,
    pad_fields,
    parse_pad_value,
)
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
    pytest.param("s1-farm_income", "", None, "", id="empty-is-not-entered"),
    pytest.param("s1-farm_income", "   ", None, "", id="blank-is-not-entered"),
    pytest.param("s1-farm_income", "0", 0, "", id="0-is-entered"),
    pytest.param("s1-farm_income", "007", 7, "", id="leading-zeros"),
    pytest.param("s1-farm_income", "+5", 5, "", id="plus-sign-is-no-sum"),
    pytest.param("s1-farm_income", "3+6+2", 11, "3+6+2", id="sum"),
    pytest.param("s1-farm_income", "4+4", 8, "4+4", id="sum-of-equal-terms"),
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
    pytest.param("s1-t0", "", None, "", id="tokens-not-entered"),
    pytest.param("s1-active_workers", "4", 4, "", id="4-workers"),
    pytest.param("s1-active_workers", "", None, "", id="workers-not-entered"),
])
def test_accepted_values(name, raw, value, sum_text):
    """A whole number or a sum; an empty field is None: not entered (it counts as 0 in the scores)."""
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
    pytest.param("s1-farm_income", "\u0663", "Type the digits 0 to 9 (not \u0663).", "not_a_number",
                 id="arabic-indic-digit"),
    pytest.param("s1-farm_income", "\uff11\uff12", "Type the digits 0 to 9 (not \uff11\uff12).", "not_a_number",
                 id="fullwidth-digits"),
    pytest.param("s1-farm_income", "3+\u0663", "Type the digits 0 to 9 (not 3+\u0663).", "not_a_number",
                 id="sum-with-an-arabic-indic-digit"),
    pytest.param("s1-farm_income", " \u0967\u0968 ", "Type the digits 0 to 9 (not \u0967\u0968).", "not_a_number",
                 id="devanagari-digits-with-spaces"),
    pytest.param("s1-farms", "\u00b2", "Type the digits 0 to 9 (not \u00b2).", "not_a_number", id="superscript-two"),
    pytest.param("s1-t0", "\u0663", "Type the digits 0 to 9 (not \u0663).", "not_a_number", id="tokens-other-digit"),
    pytest.param("s1-active_workers", "\uff12", "Type the digits 0 to 9 (not \uff12).", "not_a_number",
                 id="workers-fullwidth-digit"),
])
def test_refused_values_say_why_in_words(name, raw, message, code):
    error = refusal(name, raw)

    assert error.messages == [message]
    assert error.code == code


# ---------------------------------------------------------------------------------------------
# PadForm: a plain post saves only what the phone changed


def pad_form(data: dict[str, str | list[str]] | None = None) -> PadForm:
    return PadForm(SEATS, SECTORS, data)


def test_the_pad_form_has_one_field_per_pad_field_each_with_a_hidden_initial():
    form = pad_form()

    assert list(form.fields) == [pad.name for pad in pad_fields(SEATS, SECTORS)]
    assert len(form.fields) == 2 * (len(CATEGORIES) + len(SECTORS) + 1)
    for name, form_field in form.fields.items():
        assert form_field.show_hidden_initial, name
        assert not form_field.required, name
        assert form.pad_for(name).name == name
        assert isinstance(form_field, PadFlagField if form.pad_for(name).is_flag else PadValueField)
    assert form.add_initial_prefix("s1-farms") == "initial-s1-farms"
    assert form.pad_for("s3-farms") is None


def test_only_the_fields_whose_value_differs_from_the_value_the_page_showed_are_changed():
    form = pad_form({
        "s1-farms": "3", "initial-s1-farms": "3",  # as shown
        "s1-farm_income": "5", "initial-s1-farm_income": "",  # entered
        "s1-recruits": "", "initial-s1-recruits": "4",  # cleared
        "s2-carvings": " 3 + 1 ", "initial-s2-carvings": "3+1",  # the same sum, spaced out
        "s2-recruits": "4", "initial-s2-recruits": "2+2",  # the same value, typed otherwise
        "s1-t0": "", "initial-s1-t0": "",  # still not entered
        "s2-t1": "0", "initial-s2-t1": "",  # 0 entered
        "s2-active_workers": "2", "initial-s2-active_workers": "2",
    })

    assert form.changed_data == ["s1-farm_income", "s1-recruits", "s2-recruits", "s2-t1"]


def test_a_field_that_the_post_does_not_hold_is_not_changed():
    """The "one player at a time" view posts only that player's fields."""
    form = pad_form({"s2-farms": "4", "initial-s2-farms": "", "initial-s2-hive_mat_full": "False"})

    assert form.changed_data == ["s2-farms"]


def test_a_field_posted_without_its_hidden_initial_is_changed_unless_empty():
    form = pad_form({"s1-farms": "3", "s1-recruits": ""})

    assert form.changed_data == ["s1-farms"]
    assert form.shown_value("s1-farms") is None  # nothing to compare with: not checked


@pytest.mark.parametrize(("posted", "initial", "changed"), [
    pytest.param("1", "False", True, id="ticked"),
    pytest.param(None, "True", True, id="unticked"),
    pytest.param("1", "True", False, id="still-ticked"),
    pytest.param(None, "False", False, id="still-unticked"),
])
def test_a_checkbox_is_changed_when_ticked_or_unticked(posted, initial, changed):
    data = {"initial-s1-hive_mat_full": initial}
    if posted is not None:
        data["s1-hive_mat_full"] = posted

    form = pad_form(data)

    assert ("s1-hive_mat_full" in form.changed_data) is changed
    assert form.clean_one("s1-hive_mat_full", form["s1-hive_mat_full"].data) == ParsedValue(posted is not None)


@pytest.mark.parametrize(("name", "initial", "shown"), [
    pytest.param("s1-farms", "3", ParsedValue(3), id="number"),
    pytest.param("s1-farm_income", "3+6+2", ParsedValue(11, "3+6+2"), id="sum"),
    pytest.param("s1-farms", "", ParsedValue(None), id="not-entered"),
    pytest.param("s1-t0", "", ParsedValue(None), id="tokens-not-entered"),
    pytest.param("s1-hive_mat_full", "True", ParsedValue(True), id="ticked"),
    pytest.param("s1-hive_mat_full", "False", ParsedValue(False), id="unticked"),
    pytest.param("s1-farms", "abc", None, id="unreadable"),
])
def test_the_value_the_page_showed_is_read_from_the_hidden_initial(name, initial, shown):
    form = pad_form({f"initial-{name}": initial})

    assert form.shown_value(name) == shown


def test_clean_one_parses_what_was_typed_into_a_field():
    form = pad_form()

    assert form.clean_one("s1-farm_income", "4+4") == ParsedValue(8, "4+4")
    assert form.clean_one("s2-t1", "") == ParsedValue(None)
    with pytest.raises(ValidationError) as refused:
        form.clean_one("s1-farms", "120")
    assert refused.value.messages == ["Must be from 0 to 99, not 120."]


def test_a_pad_value_may_be_at_most_60_characters():
    form = pad_form({"s1-farm_income": "1" * 61, "initial-s1-farm_income": ""})

    assert form.fields["s1-farm_income"].max_length == MAX_SUM_LENGTH
    assert not form.is_valid()
    assert "s1-farm_income" in form.errors


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


@pytest.mark.parametrize("text", [
    pytest.param("\u0663", id="arabic-indic-3"),
    pytest.param("\uff11\uff12", id="fullwidth-12"),
    pytest.param("3+\u0663", id="sum-with-another-digit"),
    pytest.param("\u00b2", id="superscript-2"),
])
def test_sums_use_only_the_digits_0_to_9(text):
    """Python's int() and \\d would take other scripts' digits; a sum does not."""
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
