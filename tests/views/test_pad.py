"""Specification of the scoring pad's page (``scoring/views/pad.py``, ``pad``), through Django's
test client: what it shows, for whom, and how. The other requests of the pad are specified
beside it: one field saved by the pad's script (``test_pad_save.py``), the whole form posted
without JavaScript (``test_pad_form.py``), the poll (``test_pad_live.py``), finishing and a
finished game (``test_pad_finish.py``), the table's view (``test_pad_table.py``), the comb's hints
and the values to check (``test_pad_checks.py``) and undo (``test_pad_undo.py``). Several phones
score one game at once, and no phone ever undoes another phone's write: the rules of a save
themselves are ``tests/services/test_pad.py``; how input is read, ``tests/forms/test_pad.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.template.defaulttags import PartialNode

from scoring.models import Game, Seat
from scoring.rules.categories import During, categories_of
from scoring.services.games import game_delete
from scoring.services.pad import game_mode_change
from tests.support.factories import (
    game_scored,
    game_started,
    player,
    revision_of,
    save_value,
    seat_of,
)
from tests.support.pages import (
    EVIL,
    HTMX,
    PAD_FIELD_COUNT,
    WITH_AND_WITHOUT_HTMX,
    ancestors,
    evil_game,
    labelled,
    loaded,
    markup_only_as_text,
    pad_inputs,
    page,
    save,
    snapshot,
    typed,
    url,
    written,
)
from tests.views.pad_cases import PAD_CATEGORIES

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# The pad: /games/<id>/


@WITH_AND_WITHOUT_HTMX
def test_pad_names_every_field_by_category_and_player(client, headers):
    game = game_started("Alice", "Bruno", "Carla")

    response = client.get(url("pad", game), headers=headers)

    assert response.status_code == 200
    html = page(response)
    pad = html.by_id("pad")
    for name in ("Alice", "Bruno", "Carla"):
        for category in PAD_CATEGORIES:
            assert labelled(pad, f"{category.label}, {name}").tag == "input"
        for number in (1, 2, 3):
            assert labelled(pad, f"Tokens in sector {number}, {name}").tag == "input"
        assert labelled(pad, f"Active workers, {name}").tag == "input"
    assert labelled(pad, "Farm income, Alice")["name"] == "s1-farm_income"
    assert labelled(pad, "Tokens in sector 1, Bruno")["name"] == "s2-t0"
    assert labelled(pad, "Active workers, Carla")["name"] == "s3-active_workers"
    assert labelled(pad, "Hive mat filled, Alice")["type"] == "checkbox"


def test_pad_fields_point_to_their_status_and_error_and_carry_their_version(client):
    """Each input says its version and points to its status and to its error; the page writes an
    error's paragraph only for a field that has one (live.js puts a save's in its place), and the
    value stored once, as the initial value a plain post compares with (a save's answer and a
    poll bring version and value to the script)."""
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3)
    save_value(seat=seat_of(game, 1), key="farms", value=4)

    html = page(client.get(url("pad", game)))

    fields = pad_inputs(html)
    assert len(fields) == 2 * PAD_FIELD_COUNT
    for field in fields:
        name = field["name"]
        assert field["aria-describedby"] == f"status-{name} error-{name}"
        assert html.by_id(f"status-{name}").attrs == {"class": "status", "id": f"status-{name}"}
        assert html.find(id=f"error-{name}") is None
        assert "data-field" in field.attrs
        assert field["data-version"] == ("2" if name == "s1-farms" else "0")
    assert html.one("input", name="initial-s1-farms")["value"] == "4"


def test_each_row_says_once_what_the_script_reads_of_its_kind(client):
    """What the phone's sums read of a field's kind (its limits, a category's section and VP per
    unit, a sector's tokens) is written on its row, once for all its seats, from the registry."""
    game = game_started("Alice", "Bruno", sectors=[(9, 4), (8, 5)])

    html = page(client.get(url("pad", game)))

    rows = html.by_id("pad").find_all(**{"data-min": True})
    for row in rows:
        assert [field.get("data-min") for field in row.find_all(**{"data-field": True})] == [None, None]
    kinds = {row.get("id") or row.parent["id"]: row.attrs for row in rows}
    for category in categories_of(game.during):
        kind = kinds[f"row-{category.key}"]
        assert (kind["data-min"], kind["data-max"]) == (str(category.minimum), str(category.maximum))
        assert (kind["data-section"], kind["data-vp-each"]) == (category.section, str(category.vp_each))
    for sector in ("sector-0", "sector-1"):
        assert (kinds[sector]["data-min"], kinds[sector]["data-max"], kinds[sector]["data-comb"]) == ("0", "7", "")
    assert (kinds["row-active_workers"]["data-min"], kinds["row-active_workers"]["data-max"]) == ("0", "4")
    assert "data-section" not in kinds["row-active_workers"] and "data-comb" not in kinds["row-active_workers"]
    assert len(rows) == len(categories_of(game.during)) + 2 + 1


@pytest.mark.parametrize("page_name", ["pad", "live"])
def test_the_pad_and_its_poll_draw_a_field_with_one_partial_at_most(client, monkeypatch, page_name):
    """Doing less per field (issue 29): the page draws a field's cell with one partial, and the
    poll a field's value with none; the words of a status only where it says something. No other
    partial is drawn field by field. (Their cost is make bench's; here, what they draw.)"""
    game = game_started("Alice", "Bruno", "Carla")
    save_value(seat=seat_of(game, 1), key="farm_income", value=3)
    drawn = Counter()
    render = PartialNode.render

    def counted(node, context):
        drawn[node.partial_name] += 1
        return render(node, context)

    monkeypatch.setattr(PartialNode, "render", counted)
    assert client.get(url(page_name, game), headers=HTMX).status_code == 200

    fields = 3 * PAD_FIELD_COUNT
    assert drawn["cell"] == (fields if page_name == "pad" else 0)
    assert 0 < drawn["status-inner"] < fields  # (the counts show their VP; an empty VP or token field, nothing)
    assert [name for name, times in drawn.items() if times >= fields and name != "cell"] == []


def test_pad_tells_its_script_where_to_save_and_to_poll_and_which_revision_it_shows(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3)

    html = page(client.get(url("pad", game)))

    pad = html.one(data_pad=True)
    assert pad["data-save-url"] == url("save", game)
    assert html.by_id("live")["hx-get"] == url("live", game)  # the poll's address, where htmx polls it
    assert pad["data-revision"] == "1" == str(revision_of(game))
    # (what a poll at that revision brings: the page's first poll is a 304 while nothing changed)
    etag = pad["data-poll-etag"]
    assert client.get(url("live", game), headers={"If-None-Match": etag}).status_code == 304
    assert pad["data-game"] == game.public_id


def test_every_pad_field_posts_the_value_the_page_showed_beside_it(client):
    """Django's hidden initial (``initial-<name>``): what a plain post is compared with."""
    game = game_scored(
        player("Alice", starting_vp=1, farm_income=11, farms=3, hive_mat_full=True, tokens=[2, 0, 0], workers=2),
        player("Bruno", starting_vp=2),
    )
    save_value(seat=seat_of(game, 1), key="farm_income", value=11, sum_text="3+6+2")

    html = page(client.get(url("pad", game)))

    form = html.by_id("pad")
    for field in pad_inputs(html):
        assert len(form.find_all("input", name=f"initial-{field['name']}", type="hidden")) == 1, field["name"]
    initial = {
        name: form.one("input", name=f"initial-{name}").get("value", "")
        for name in (
            "s1-starting_vp",
            "s1-farm_income",
            "s1-farms",
            "s1-hive_mat_full",
            "s1-t0",
            "s1-t1",
            "s1-active_workers",
            "s2-farms",
            "s2-hive_mat_full",
            "s2-t0",
            "s2-active_workers",
        )
    }
    assert initial == {
        "s1-starting_vp": "1",
        "s1-farm_income": "3+6+2",
        "s1-farms": "3",
        "s1-hive_mat_full": "True",
        "s1-t0": "2",
        "s1-t1": "0",
        "s1-active_workers": "2",
        "s2-farms": "",
        "s2-hive_mat_full": "False",
        "s2-t0": "",
        "s2-active_workers": "0",
    }


def test_a_new_games_pad_shows_every_entry_empty_except_the_starting_vp(client):
    """An entry not made yet is empty (not 0), so a phone can tell what is left to enter."""
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("pad", game)))

    values = {field["name"]: field.get("value", "") for field in pad_inputs(html) if field["type"] != "checkbox"}
    assert {name: value for name, value in values.items() if value} == {"s1-starting_vp": "1", "s2-starting_vp": "2"}
    assert labelled(html, "Hive mat filled, Alice").get("checked") is None
    assert "not-entered" in html.by_id("row-farms")["class"].split()  # (dimmed, its field dotted)
    shown_marks = [mark for mark in html.find_all(class_="empty-mark") if "before-scoring" not in mark["class"]]
    assert shown_marks == []  # (a new pad: no "(not entered yet)" under every row; its room kept, unseen)
    save(client, game, "s1-recruits", "2")
    scoring = page(client.get(url("pad", game)))
    assert "(not entered yet)" in scoring.by_id("row-farms").text  # once scoring has begun: what is left
    assert "(not entered yet)" not in scoring.by_id("row-starting_vp").text
    assert "(not entered yet)" not in scoring.by_id("row-hive_mat_full").text  # a yes/no is always answered


