"""Specification of the pad's input (``scoring/forms/pad.py``): which field a posted name stands for
(``scoring.fields``), what may be typed (``parse_pad_value``), the pad's plain form (``PadForm``:
what a post without JavaScript changed) and one value saved by the pad's script
(``FieldSaveForm``). The short sums themselves are ``tests/rules/test_sums.py``'s.

A pad field is named ``s<seat>-<category key>``, ``s<seat>-active_workers`` or ``s<seat>-t<sector
position>``. A value is a whole number or, for score entries, a sum such as ``3+6+2``; anything else
is refused with a message in words; an empty field is None (not entered). No database: seats and
sectors are unsaved model instances.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from scoring.fields import PadField, field_address, pad_field, pad_fields
from scoring.forms.pad import FieldSaveForm, PadFlagField, PadForm, PadValueField, ParsedValue, parse_pad_value
from scoring.models import GameSector, Seat
from scoring.rules.categories import During, categories_of
from scoring.rules.sums import MAX_SUM_LENGTH
from scoring.services.pad import Guard

# The categories of a breakdown game's pad: what ``pad_field`` and ``PadForm`` read unless told
# that the game counts the VP track.
PAD_CATEGORIES = categories_of(During.BREAKDOWN)

SEATS = [Seat(number=1, name="Alice"), Seat(number=2, name="Bruno")]
SECTORS = [GameSector(position=0, first_vp=9, second_vp=4), GameSector(position=1, first_vp=13, second_vp=0)]

NOT_A_NUMBER = "Type a whole number."
NOT_A_NUMBER_OR_SUM = "Type a whole number, such as 12, or a sum, such as 3+6+2."


def field(name: str) -> PadField:
    found = pad_field(SEATS, SECTORS, field_address(name))
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
        for category in PAD_CATEGORIES:
            found = field(f"s{seat.number}-{category.key}")
            assert (found.seat, found.category, found.sector) == (seat, category, None)
            assert found.name == f"s{seat.number}-{category.key}"
            assert found.id() == f"f-s{seat.number}-{category.key}"


def test_a_track_games_fields_are_its_track_and_the_end_of_game_entries_never_the_breakdowns():
    assert pad_field(SEATS, SECTORS, field_address("s2-vp_track"), During.TRACK).label == (
        "VP on the track at the end, Bruno"
    )
    assert pad_field(SEATS, SECTORS, field_address("s2-farms"), During.TRACK).category.key == "farms"
    assert pad_field(SEATS, SECTORS, field_address("s2-starting_vp"), During.TRACK) is None
    assert pad_field(SEATS, SECTORS, field_address("s2-vp_track")) is None  # (a breakdown game's)
    names = [pad.name for pad in pad_fields(SEATS, SECTORS, During.TRACK) if pad.seat.number == 1]
    assert names[:2] == ["s1-vp_track", "s1-planted_seed_cards"]
    assert list(PadForm(SEATS, SECTORS, during=During.TRACK).fields) == [
        pad.name for pad in pad_fields(SEATS, SECTORS, During.TRACK)
    ]


@pytest.mark.parametrize(
    ("name", "kind", "label", "limits"),
    [
        pytest.param("s1-farm_income", "entry", "Farm income, Alice", (0, 999), id="vp-entry"),
        pytest.param("s2-carvings", "entry", "Conditions on carvings built, Bruno", (-99, 999), id="carvings"),
        pytest.param("s1-farms", "entry", "Farms built, Alice", (0, 99), id="farms"),
        pytest.param("s1-frames_filled", "entry", "Frames filled, Alice", (0, 15), id="frames"),
        pytest.param("s2-hive_mat_full", "flag", "Hive mat filled, Bruno", (0, 1), id="flag"),
        pytest.param("s1-active_workers", "workers", "Active workers, Alice", (0, 4), id="workers"),
        pytest.param("s2-t0", "tokens", "Tokens in sector 1, Bruno", (0, 7), id="tokens-sector-1"),
        pytest.param("s1-t1", "tokens", "Tokens in sector 2, Alice", (0, 7), id="tokens-sector-2"),
    ],
)
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


@pytest.mark.parametrize(
    "name",
    [
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
    ],
)
def test_a_name_that_is_no_field_of_the_game_is_none(name):
    assert pad_field(SEATS, SECTORS, field_address(name)) is None


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("s01-farms", id="seat-with-leading-zero"),
        pytest.param("s1-t00", id="sector-with-leading-zero"),
        pytest.param("s1-t01", id="sector-1-with-leading-zero"),
        pytest.param("s\u0661-farms", id="seat-in-arabic-indic-digits"),
        pytest.param("s1-t\uff10", id="sector-in-fullwidth-digits"),
    ],
)
def test_a_field_is_found_only_under_its_own_name(name):
    """Each field has one name (``PadField.name``); the pages look cells up by it. A spelling that
    only reads as the same numbers is not that field."""
    assert pad_field(SEATS, SECTORS, field_address(name)) is None


# ---------------------------------------------------------------------------------------------
# parse_pad_value: what may be typed


@pytest.mark.parametrize(
    ("name", "raw", "value", "sum_text"),
    [
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
    ],
)
def test_accepted_values(name, raw, value, sum_text):
    """A whole number or a sum; an empty field is None: not entered (it counts as 0 in the scores)."""
    parsed = parse_pad_value(field(name), raw)

    assert (parsed.value, parsed.sum_text) == (value, sum_text)


@pytest.mark.parametrize(
    ("raw", "checked"),
    [
        pytest.param("1", True, id="1"),
        pytest.param("on", True, id="on"),
        pytest.param("true", True, id="true"),
        pytest.param("yes", True, id="yes"),
        pytest.param(" Yes ", True, id="yes-any-case"),
        pytest.param("0", False, id="0"),
        pytest.param("", False, id="empty"),
        pytest.param("off", False, id="off"),
    ],
)
def test_a_checkbox_is_checked_or_not(raw, checked):
    assert parse_pad_value(field("s1-hive_mat_full"), raw).value is checked


@pytest.mark.parametrize(
    ("name", "raw", "message", "code"),
    [
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
        pytest.param(
            "s1-farm_income", "1000", "The value must be from 0 to 999 (not 1000).", "out_of_range", id="1000"
        ),
        pytest.param(
            "s1-explore_tokens", "-1", "The value must be from 0 to 999 (not -1).", "out_of_range", id="negative"
        ),
        pytest.param(
            "s1-farm_income", "3-5", "3-5 makes -2; the value must be from 0 to 999.", "out_of_range", id="sum-below-0"
        ),
        pytest.param(
            "s1-carvings", "-100", "The value must be from -99 to 999 (not -100).", "out_of_range", id="carvings-100"
        ),
        pytest.param("s1-farms", "120", "The value must be from 0 to 99 (not 120).", "out_of_range", id="120-farms"),
        pytest.param(
            "s1-farms",
            "90+20",
            "90+20 makes 110; the value must be from 0 to 99.",
            "out_of_range",
            id="farms-sum-too-high",
        ),
        pytest.param(
            "s1-frames_filled", "16", "The value must be from 0 to 15 (not 16).", "out_of_range", id="16-frames"
        ),
        pytest.param("s1-t0", "8", "The value must be from 0 to 7 (not 8).", "out_of_range", id="8-tokens"),
        pytest.param("s1-t0", "-1", "The value must be from 0 to 7 (not -1).", "out_of_range", id="negative-tokens"),
        pytest.param("s1-t0", "3+1", NOT_A_NUMBER, "not_a_number", id="tokens-as-a-sum"),
        pytest.param("s1-t0", "abc", NOT_A_NUMBER, "not_a_number", id="tokens-letters"),
        pytest.param(
            "s1-active_workers", "5", "The value must be from 0 to 4 (not 5).", "out_of_range", id="5-workers"
        ),
        pytest.param("s1-active_workers", "1+1", NOT_A_NUMBER, "not_a_number", id="workers-as-a-sum"),
        pytest.param("s1-active_workers", "two", NOT_A_NUMBER, "not_a_number", id="workers-in-words"),
        pytest.param(
            "s1-farm_income", "\u0663", "Type the digits 0 to 9 (not \u0663).", "not_a_number", id="arabic-indic-digit"
        ),
        pytest.param(
            "s1-farm_income",
            "\uff11\uff12",
            "Type the digits 0 to 9 (not \uff11\uff12).",
            "not_a_number",
            id="fullwidth-digits",
        ),
        pytest.param(
            "s1-farm_income",
            "3+\u0663",
            "Type the digits 0 to 9 (not 3+\u0663).",
            "not_a_number",
            id="sum-with-an-arabic-indic-digit",
        ),
        pytest.param(
            "s1-farm_income",
            " \u0967\u0968 ",
            "Type the digits 0 to 9 (not \u0967\u0968).",
            "not_a_number",
            id="devanagari-digits-with-spaces",
        ),
        pytest.param(
            "s1-farms", "\u00b2", "Type the digits 0 to 9 (not \u00b2).", "not_a_number", id="superscript-two"
        ),
        pytest.param(
            "s1-t0", "\u0663", "Type the digits 0 to 9 (not \u0663).", "not_a_number", id="tokens-other-digit"
        ),
        pytest.param(
            "s1-active_workers",
            "\uff12",
            "Type the digits 0 to 9 (not \uff12).",
            "not_a_number",
            id="workers-fullwidth-digit",
        ),
    ],
)
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
    assert len(form.fields) == 2 * (len(PAD_CATEGORIES) + len(SECTORS) + 1)
    for name, form_field in form.fields.items():
        assert form_field.show_hidden_initial, name
        assert not form_field.required, name
        assert form.pads[name].name == name
        assert isinstance(form_field, PadFlagField if form.pads[name].is_flag else PadValueField)
    assert form.add_initial_prefix("s1-farms") == "initial-s1-farms"
    assert "s3-farms" not in form.pads


def test_only_the_fields_whose_value_differs_from_the_value_the_page_showed_are_changed():
    form = pad_form(
        {
            "s1-farms": "3",
            "initial-s1-farms": "3",  # as shown
            "s1-farm_income": "5",
            "initial-s1-farm_income": "",  # entered
            "s1-recruits": "",
            "initial-s1-recruits": "4",  # cleared
            "s2-carvings": " 3 + 1 ",
            "initial-s2-carvings": "3+1",  # the same sum, spaced out
            "s2-recruits": "4",
            "initial-s2-recruits": "2+2",  # the same value, typed otherwise
            "s1-t0": "",
            "initial-s1-t0": "",  # still not entered
            "s2-t1": "0",
            "initial-s2-t1": "",  # 0 entered
            "s2-active_workers": "2",
            "initial-s2-active_workers": "2",
        }
    )

    assert form.changed_data == ["s1-farm_income", "s1-recruits", "s2-recruits", "s2-t1"]


def test_a_field_that_the_post_does_not_hold_is_not_changed():
    """The "one player at a time" view posts only that player's fields."""
    form = pad_form({"s2-farms": "4", "initial-s2-farms": "", "initial-s2-hive_mat_full": "False"})

    assert form.changed_data == ["s2-farms"]


