"""Specification of one field saved by the pad's script (``/save/``, ``FieldSaveForm``): it names
the version of the value its page saw (always: a save without one is refused), and its page and
save number: 200 saved (or an older save of the same page, ignored), 409 changed on another phone
meanwhile (nothing written), 422 refused in words under the field, 400 not a field of the game; a
stepper sends its change (``step``), applied to the stored value. The answer is partials of the
pad, whether or not the request says it is htmx's."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.models import Change
from scoring.services.sharing import link_renew
from tests.support.factories import (
    game_scored,
    game_started,
    player,
    revision_of,
    save_value,
    save_workers,
    seat_of,
    tokens_of,
)
from tests.support.pages import (
    HTMX,
    SCRIPT,
    WITH_AND_WITHOUT_HTMX,
    Element,
    entry,
    labelled,
    page,
    save,
    snapshot,
    strict_client,
    top_level,
    url,
)
from tests.views.pad_cases import MISSING_VERSION, status_of

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Saving one field (the pad's script): /games/<id>/save/


def error_of(response, name: str) -> Element:
    return page(response).by_id(f"error-{name}")


def test_save_answers_the_fields_status_then_its_error_and_every_figure_out_of_band(client):
    game = game_started("Alice", "Bruno", "Carla")

    response = save(client, game, "s1-farm_income", "11", version=0, page="a", seq=1)

    assert response.status_code == 200
    status, *oob = top_level(page(response))
    assert status["id"] == "status-s1-farm_income"
    assert "hx-swap-oob" not in status.attrs and "data-conflict" not in status.attrs
    assert status.text == "Saved"
    assert (status["data-version"], status["data-stored"]) == ("1", "11")
    # the figures a during-the-game entry can change (not every figure)
    assert [part["id"] for part in oob] == [
        "error-s1-farm_income",
        "during-subtotal",
        "totals",
        "ranking",
        "label-farm_income",
        "warnings-farm_income",
    ]
    assert all(part["hx-swap-oob"] == "true" for part in oob)
    assert "hidden" in oob[0].attrs and oob[0].text == ""
    assert entry(game, 1, "farm_income") == 11
    assert response["X-Pad-Revision"] == "1" == str(revision_of(game))


@pytest.mark.parametrize(
    ("field", "value", "figures"),
    [
        ("s2-recruits", "4", ["end-subtotal", "totals", "ranking", "label-recruits", "warnings-recruits"]),
        (
            "s2-t1",
            "2",
            [
                "majority-row",
                "end-subtotal",
                "comb-hints",
                "sector-0-summary",
                "sector-1-summary",
                "sector-2-summary",
                "totals",
                "ranking",
                "[data-live]",
            ],
        ),
        ("s2-active_workers", "3", ["totals", "ranking"]),
    ],
)
def test_a_save_answers_the_figures_its_kind_of_field_can_change(client, field, value, figures):
    game = game_started("Alice", "Bruno", "Carla")

    response = save(client, game, field, value, version=0, page="a", seq=1)

    assert response.status_code == 200
    _status, *oob = top_level(page(response))
    assert [part.get("id") or "[data-live]" for part in oob] == [f"error-{field}", *figures]


def test_a_save_from_a_page_showing_its_recent_changes_answers_them_too(client):
    game = game_started("Alice", "Bruno", "Carla")

    response = save(client, game, "s2-recruits", "4", version=0, page="a", seq=1, changes=1)

    _status, *oob = top_level(page(response))
    assert [part["id"] for part in oob] == [
        "error-s2-recruits",
        "end-subtotal",
        "totals",
        "ranking",
        "label-recruits",
        "warnings-recruits",
        "changes",
    ]
    assert "Recruits built, Bruno: — → 4" in oob[-1].text


def test_save_sends_the_new_figures(client):
    game = game_started("Alice", "Bruno", "Carla")

    html = page(save(client, game, "s1-farm_income", "11"))

    assert labelled(html.by_id("totals"), "Total, Alice").text == "12"
    assert labelled(html.by_id("during-subtotal"), "During the game, Alice").text == "12"
    assert html.find(id="end-subtotal") is None  # a during-the-game entry cannot change it
    ranking = html.by_id("ranking").find_all("li")
    assert [item.text for item in ranking] == ["1st Alice 12 VP", "2nd Carla 3 VP", "3rd Bruno 2 VP"]
    assert ranking[0]["class"] == "winner"


def test_save_of_tokens_sends_the_sector_sentence_and_the_majorities(client):
    game = game_started("Alice", "Bruno", "Carla")

    response = save(client, game, "s2-t0", "2")

    html = page(response)
    assert tokens_of(game, 2) == [2, 0, 0]
    assert status_of(response).one(class_="vp").text == "+9"  # the VP this sector gives Bruno
    assert html.by_id("sector-0-summary").text == (
        "Bruno leads with 2 tokens: 9 VP. Nobody else has a token here, so 2nd place is not awarded."
    )
    assert labelled(html.by_id("majority-row"), "Comb majorities, Bruno").text == "9"
    assert labelled(html.by_id("end-subtotal"), "End of the game, Bruno").text == "9"
    assert labelled(html.by_id("totals"), "Total, Bruno").text == "11"
    assert html.by_id("sector-1-summary").text == "No tokens yet: nobody scores."


def test_save_of_tokens_sends_the_other_cells_of_its_sector_with_their_awards(client):
    """Tokens in a sector change the other players' awards there: a comb step's answer carries
    the sector's other cells as a poll brings them (their stored values, versions and statuses,
    not marked saved), so the phone that typed shows the awards that moved at once."""
    game = game_started("Alice", "Bruno", "Carla")
    save(client, game, "s1-t0", "2")  # Alice leads sector 1: 9 VP

    response = save(client, game, "s2-t0", "3")  # Bruno takes the lead

    assert status_of(response).one(class_="award").text == "+9"
    cells = page(response).one(data_live=True)
    items = {item["data-name"]: item for item in cells.find_all("i")}
    assert set(items) == {"s1-t0", "s3-t0"}  # the sector's other cells, not the one saved
    assert items["s1-t0"].one(class_="award").text == "+4"  # Alice is second now
    assert items["s1-t0"]["data-stored"] == "2" and items["s1-t0"]["data-version"] == "1"
    assert items["s3-t0"].find(class_="award") is None and items["s3-t0"]["data-stored"] == ""
    assert not cells.find_all(class_="saved-mark")
    assert page(save(client, game, "s1-farms", "2")).find(data_live=True) is None  # not a comb field


def test_save_answers_its_rows_heading_entered_or_not_yet(client):
    """The first value entered in a row takes "(not entered yet)" off its heading; clearing the last
    one puts it back (pad.js dims the row to match the heading's data-entered)."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "2")  # (scoring has begun: the headings say what is left)
    first = page(save(client, game, "s2-recruits", "4")).by_id("label-recruits")
    assert first["data-entered"] == "1" and "(not entered yet)" not in first.text
    cleared = page(save(client, game, "s2-recruits", "")).by_id("label-recruits")
    assert cleared["data-entered"] == "0" and cleared.text.endswith("(not entered yet)")
    assert cleared["hx-swap-oob"] == "true"


@pytest.mark.parametrize(
    ("name", "value", "key", "stored", "vp"),
    [
        pytest.param("s1-farm_income", "11", "farm_income", 11, None, id="vp-entry"),
        pytest.param("s1-carvings", "-3", "carvings", -3, None, id="negative-carvings"),
        pytest.param("s1-farms", "4", "farms", 4, "4 VP", id="count-shows-its-vp"),
        pytest.param("s1-frames_filled", "2", "frames_filled", 2, "16 VP", id="frames-8-vp-each"),
        pytest.param("s1-hive_mat_full", "1", "hive_mat_full", True, "8 VP", id="checkbox-ticked"),
        pytest.param("s1-hive_mat_full", "", "hive_mat_full", False, "0 VP", id="checkbox-unticked"),
        pytest.param("s1-active_workers", "3", "active_workers", 3, None, id="active-workers"),
        pytest.param("s1-farm_income", "", "farm_income", None, None, id="empty-is-not-entered"),
        pytest.param("s1-farms", "", "farms", None, "0 VP", id="empty-count-is-not-entered-and-worth-0"),
        pytest.param("s1-active_workers", "", "active_workers", None, None, id="workers-not-entered"),
    ],
)
def test_save_stores_each_kind_of_field(client, name, value, key, stored, vp):
    game = game_started("Alice", "Bruno")
    for setup_key, setup_value in (("hive_mat_full", True), ("farm_income", 5), ("farms", 2)):
        save_value(seat=seat_of(game, 1), key=setup_key, value=setup_value)
    save_workers(seat=seat_of(game, 1), workers=1)

    response = save(client, game, name, value)

    assert response.status_code == 200
    status = status_of(response)
    assert status.one(class_="saved-mark").text == "Saved"
    assert (status.one(class_="vp").text if vp else status.find(class_="vp")) == vp
    assert entry(game, 1, key) == stored
    assert status["data-stored"] == ("" if stored is None else str(stored))


def test_save_of_a_sum_stores_its_value_and_keeps_the_text(client):
    game = game_started("Alice", "Bruno")

    response = save(client, game, "s1-farm_income", "3+6+2")

    seat = seat_of(game, 1)
    assert (seat.farm_income, seat.sums) == (11, {"farm_income": "3+6+2"})
    assert status_of(response).one(class_="sum-result").text == "= 11"
    assert status_of(response)["data-stored"] == "3+6+2"
    assert labelled(page(client.get(url("pad", game))), "Farm income, Alice")["value"] == "3+6+2"


# One of each kind of field (every message of every kind is tests/forms/test_pad.py).
INVALID_VALUES = [
    pytest.param(
        "s1-farm_income",
        "abc",
        "Farm income, Alice: type a whole number, such as 12, or a sum, such as 3+6+2.",
        id="letters",
    ),
    pytest.param(
        "s1-farms",
        "90+20",
        "Farms built, Alice: 90+20 makes 110; the value must be from 0 to 99.",
        id="sum-out-of-range",
    ),
    pytest.param(
        "s2-t0", "8", "Tokens in sector 1, Bruno: the value must be from 0 to 7 (not 8).", id="8-tokens-in-a-sector"
    ),
    pytest.param(
        "s1-active_workers", "5", "Active workers, Alice: the value must be from 0 to 4 (not 5).", id="5-active-workers"
    ),
]


@pytest.mark.parametrize(("name", "value", "message"), INVALID_VALUES)
def test_save_of_invalid_input_answers_422_with_the_message_naming_player_and_category(client, name, value, message):
    game = game_started("Alice", "Bruno", "Carla")
    save_value(seat=seat_of(game, 1), key="farm_income", value=7, sum_text="3+4")
    before, revision = snapshot(game), revision_of(game)

    response = save(client, game, name, value, version=0, page="a", seq=1)

    assert response.status_code == 422
    status, *rest = top_level(page(response))
    assert status["id"] == f"status-{name}" and "data-conflict" not in status.attrs
    assert [part["id"] for part in rest] == [f"error-{name}"], "an invalid value changes no figure"
    assert rest[0]["hx-swap-oob"] == "true" and "hidden" not in rest[0].attrs
    assert rest[0].one("b").text == message.split(": ")[0]  # (the colon is the sentence's, typographed by its language)
    assert rest[0].text == message
    assert (snapshot(game), revision_of(game)) == (before, revision)
    assert response["X-Pad-Revision"] == str(revision)


def test_save_refuses_tokens_beyond_the_7_a_player_owns_in_all_sectors(client):
    game = game_scored(player("Alice", tokens=[4, 0, 0]), player("Bruno"))

    response = save(client, game, "s1-t1", "4")

    assert response.status_code == 422
    assert error_of(response, "s1-t1").text == (
        "Tokens in sector 2, Alice: Alice owns only 7 hibernation tokens and has 4 in other sectors: at most 3 here."
    )
    assert tokens_of(game, 1) == [4, 0, 0]
    assert save(client, game, "s1-t1", "3").status_code == 200
    assert tokens_of(game, 1) == [4, 3, 0]


NOT_A_FIELD = "This field is not part of the game."


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param({"field": "s9-farm_income", "value": "3"}, NOT_A_FIELD, id="no-such-seat"),
        pytest.param({"field": "s1-t3", "value": "3"}, NOT_A_FIELD, id="no-such-sector"),
        pytest.param({"field": "s1-nonsense", "value": "3"}, NOT_A_FIELD, id="no-such-category"),
        pytest.param({"field": "farm_income", "value": "3"}, NOT_A_FIELD, id="no-seat"),
        pytest.param({"value": "3"}, "This one is needed.", id="field-missing"),
        pytest.param({"field": "", "value": "3"}, "This one is needed.", id="field-empty"),
    ],
)
def test_save_of_no_field_of_the_game_is_400_in_a_sentence_and_stores_nothing(client, data, message):
    game = game_started("Alice", "Bruno")
    before = snapshot(game)

    response = client.post(url("save", game), {**data, "version": "0", "page": "a", "seq": "1"}, headers=SCRIPT)

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode() == message
    assert snapshot(game) == before
    assert not Change.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param({}, "type a value, or tap + or \u2212.", id="neither-value-nor-step"),
        pytest.param({"s1-farms": "3"}, "type a value, or tap + or \u2212.", id="value-under-the-fields-name"),
        pytest.param({"step": "0"}, "type a value, or tap + or \u2212.", id="step-0"),
        pytest.param({"step": ""}, "type a value, or tap + or \u2212.", id="step-empty"),
        pytest.param({"step": "21"}, "at most 20.", id="step-above-20"),
        pytest.param({"step": "-21"}, "at least -20.", id="step-below-minus-20"),
        pytest.param({"step": "x"}, "type a whole number, such as 12.", id="step-not-a-number"),
        pytest.param({"step": "1.5"}, "type a whole number, such as 12.", id="step-not-whole"),
    ],
)
def test_save_of_neither_a_value_nor_a_step_is_422_under_the_field_and_stores_nothing(client, data, message):
    game = game_started("Alice", "Bruno")
    before = snapshot(game)

    response = client.post(
        url("save", game), {"field": "s1-farms", **data, "version": "0", "page": "a", "seq": "1"}, headers=SCRIPT
    )

    assert response.status_code == 422
    assert [part["id"] for part in top_level(page(response))] == ["status-s1-farms", "error-s1-farms"]
    assert error_of(response, "s1-farms").text == f"Farms built, Alice: {message}"
    assert snapshot(game) == before
    assert not Change.objects.exists()


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("s01-farm_income", id="seat-with-leading-zero"),
        pytest.param("s1-t00", id="sector-with-leading-zero"),
        pytest.param("s\u0661-farm_income", id="seat-in-arabic-indic-digits"),
    ],
)
def test_save_accepts_a_field_only_under_its_own_name(client, name):
    """A name that only looks like a field ("s01-…" for "s1-…") is not one: answered 400 and not saved,
    as otherwise the status partial is rendered for no cell (id="status-")."""
    game = game_started("Alice", "Bruno")

    response = client.post(url("save", game), {"field": name, "value": "3", "version": "0"}, headers=SCRIPT)

    assert response.status_code == 400
    assert entry(game, 1, "farm_income") is None
    assert tokens_of(game, 1) == [0, 0, 0]