def test_a_rows_heading_is_its_short_words_with_the_editions_full_words_a_tap_away(client):
    """Issue 19: each row of the pad is headed by its category's short words; its help (a tap:
    details) holds the edition's full words and how the row scores; the fields keep the full words
    as their names."""
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("pad", game)))

    for category in PAD_CATEGORIES:  # (a breakdown game, as game_started makes)
        help_box = html.by_id(f"label-{category.key}").one("details", class_="row-help")
        assert help_box.one("summary").text == category.short_label
        assert help_box.one("small", class_="help").text == (category.help_text or category.label)
        assert help_box.one("small", class_="help").text.startswith(category.label)  # (the edition's full words first)
        assert help_box["id"] == f"help-{category.key}" and "hx-preserve" in help_box.attrs  # stays open across polls
    assert html.by_id("label-carvings").one("summary").text == "Carvings"
    assert labelled(html, "Conditions on carvings built, Alice")["name"] == "s1-carvings"
    majority = html.by_id("majority-row").one("details", class_="row-help")
    assert (majority.one("summary").text, majority.one("small").text) == (
        "Comb majorities",
        "Hibernation Comb sector majorities",
    )


def test_a_sectors_heading_says_its_awards_and_a_dash_where_2nd_place_scores_nothing(client):
    """Issue 50: « 2e : 0 PV » for a sector that awards nothing for 2nd place. The awards are one
    unit each: the dot between them never starts a line (a no-break space before it)."""
    game = game_started("Alice", "Bruno", sectors=[(9, 4), (13, 0)])

    html = page(client.get(url("pad", game)))

    awards = [html.by_id(f"sector-{position}").one("small").text for position in (0, 1)]
    assert awards == ["1st: 9 VP · 2nd: 4 VP", "1st: 13 VP · 2nd: —"]
    assert "VP\u00a0· 2nd" in written(html.by_id("sector-0").one("small"))