NOT_SHOWN = (
    "This page did not say what it showed here, so saving could overwrite another phone’s value: reload "
    "the page, then type it again."
)


def test_a_field_changed_without_its_hidden_initial_is_refused_never_written_blind():
    form = pad_form({"s1-farms": "3", "s1-recruits": "", "s2-farms": "4", "initial-s2-farms": "1"})

    assert not form.is_valid()
    assert form.errors["s1-farms"] == [NOT_SHOWN]
    assert [posted.name for posted in form.posted_values()] == ["s2-farms"]  # the others are still saved


@pytest.mark.parametrize(
    ("posted", "initial", "changed"),
    [
        pytest.param("1", "False", True, id="ticked"),
        pytest.param(None, "True", True, id="unticked"),
        pytest.param("1", "True", False, id="still-ticked"),
        pytest.param(None, "False", False, id="still-unticked"),
    ],
)
def test_a_checkbox_is_changed_when_ticked_or_unticked(posted, initial, changed):
    data = {"initial-s1-hive_mat_full": initial}
    if posted is not None:
        data["s1-hive_mat_full"] = posted

    form = pad_form(data)

    assert form.is_valid()
    assert ("s1-hive_mat_full" in form.changed_data) is changed
    assert form.cleaned_data["s1-hive_mat_full"] == ParsedValue(posted is not None)