# -- what a save is based on: versions, pages and save numbers --------------------------------


def test_save_based_on_the_version_the_page_saw_is_saved_and_answers_the_new_version(client):
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", version=0, page="a", seq=1)

    response = save(client, game, "s1-farms", "5", version=1, page="b", seq=1)

    assert response.status_code == 200
    assert (status_of(response)["data-version"], status_of(response)["data-stored"]) == ("2", "5")
    assert entry(game, 1, "farms") == 5
    assert seat_of(game, 1).revisions["farms"] == [2, "b", 1, {"a": 1}]  # (and page a's save, still known)


def test_save_based_on_an_old_version_from_another_page_is_a_409_conflict_offering_both_values(client):
    """Phone A saved Alice's farms (10) while phone B, which still showed version 0, typed 7."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "10", version=0, page="phone-a", seq=1)
    before = snapshot(game)

    response = save(client, game, "s1-farms", "7", version=0, page="phone-b", seq=1)

    assert response.status_code == 409
    assert snapshot(game) == before
    assert entry(game, 1, "farms") == 10
    status, *oob = top_level(page(response))
    assert status["id"] == "status-s1-farms"
    assert "data-conflict" in status.attrs
    assert (status["data-version"], status["data-stored"]) == ("1", "10")
    assert status.find(class_="saved-mark") is None
    error = oob[0]
    assert error["id"] == "error-s1-farms" and "hidden" not in error.attrs
    assert error.text.startswith(
        "Farms built, Alice: changed on another phone to 10 while you were typing, so yours was not saved."
    )
    assert [(b["data-resolve"], b.text) for b in error.find_all("button")] == [
        ("mine", "Keep mine"),
        ("theirs", "Use 10"),
    ]
    # the figures of that kind of field as stored, to show them (the poll brings the rest)
    assert [part["id"] for part in oob[1:]] == ["end-subtotal", "totals", "ranking", "label-farms", "warnings-farms"]
    assert response["X-Pad-Revision"] == str(revision_of(game))


def test_conflict_on_a_field_cleared_elsewhere_offers_the_empty_value(client):
    game = game_scored(player("Alice", tokens=[2, 0, 0]), player("Bruno"))
    save(client, game, "s1-t0", "", version=0, page="phone-a", seq=1)

    response = save(client, game, "s1-t0", "3", version=0, page="phone-b", seq=1)

    assert response.status_code == 409
    assert status_of(response)["data-stored"] == ""
    assert "changed on another phone to — while you were typing" in error_of(response, "s1-t0").text
    assert tokens_of(game, 1) == [0, 0, 0]


def test_save_of_the_same_page_arriving_after_its_newer_save_is_ignored_with_200(client):
    """Superseded: the older value never overwrites the newer one; the answer shows what is stored."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "5", version=0, page="a", seq=2)

    response = save(client, game, "s1-farms", "4", version=0, page="a", seq=1)

    assert response.status_code == 200
    assert (status_of(response)["data-stored"], status_of(response)["data-version"]) == ("5", "1")
    assert entry(game, 1, "farms") == 5
    assert response["X-Pad-Revision"] == str(revision_of(game))


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
def test_save_that_does_not_say_which_version_it_replaces_is_422_and_writes_nothing(client, version):
    """A stale phone cannot overwrite what another phone saved by leaving its version out: Alice's
    farms stay 4, not 9, and the 9 typed stays in the field (the answer does not swap it)."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "4", page="phone-a", seq=1)
    before, changes = snapshot(game), Change.objects.count()

    response = save(client, game, "s1-farms", "9", version=version, page="phone-b", seq=1)

    assert response.status_code == 422
    status, error = top_level(page(response))
    assert status["id"] == "status-s1-farms" and "data-conflict" not in status.attrs
    assert (status["data-version"], status["data-stored"]) == ("1", "4")
    assert error["id"] == "error-s1-farms" and "hidden" not in error.attrs
    assert error.text == f"Farms built, Alice: {MISSING_VERSION}"
    assert (snapshot(game), Change.objects.count()) == (before, changes)
    assert entry(game, 1, "farms") == 4


def test_a_step_must_say_which_version_it_steps_too(client):
    game = game_scored(player("Alice", farms=1), player("Bruno"))

    response = save(client, game, "s1-farms", step=1, version=None, page="a", seq=1)

    assert response.status_code == 422
    assert error_of(response, "s1-farms").text == f"Farms built, Alice: {MISSING_VERSION}"
    assert entry(game, 1, "farms") == 1


# -- steppers --------------------------------------------------------------------------------


def test_a_step_is_read_with_or_without_its_sign_and_answered_with_the_value_stored(client):
    """How a step counts (from the stored value, within the field's limits, once per tap) is the
    service's: tests/services/test_pad.py. Here: what the view reads and what it answers."""
    game = game_started("Alice", "Bruno")

    first = save(client, game, "s1-farms", step=1, page="a", seq=1)
    second = save(client, game, "s1-farms", step="+3", page="a", seq=2)
    third = save(client, game, "s1-farms", step=-1, page="a", seq=3)

    assert [answer.status_code for answer in (first, second, third)] == [200, 200, 200]
    assert [status_of(answer)["data-stored"] for answer in (first, second, third)] == ["1", "4", "3"]


def test_step_at_the_fields_limit_answers_200_with_the_value_as_it_is(client):
    """A "+" at the highest value is no error the player typed (each field's limits:
    tests/services/test_pad.py)."""
    game = game_scored(player("Alice", workers=4), player("Bruno"))

    response = save(client, game, "s1-active_workers", step=1, page="a", seq=1)

    assert response.status_code == 200
    assert status_of(response)["data-stored"] == "4"


# -- without htmx's header, refusals, methods, CSRF ------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX, SCRIPT], ids=["no-header", "htmx", "script"])
def test_save_answers_its_partials_whatever_the_request_says_it_is(client, headers):
    """No redirect: a save is always the script's, and its answer is the field's status and figures."""
    game = game_started("Alice", "Bruno")

    response = save(client, game, "s1-farm_income", "3+6+2", headers, page="a", seq=1)

    assert response.status_code == 200
    assert [part["id"] for part in top_level(page(response))] == [
        "status-s1-farm_income",
        "error-s1-farm_income",
        "during-subtotal",
        "totals",
        "ranking",
        "label-farm_income",
        "warnings-farm_income",
    ]
    assert status_of(response).one(class_="sum-result").text == "= 11"
    assert entry(game, 1, "farm_income") == 11


@pytest.mark.parametrize(
    ("headers", "sentence"),
    [
        pytest.param(SCRIPT, True, id="script"),
        pytest.param(HTMX, True, id="htmx"),
        pytest.param({}, False, id="no-header"),
        pytest.param({"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}, False, id="browser"),
    ],
)
def test_a_save_refused_before_it_reaches_the_game_is_a_sentence_for_the_script(client, owner, headers, sentence):
    """The script shows the reason as it is: one sentence of plain text when it asks for text
    (``Accept: text/plain, text/html;q=0.9``) or says it is htmx; otherwise the site's page."""
    game = game_started("Alice", "Bruno")
    watcher = Client()
    watcher.get(url("join", link_renew(game=game, access="view").token))

    refusals = [
        (
            save(watcher, game, "s1-farms", "3", headers, page="a", seq=1),
            403,
            "This link only lets you watch the game: it cannot change anything.",
        ),
        (
            client.post(
                url("save", "no-such-game-at-this-address"),
                {"field": "s1-farms", "value": "3", "version": "0"},
                headers=headers,
            ),
            404,
            None,
        ),
    ]

    for response, status, words in refusals:
        assert response.status_code == status
        if sentence:
            assert response["Content-Type"] == "text/plain; charset=utf-8"
            assert "<" not in response.content.decode()
            if words:
                assert response.content.decode() == words
        else:
            assert response["Content-Type"].startswith("text/html")
            assert page(response).find("main") is not None
    assert entry(game, 1, "farms") is None


@WITH_AND_WITHOUT_HTMX
def test_save_refuses_get_with_405(client, headers):
    game = game_started("Alice", "Bruno")

    response = client.get(url("save", game), {"field": "s1-farms", "value": "3", "version": "0"}, headers=headers)

    assert response.status_code == 405
    assert entry(game, 1, "farms") is None


@WITH_AND_WITHOUT_HTMX
def test_save_without_a_csrf_token_is_refused_with_403(owner, headers):
    game = game_started("Alice", "Bruno")
    strict = strict_client(owner)

    response = strict.post(url("save", game), {"field": "s1-farms", "value": "3", "version": "0"}, headers=headers)

    assert response.status_code == 403
    assert entry(game, 1, "farms") is None


def test_save_with_the_pages_csrf_token_in_the_header_is_accepted(owner):
    game = game_started("Alice", "Bruno")
    strict = strict_client(owner)
    pad = page(strict.get(url("pad", game)))
    token = pad.by_id("pad").one("input", name="csrfmiddlewaretoken")["value"]  # what the pad's script sends

    response = strict.post(
        url("save", game), {"field": "s1-farms", "value": "3", "version": "0"}, headers={**SCRIPT, "X-CSRFToken": token}
    )

    assert response.status_code == 200
    assert entry(game, 1, "farms") == 3


def test_save_in_the_one_player_view_sends_the_figures_of_that_view(client):
    """The pad's script sends ``player`` with every save of the "one player at a time" view. The
    out-of-band rows replace the page's rows, so they must hold the same cells: only that player's
    (as the live view sends them), not a column for every player in a one-column grid."""
    game = game_started("Alice", "Bruno", "Carla")
    shown = page(client.get(url("pad", game) + "?player=2"))

    response = save(client, game, "s2-t0", "2", version=0, page="a", seq=1, player=2)

    assert response.status_code == 200
    html = page(response)
    for row in ("majority-row", "end-subtotal"):
        figures = [el["aria-label"] for el in html.by_id(row).find_all("span", class_="figure")]
        assert figures == [el["aria-label"] for el in shown.by_id(row).find_all("span", class_="figure")], row
    assert [labelled(html.by_id("totals"), f"Total, {n}").text for n in ("Alice", "Bruno", "Carla")] == ["1", "11", "3"]