def test_the_next_order_choice_sits_with_the_keypad_bar_except_in_one_players_view(client):
    """Issue 19: "The Next-order choice sits with the bar it drives and is hidden in the one-player
    view" (one column: across and down are the same)."""
    game = game_started("Alice", "Bruno")

    everyone = page(client.get(url("pad", game)))
    one = page(client.get(url("pad", game) + "?player=2"))

    sticky = everyone.one("div", class_="pad-sticky")  # with the bar, in the corner of the names over the columns
    choice = sticky.one("div", class_="names").one("fieldset", class_="move-order")
    assert [radio["value"] for radio in choice.find_all("input", type="radio")] == ["across", "down"]
    assert "hidden" not in choice.attrs  # its place is kept before the script runs: nothing moves
    assert one.find("fieldset", class_="move-order") is None


def test_a_row_is_no_longer_marked_once_someone_entered_it_even_as_0(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 2), key="farms", value=0)

    html = page(client.get(url("pad", game)))

    assert "(not entered yet)" not in html.by_id("row-farms").text
    assert labelled(html, "Farms built, Bruno")["value"] == "0"
    assert labelled(html, "Farms built, Alice").get("value", "") == ""


def test_pad_shows_each_players_total_with_the_starting_vp_of_their_seat(client):
    game = game_started("Alice", "Bruno", "Carla")

    html = page(client.get(url("pad", game)))

    totals = html.by_id("totals")
    assert [labelled(totals, f"Total, {name}").text for name in ("Alice", "Bruno", "Carla")] == ["1", "2", "3"]
    assert [labelled(html, f"Starting VP, {name}")["value"] for name in ("Alice", "Bruno", "Carla")] == ["1", "2", "3"]
    assert [labelled(html, f"During the game, {name}").text for name in ("Alice", "Bruno", "Carla")] == ["1", "2", "3"]