@pytest.mark.parametrize(
    ("name", "typed", "initial", "shown"),
    [
        pytest.param("s1-farms", "4", "3", 3, id="number"),
        pytest.param("s1-farm_income", "4", "3+6+2", 11, id="sum"),
        pytest.param("s1-farms", "4", "", None, id="not-entered"),
        pytest.param("s1-t0", "1", "", None, id="tokens-not-entered"),
        pytest.param("s1-hive_mat_full", "", "True", True, id="ticked"),
        pytest.param("s1-hive_mat_full", "1", "False", False, id="unticked"),
    ],
)
def test_a_posted_value_is_checked_against_the_value_the_page_showed(name, typed, initial, shown):
    form = pad_form({name: typed, f"initial-{name}": initial})

    assert form.is_valid()
    [posted] = form.posted_values()
    assert (posted.name, posted.shown) == (name, shown)
    assert posted.value_save().guard.value == shown


def test_an_unreadable_hidden_initial_is_refused_as_a_missing_one():
    form = pad_form({"s1-farms": "4", "initial-s1-farms": "abc"})

    assert form.errors["s1-farms"] == [NOT_SHOWN] and form.posted_values() == []


def test_a_stepper_button_steps_the_stored_value_or_what_was_typed():
    stepped = pad_form({"s1-t0": "2", "initial-s1-t0": "2", "step": "s1-t0:+1"})
    typed_then_stepped = pad_form({"s1-t0": "3", "initial-s1-t0": "2", "step": "s1-t0:-1"})
    at_the_limit = pad_form({"s1-t0": "7", "initial-s1-t0": "2", "step": "s1-t0:+1"})

    assert stepped.is_valid() and typed_then_stepped.is_valid() and at_the_limit.is_valid()
    [stepped_save] = stepped.value_saves()
    [typed_save] = typed_then_stepped.value_saves()
    [limit_save] = at_the_limit.value_saves()
    assert (stepped_save.step, stepped_save.value, stepped_save.sum_text) == (1, None, "")
    assert (typed_save.step, typed_save.value) == (0, 2)
    assert (limit_save.step, limit_save.value) == (0, 7)
    assert pad_form({"step": "s9-t0:+1"}).stepped == "" and pad_form({"step": "s1-t0:+5"}).stepped == ""