def test_pad_shows_a_sum_as_typed_with_its_result(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farm_income", value=11, sum_text="3+6+2")

    html = page(client.get(url("pad", game)))

    assert labelled(html, "Farm income, Alice")["value"] == "3+6+2"
    assert html.by_id("status-s1-farm_income").text == "= 11"
    assert labelled(html.by_id("totals"), "Total, Alice").text == "12"


@WITH_AND_WITHOUT_HTMX
def test_pad_of_one_player_shows_only_that_players_fields_and_everyones_totals(client, headers):
    game = game_started("Alice", "Bruno", "Carla")

    response = client.get(url("pad", game) + "?player=2", headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert {field["name"].split("-")[0] for field in pad_inputs(html)} == {"s2"}
    assert len(pad_inputs(html)) == PAD_FIELD_COUNT
    assert [el.get("aria-label") for el in html.by_id("during-subtotal").find_all("span", class_="figure")] == [
        "During the game, Bruno",
    ]
    assert [labelled(html.by_id("totals"), f"Total, {name}").text for name in ("Alice", "Bruno", "Carla")] == [
        "1",
        "2",
        "3",
    ]
    form = html.by_id("pad")
    assert form["action"] == url("pad", game) + "?player=2"
    assert form.one("input", name="player")["value"] == "2"
    views = html.one("nav", aria_label="Whose scores to show")
    assert views.one("a", aria_current="page").text == "Bruno"


@pytest.mark.parametrize("query", ["?player=4", "?player=0", "?player=x", "?player="])
def test_pad_of_a_player_who_is_not_in_the_game_shows_everyone(client, query):
    game = game_started("Alice", "Bruno", "Carla")

    html = page(client.get(url("pad", game) + query))

    assert len(pad_inputs(html)) == 3 * PAD_FIELD_COUNT
    assert html.by_id("pad").find("input", name="player") is None


def test_pad_tells_its_script_the_phones_timing_from_the_settings(client, settings):
    """The poll's interval and the typing pause are the settings' (tests shorten them)."""
    settings.PAD_POLL_MS, settings.PAD_SAVE_PAUSE_MS = 1500, 2500
    html = page(client.get(url("pad", game_started("Alice"))))

    assert html.by_id("live")["hx-trigger"] == "every 1500ms, poll-now"
    assert html.one(data_pad=True)["data-save-pause-ms"] == "2500"
    assert html.one("body")["data-poll-ms"] == "1500"


def test_every_answer_to_the_pads_script_says_how_the_game_counts_its_points(client):
    """A page made for the other way of counting the during-the-game points reloads (its fields
    are not the game's): the save's answer, the poll's, and a save of a field of the other way."""
    game = game_started("Alice", "Bruno")

    assert save(client, game, "s1-farms", "3")["X-Pad-During"] == "breakdown"
    assert client.get(url("live", game), headers=HTMX)["X-Pad-During"] == "breakdown"
    game_mode_change(game=Game.objects.get(pk=game.pk), during=During.TRACK)
    other_way = save(client, game, "s1-farm_income", "12", version=0)
    assert (other_way.status_code, other_way["X-Pad-During"]) == (400, "track")


def test_a_save_from_a_page_of_a_session_that_has_ended_is_refused_and_stores_nothing(client):
    """The page was opened in another session than the one that saves now (its typist signed out,
    and someone else is on the phone): what it kept is not this session's to save. A 403 in a
    sentence, with this session's tag; a page that says no session (an older page) is not refused."""
    game = game_started("Alice", "Bruno")
    tag = page(client.get(url("pad", game))).one("body")["data-session-tag"]
    before = snapshot(game)

    refused = save(client, game, "s1-farms", "3", session="another-session", page="a", seq=1)

    assert refused.status_code == 403
    assert refused["Content-Type"].startswith("text/plain")
    assert (
        refused.content.decode() == "This page was opened in a session that has ended: it cannot save. Reload the page."
    )
    assert refused["X-Session-Tag"] == tag != ""
    assert snapshot(game) == before
    assert save(client, game, "s1-farms", "3", session=tag, page="a", seq=2).status_code == 200
    assert save(client, game, "s1-farms", "4", page="a", seq=3).status_code == 200


def test_a_poll_of_a_game_out_of_reach_says_the_session_it_comes_from(client):
    """Signed out (a new session, or none): the poll is told to stop, with the session's tag, so
    that the page tells a session that ended from a game that went."""
    game = game_started("Alice", "Bruno")
    client.get(url("pad", game))
    client.logout()

    polled = client.get(url("live", game), headers=HTMX)

    assert (polled.status_code, polled["X-Session-Tag"]) == (286, "")


def test_pad_finish_button_is_part_of_the_pads_form_and_posts_to_finish(client):
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("pad", game)))

    finish = next(button for button in html.find_all("button") if button.text == "Finish the game")
    assert finish.get("form") == "pad" or html.by_id("pad") in ancestors(finish)
    assert finish.get("formaction", html.by_id("pad")["action"]) == url("finish", game)


def test_pad_of_a_finished_game_links_to_the_results_instead_of_finishing(client):
    game = game_scored(player("Alice", farm_income=3), finished=True)

    html = page(client.get(url("pad", game)))

    assert html.find("a", href=url("results", game)) is not None
    assert not [button for button in html.find_all("button") if button.text == "Finish the game"]


@WITH_AND_WITHOUT_HTMX
def test_a_game_deleted_on_another_phone_answers_404_to_every_save_and_stops_the_poll(client, headers):
    game = game_started("Alice", "Bruno")
    shown = loaded(client, game)
    etag = client.get(url("live", game))["ETag"]
    game_delete(game=Game.objects.get(pk=game.pk))

    assert save(client, game, "s1-farms", "3", headers, version=0, page="a", seq=1).status_code == 404
    assert save(client, game, "s1-farms", headers=headers, step=1, page="a", seq=2).status_code == 404
    polled = client.get(url("live", game), headers={**headers, "If-None-Match": etag})
    assert polled.status_code == (286 if headers.get("HX-Request") else 404)  # (htmx's "stop polling")
    assert client.post(url("pad", game), typed(shown, {"s1-farms": "3"}), headers=headers).status_code == 404
    assert client.post(url("finish", game), {**shown, "confirm": "1"}, headers=headers).status_code == 404
    assert not Seat.objects.filter(game_id=game.pk).exists()


# ---------------------------------------------------------------------------------------------
# Names are text, never markup (every page: tests/views/test_every_page.py)


def test_a_players_name_is_escaped_in_a_saves_answer_and_the_tie_sentence(client):
    game = evil_game()

    response = save(client, game, "s1-farm_income", "30")

    markup_only_as_text(response)
    tie = page(response).by_id("ranking").one("p", class_="tie").text
    assert tie == f"Bruno wins the tie-break with 3 active workers, ahead of {EVIL} (1)."
    assert f"Total, {EVIL}" in [el.get("aria-label") for el in page(response).by_id("totals").iter()]