def test_lowered_counts_are_saved_first():
    """A token moved from one sector to another: the sector it leaves is saved before the one it
    enters, so the player never has more than 7 on the comb on the way."""
    form = pad_form({"s1-t0": "7", "initial-s1-t0": "6", "s1-t1": "0", "initial-s1-t1": "1"})

    assert form.is_valid()
    assert [posted.name for posted in form.posted_values()] == ["s1-t1", "s1-t0"]


def test_a_pad_value_may_be_at_most_60_characters():
    form = pad_form({"s1-farm_income": "1" * 61, "initial-s1-farm_income": ""})

    assert form.fields["s1-farm_income"].max_length == MAX_SUM_LENGTH
    assert not form.is_valid()
    assert "s1-farm_income" in form.errors


# ---------------------------------------------------------------------------------------------
# FieldSaveForm: one value saved by the pad's script

NO_VERSION = "This save does not say which version of the value it replaces: reload the page, then type it again."


def save_form(**data) -> FieldSaveForm:
    return FieldSaveForm({"page": "p", "seq": "1", **data})


@pytest.mark.parametrize(
    ("data", "arguments"),
    [
        pytest.param(
            {"field": "s1-farm_income", "value": "3+6+2", "version": "2"}, {"value": 11, "sum_text": "3+6+2"}, id="sum"
        ),
        pytest.param({"field": "s1-farms", "value": "", "version": "0"}, {"value": None, "sum_text": ""}, id="cleared"),
        pytest.param(
            {"field": "s2-hive_mat_full", "value": "1", "version": "0"}, {"value": True, "sum_text": ""}, id="ticked"
        ),
        pytest.param({"field": "s1-t0", "step": "-3", "version": "4"}, {"step": -3}, id="step"),
    ],
)
def test_a_save_reads_the_value_as_the_pad_form_does_or_a_step(data, arguments):
    form = save_form(**data)

    assert form.is_valid(), form.errors
    found = form.save_arguments()
    assert found.pop("guard") == Guard(version=int(data["version"]), page="p", seq=1)
    assert found == arguments
    assert form.address == field_address(data["field"])


@pytest.mark.parametrize(
    "version",
    [
        pytest.param(None, id="missing"),
        pytest.param("", id="empty"),
        pytest.param("abc", id="letters"),
        pytest.param("1.5", id="not-whole"),
        pytest.param("-1", id="negative"),
    ],
)
def test_a_save_without_a_readable_version_is_refused_in_words(version):
    """A save that cannot say what it is based on would skip the conflict check (a stale phone
    overwrote 4 with 9 so): refused as bad input, never written."""
    data = {"field": "s1-farms", "value": "9"} | ({} if version is None else {"version": version})

    form = save_form(**data)

    assert not form.is_valid()
    assert form.errors["version"] == [NO_VERSION]


@pytest.mark.parametrize(
    ("data", "where", "message"),
    [
        pytest.param(
            {"field": "s1-farms", "value": "120"},
            "value",
            "The value must be from 0 to 99 (not 120).",
            id="out-of-range",
        ),
        pytest.param({"field": "s1-t0", "value": "2+1"}, "value", "Type a whole number.", id="sum-of-tokens"),
        pytest.param(
            {"field": "s1-nonsense", "value": "1"}, "field", "This field is not part of the game.", id="no-such-field"
        ),
        pytest.param({"field": "s1-farms"}, "__all__", "Type a value, or tap + or \u2212.", id="neither"),
        pytest.param({"field": "s1-t0", "step": "21"}, "step", None, id="too-many-taps"),
    ],
)
def test_a_save_with_bad_input_says_what_is_wrong(data, where, message):
    form = save_form(version="0", **data)

    assert not form.is_valid()
    assert where in form.errors
    if message:
        assert form.errors[where] == [message]
