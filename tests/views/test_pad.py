"""Specification of the scoring pad (``scoring/views/pad.py``), through Django's test client:
the page, the save of one field by the pad's script, the whole form posted without JavaScript,
the poll that brings the other phones' saves, undo, and finishing the game.

Several phones score one game at once, and no phone ever undoes another phone's write:

- with JavaScript, each field saves itself (``/save/``, ``FieldSaveForm``), naming the version of
  the value its page saw (always: a save without one is refused), and its page and save number:
  200 saved (or an older save of the same page, ignored), 409 changed on another phone meanwhile
  (nothing written), 422 refused in words under the field, 400 not a field of the game; a
  stepper sends its change (``step``), applied to the stored value. The answer is partials of the
  pad, whether or not the request says it is htmx's;
- without JavaScript, the pad's form posts every field with the value the page showed
  (``initial-<name>``): only the fields this phone changed are saved, each only where the stored
  value is still the one the page showed, and a changed field that does not say what the page
  showed is refused;
- other phones follow through ``/live/``: 304 while the game's revision is the one they have.

The rules of a save themselves (versions, pages' order, steps, limits, the tokens a player owns)
are ``tests/services/test_pad.py``; how input is read, ``tests/test_forms.py``. Here: what each
request answers, and what it shows.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.template.defaulttags import PartialNode
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.categories import During, categories_of
from scoring.models import Change, Game, GameSector, HibernationTokens, Seat
from tests.factories import (
    COMB,
    game_scored,
    game_started,
    player,
    revision_of,
    save_tokens,
    save_value,
    save_workers,
    seat_of,
    tokens_of,
    total_of,
)
from tests.views.helpers import (
    EVIL,
    HTMX,
    PAD_FIELD_COUNT,
    SCRIPT,
    WITH_AND_WITHOUT_HTMX,
    Element,
    ancestors,
    entry,
    evil_game,
    form_data,
    labelled,
    loaded,
    pad_inputs,
    page,
    save,
    snapshot,
    strict_client,
    top_level,
    typed,
    url,
)

# The categories of a breakdown game's pad (the games here are breakdowns; the VP track's pad is
# tests/views/test_during.py's).
PAD_CATEGORIES = categories_of(During.BREAKDOWN)

pytestmark = pytest.mark.django_db

# Every figure of the pad: what the live view and an undo send out of band (3 comb sectors).
OOB_IDS = [
    "totals",
    "during-subtotal",
    "majority-row",
    "end-subtotal",
    "comb-hints",
    "sector-0-summary",
    "sector-1-summary",
    "sector-2-summary",
    "ranking",
    *(f"label-{category.key}" for category in PAD_CATEGORIES),  # each row's heading: entered yet or not
    *(f"warnings-{category.key}" for category in PAD_CATEGORIES),  # each row's values to check
]
MISSING_VERSION = "This save does not say which version of the value it replaces: reload the page, then type it again."
NOT_SHOWN = (
    "This page did not say what it showed here, so saving could overwrite another phone's value: reload "
    "the page, then type it again."
)

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
        name: form.one("input", name=f"initial-{name}")["value"]
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
    assert "(nobody yet)" in html.by_id("row-farms").text
    assert "not-entered" in html.by_id("row-farms")["class"].split()
    assert "(nobody yet)" not in html.by_id("row-starting_vp").text
    assert "(nobody yet)" not in html.by_id("row-hive_mat_full").text  # a yes/no is always answered


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

    assert "(nobody yet)" not in html.by_id("row-farms").text
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
    services.game_mode_change(game=Game.objects.get(pk=game.pk), during=During.TRACK)
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
    services.game_delete(game=Game.objects.get(pk=game.pk))

    assert save(client, game, "s1-farms", "3", headers, version=0, page="a", seq=1).status_code == 404
    assert save(client, game, "s1-farms", headers=headers, step=1, page="a", seq=2).status_code == 404
    polled = client.get(url("live", game), headers={**headers, "If-None-Match": etag})
    assert polled.status_code == (286 if headers.get("HX-Request") else 404)  # (htmx's "stop polling")
    assert client.post(url("pad", game), typed(shown, {"s1-farms": "3"}), headers=headers).status_code == 404
    assert client.post(url("finish", game), {**shown, "confirm": "1"}, headers=headers).status_code == 404
    assert not Seat.objects.filter(game_id=game.pk).exists()


# ---------------------------------------------------------------------------------------------
# A finished game: finished on every phone, until its owner reopens it


def table_mate(game) -> Client:
    """A phone without an account that opened the game's edit link and said it scores for everyone."""
    phone = Client()
    link = services.link_renew(game=Game.objects.get(pk=game.pk), access="edit")
    assert phone.get(reverse("scoring:join", args=[link.token])).status_code == 302
    phone.post(url("who", game), {"seat": "0"})
    phone.post(url("name", game), {"name": "Ben"})
    return phone


def test_a_finished_games_pad_reads_as_the_final_score_on_every_phone_and_says_who_finished_it(client):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=3)
    mate = table_mate(game)
    mate.post(url("finish", game), {"confirm": "1"})

    for phone, owner in ((client, True), (mate, False)):
        html = page(phone.get(url("pad", game)))
        pad = html.one(data_pad=True)
        assert "data-readonly" in pad.attrs and pad["data-finished"] != ""
        assert "disabled" in html.one("fieldset", class_="pad-fields").attrs
        note = html.by_id("finished-note")
        assert note.text.startswith("Finished by Ben (edit link) at ")
        assert note.one("a")["href"] == url("results", game)
        assert (note.find("button") is not None) == owner  # Reopen: the owner's alone
        assert html.find(id="finish-button") is None and html.find(id="keypad-bar") is None
    assert "Game finished" in page(client.get(url("live", game) + "?changes=1", headers=HTMX)).by_id("changes").text


def test_a_save_that_reaches_a_finished_game_is_refused_in_words_and_stores_nothing(client):
    """A phone that has not heard yet: its save is refused (409, one sentence), and the answer says
    the game is finished (X-Pad-Finished), so the page turns finished; nothing is stored."""
    game = game_started("Alice", "Bruno")
    services.game_finish(game=Game.objects.get(pk=game.pk))
    before = snapshot(game)

    refused = save(client, game, "s1-farms", "4", version=0, page="a", seq=1)

    assert refused.status_code == 409
    assert refused["Content-Type"].startswith("text/plain")
    assert refused.content.decode().startswith("Finished by someone at ")  # (finished by no phone: a script)
    assert refused.content.decode().endswith("its owner can reopen it from the results to correct it.")
    assert refused["X-Pad-Finished"] == str(int(Game.objects.get(pk=game.pk).finished_at.timestamp()))
    assert snapshot(game) == before
    posted = client.post(url("pad", game), typed(loaded(client, game), {"s1-farms": "4"}))
    assert posted.status_code == 422 and snapshot(game) == before  # (without JavaScript too)


def test_every_answer_to_the_pads_script_says_whether_the_game_is_finished(client):
    game = game_started("Alice", "Bruno")
    assert save(client, game, "s1-farms", "3")["X-Pad-Finished"] == ""
    assert client.get(url("live", game), headers=HTMX)["X-Pad-Finished"] == ""
    services.game_finish(game=Game.objects.get(pk=game.pk))
    assert client.get(url("live", game), headers=HTMX)["X-Pad-Finished"] != ""


def test_finish_from_an_edit_link_asks_first_naming_who_finishes(client):
    game = game_started("Alice", "Bruno")
    mate = table_mate(game)

    asked = mate.post(url("finish", game))

    assert asked.status_code == 200 and not Game.objects.get(pk=game.pk).is_finished
    text = page(asked).by_id("finish-confirm").text
    assert "You are finishing the game for the whole table, as Ben (edit link)" in text
    assert mate.post(url("finish", game), {"confirm": "1"}).status_code == 302
    assert Game.objects.get(pk=game.pk).events.get(what="finished").by_name == "Ben"


def test_the_owner_reopens_a_finished_game_to_correct_it_and_finishing_it_again_counts_it_again(client):
    game = game_scored(player("Alice", farm_income=5), player("Bruno"), finished=True)

    assert client.post(url("reopen", game)).status_code == 302

    assert not Game.objects.get(pk=game.pk).is_finished
    assert "data-readonly" not in page(client.get(url("pad", game))).one(data_pad=True).attrs
    assert save(client, game, "s1-farm_income", "7").status_code == 200
    assert client.post(url("finish", game), {"confirm": "1"}).status_code == 302
    assert seat_of(game, 1).farm_income == 7 and Game.objects.get(pk=game.pk).is_finished
    assert [event.what for event in Game.objects.get(pk=game.pk).events.all()] == ["finished", "reopened"]


# ---------------------------------------------------------------------------------------------
# Show the table: /games/<id>/table/


def test_the_tables_view_ranks_every_player_with_how_far_they_stand_from_the_lead(client):
    game = game_started("Alice", "Bruno", "Carla")
    for number, points in ((1, 20), (2, 30), (3, 10)):
        save_value(seat=seat_of(game, number), key="farm_income", value=points)

    html = page(client.get(url("table", game)))

    rows = [
        (
            row.one(class_="standing-name").text,
            row.one(class_="standing-total").text,
            getattr(row.find(class_="standing-gap"), "text", ""),
        )
        for row in html.find_all("li", class_="standing")
    ]
    assert rows == [
        ("Bruno", "32 VP", "leads by 11 VP"),
        ("Alice", "21 VP", "11 VP behind"),
        ("Carla", "13 VP", "19 VP behind"),
    ]
    assert html.by_id("standings")["hx-get"] == url("table", game)
    assert "data-keep-awake" in html.by_id("standings").attrs  # (in progress: the screen stays awake)
    assert page(client.get(url("pad", game))).find("a", href=url("table", game)) is not None  # one tap from the pad


def test_the_tables_view_follows_the_game_by_its_standings_alone_and_a_304_while_nothing_changed(client):
    game = game_started("Alice", "Bruno")
    polled = client.get(url("table", game), headers=HTMX)
    assert [part.get("id") for part in top_level(page(polled))] == ["standings"]

    assert client.get(url("table", game), headers={**HTMX, "If-None-Match": polled["ETag"]}).status_code == 304
    save_value(seat=seat_of(game, 1), key="farms", value=2)
    assert client.get(url("table", game), headers={**HTMX, "If-None-Match": polled["ETag"]}).status_code == 200


def test_a_shared_victory_and_a_finished_game_are_said_in_words_on_the_tables_view(client):
    game = game_scored(player("Alice", farm_income=9, workers=2), player("Bruno", farm_income=9, workers=2))
    services.game_finish(game=Game.objects.get(pk=game.pk))

    html = page(client.get(url("table", game)))

    assert html.one("h1").text == "Final standings"
    assert html.one(class_="table-winner").text == "Shared victory: Alice and Bruno"
    assert [row.one(class_="standing-gap").text for row in html.find_all("li", class_="standing")] == [
        "shares the lead",
        "shares the lead",
    ]
    assert "data-keep-awake" not in html.by_id("standings").attrs


def test_pad_answers_other_methods_with_405(client):
    assert client.delete(url("pad", game_started())).status_code == 405


def test_save_and_the_pages_refused_answers_are_never_kept_in_a_cache(client):
    game = game_started("Alice", "Bruno")

    answers = [
        save(client, game, "s1-farms", "3"),
        save(client, game, "s1-farms", "120"),
        client.post(url("pad", game), typed(loaded(client, game), {"s1-farms": "120"})),
        client.post(url("finish", game), loaded(client, game)),
    ]

    assert [answer.status_code for answer in answers] == [200, 422, 422, 200]
    assert all("no-store" in answer["Cache-Control"] for answer in answers)


# ---------------------------------------------------------------------------------------------
# Saving one field (the pad's script): /games/<id>/save/


def status_of(response) -> Element:
    """The field's status: the first element of a save's answer (the swap target)."""
    return top_level(page(response))[0]


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
    """The first value entered in a row takes "(nobody yet)" off its heading; clearing the last
    one puts it back (pad.js dims the row to match the heading's data-entered)."""
    game = game_started("Alice", "Bruno")
    first = page(save(client, game, "s2-recruits", "4")).by_id("label-recruits")
    assert first["data-entered"] == "1" and "(nobody yet)" not in first.text
    cleared = page(save(client, game, "s2-recruits", "")).by_id("label-recruits")
    assert cleared["data-entered"] == "0" and cleared.text.endswith("(nobody yet)")
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


# One of each kind of field (every message of every kind is tests/test_forms.py).
INVALID_VALUES = [
    pytest.param(
        "s1-farm_income",
        "abc",
        "Farm income, Alice: Type a whole number, such as 12, or a sum, such as 3+6+2.",
        id="letters",
    ),
    pytest.param(
        "s1-farms", "90+20", "Farms built, Alice: 90+20 makes 110; this must be from 0 to 99.", id="sum-out-of-range"
    ),
    pytest.param("s2-t0", "8", "Tokens in sector 1, Bruno: Must be from 0 to 7, not 8.", id="8-tokens-in-a-sector"),
    pytest.param("s1-active_workers", "5", "Active workers, Alice: Must be from 0 to 4, not 5.", id="5-active-workers"),
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
        pytest.param({"value": "3"}, "This field is required.", id="field-missing"),
        pytest.param({"field": "", "value": "3"}, "This field is required.", id="field-empty"),
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
        pytest.param({}, "Type a value, or tap + or \u2212.", id="neither-value-nor-step"),
        pytest.param({"s1-farms": "3"}, "Type a value, or tap + or \u2212.", id="value-under-the-fields-name"),
        pytest.param({"step": "0"}, "Type a value, or tap + or \u2212.", id="step-0"),
        pytest.param({"step": ""}, "Type a value, or tap + or \u2212.", id="step-empty"),
        pytest.param({"step": "21"}, "Ensure this value is less than or equal to 20.", id="step-above-20"),
        pytest.param({"step": "-21"}, "Ensure this value is greater than or equal to -20.", id="step-below-minus-20"),
        pytest.param({"step": "x"}, "Enter a whole number.", id="step-not-a-number"),
        pytest.param({"step": "1.5"}, "Enter a whole number.", id="step-not-whole"),
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
    assert seat_of(game, 1).revisions["farms"] == [2, "b", 1]


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


def test_step_applies_the_change_to_the_stored_value(client):
    game = game_started("Alice", "Bruno")

    first = save(client, game, "s1-farms", step=1, page="a", seq=1)
    second = save(client, game, "s1-farms", step="+3", page="a", seq=2)
    third = save(client, game, "s1-farms", step=-1, page="a", seq=3)

    assert [answer.status_code for answer in (first, second, third)] == [200, 200, 200]
    assert [status_of(answer)["data-stored"] for answer in (first, second, third)] == ["1", "4", "3"]
    assert entry(game, 1, "farms") == 3
    assert total_of(game, 1) == 1 + 3


def test_step_at_the_fields_limit_answers_200_with_the_value_as_it_is(client):
    """A "+" at the highest value is no error the player typed (each field's limits:
    tests/services/test_pad.py)."""
    game = game_scored(player("Alice", workers=4), player("Bruno"))

    response = save(client, game, "s1-active_workers", step=1, page="a", seq=1)

    assert response.status_code == 200
    assert status_of(response)["data-stored"] == "4"
    assert entry(game, 1, "active_workers") == 4


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
    watcher.get(url("join", services.link_renew(game=game, access="view").token))

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


# ---------------------------------------------------------------------------------------------
# The pad without JavaScript: the whole form posted to /games/<id>/


def test_pad_form_posted_back_as_loaded_changes_nothing(client):
    game = game_scored(
        player("Alice", workers=2, tokens=[2, 0, 1], starting_vp=1, farms=3, hive_mat_full=True, carvings=-3),
        player("Bruno", workers=1, tokens=[1, 1, 0], starting_vp=2, frames_filled=1),
    )
    save_value(seat=seat_of(game, 2), key="farm_income", value=11, sum_text="3+6+2")
    before, revision = snapshot(game), revision_of(game)

    response = client.post(url("pad", game), loaded(client, game))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game)
    assert (snapshot(game), revision_of(game)) == (before, revision)


def test_save_all_saves_only_the_fields_this_phone_changed_keeping_what_another_phone_saved_meanwhile(client):
    """Phone B loaded the pad; phone A saved Alice's farms and recruits; B saves Bruno's farms,
    posting the rest of the form as it loaded it."""
    game = game_scored(player("Alice", workers=1, tokens=[1, 0, 0]), player("Bruno", farm_income=4))
    phone_b = loaded(client, game)
    save(client, game, "s1-farms", "10", page="phone-a", seq=1)
    save(client, game, "s1-recruits", "20", page="phone-a", seq=2)
    alice = snapshot(game)[0]

    response = client.post(url("pad", game), typed(phone_b, {"s2-farms": "4"}))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game)
    assert (entry(game, 1, "farms"), entry(game, 1, "recruits"), entry(game, 2, "farms")) == (10, 20, 4)
    assert snapshot(game)[0] == alice
    assert seat_of(game, 2).revisions == {"farms": [1, "", 0]}  # no other field of Bruno's was written


def test_save_all_refuses_a_field_another_phone_changed_meanwhile_and_keeps_what_was_typed(client):
    game = game_started("Alice", "Bruno")
    phone_b = loaded(client, game)
    save(client, game, "s1-farms", "10", page="phone-a", seq=1)

    response = client.post(url("pad", game), typed(phone_b, {"s1-farms": "7", "s2-farms": "2"}))

    assert response.status_code == 422
    html = page(response)
    assert "Some values were not saved" in html.one(class_="form-errors").text
    field = labelled(html, "Farms built, Alice")
    assert field["value"] == "7"  # what B typed stays in the input
    assert field["aria-invalid"] == "true"
    assert html.by_id("error-s1-farms").text == (
        "Farms built, Alice: Changed on another phone to 10 while you were typing: yours was not saved. "
        "Save again to replace it."
    )
    assert html.by_id("pad").one("input", name="initial-s1-farms")["value"] == "10"  # now based on A's value
    assert (entry(game, 1, "farms"), entry(game, 2, "farms")) == (10, 2)  # A's value kept, B's other change saved
    assert labelled(html, "Farms built, Bruno")["value"] == "2"

    again = client.post(url("pad", game), form_data(html.by_id("pad")))  # "Save again to replace it."

    assert again.status_code == 302
    assert entry(game, 1, "farms") == 7


def test_save_all_can_clear_a_field_back_to_not_entered(client):
    game = game_scored(player("Alice", farms=3, workers=2, tokens=[2, 1, 0]), player("Bruno"))

    response = client.post(
        url("pad", game),
        typed(
            loaded(client, game),
            {
                "s1-farms": "",
                "s1-active_workers": "",
                "s1-t0": "",
            },
        ),
    )

    assert response.status_code == 302
    assert (entry(game, 1, "farms"), entry(game, 1, "active_workers")) == (None, None)
    assert sorted(HibernationTokens.objects.filter(seat__game=game).values_list("sector__position", "count")) == [
        (1, 1),
        (2, 0),
    ]


def test_a_changed_field_without_its_hidden_initial_is_refused_and_the_others_are_saved(client):
    """A field that does not say what the page showed is never written blind: it could overwrite
    another phone's value. What was typed stays in it; the fields that did say are saved."""
    game = game_scored(player("Alice", farms=4), player("Bruno"))
    shown = typed(loaded(client, game), {"s1-farms": "9", "s2-farms": "2"})
    del shown["initial-s1-farms"]

    response = client.post(url("pad", game), shown)

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("error-s1-farms").text == f"Farms built, Alice: {NOT_SHOWN}"
    field = labelled(html, "Farms built, Alice")
    assert (field["value"], field["aria-invalid"]) == ("9", "true")
    assert (entry(game, 1, "farms"), entry(game, 2, "farms")) == (4, 2)
    assert list(Change.objects.values_list("field", "new")) == [("farms", "2")]


@pytest.mark.parametrize("initial", ["abc", "1.5"])
def test_an_unreadable_hidden_initial_is_refused_as_a_missing_one(client, initial):
    game = game_scored(player("Alice", farms=4), player("Bruno"))

    response = client.post(
        url("pad", game), {**typed(loaded(client, game), {"s1-farms": "9"}), "initial-s1-farms": initial}
    )

    assert response.status_code == 422
    assert page(response).by_id("error-s1-farms").text == f"Farms built, Alice: {NOT_SHOWN}"
    assert entry(game, 1, "farms") == 4


def test_a_post_without_any_hidden_initial_writes_nothing(client):
    """Not the pad's own form: every field it changes is refused, none written."""
    game = game_started("Alice", "Bruno")
    before = snapshot(game)

    response = client.post(
        url("pad", game),
        {
            "s1-farm_income": "3+6+2",
            "s2-farms": "4",
            "s1-hive_mat_full": "1",
            "s2-t0": "2",
            "s1-active_workers": "3",
            "unknown": "x",
            "s9-farms": "3",
        },
    )

    assert response.status_code == 422
    html = page(response)
    shown = [error["id"] for error in html.find_all("p", class_="field-error") if "hidden" not in error.attrs]
    assert sorted(shown) == [
        "error-s1-active_workers",
        "error-s1-farm_income",
        "error-s1-hive_mat_full",
        "error-s2-farms",
        "error-s2-t0",
    ]
    assert html.by_id("error-s2-farms").text == f"Farms built, Bruno: {NOT_SHOWN}"
    assert snapshot(game) == before
    assert not Change.objects.exists()


# -- stepper buttons without JavaScript ------------------------------------------------------


def press(client: Client, game: Game, data: dict[str, list[str]], name: str, step: str, query: str = ""):
    """A stepper button of the loaded form pressed (its name and value are posted with the form)."""
    return client.post(url("pad", game) + query, {**data, "step": f"{name}:{step}"})


@pytest.mark.parametrize(
    ("name", "start", "step", "key", "expected"),
    [
        pytest.param("s1-farms", 3, "+1", "farms", 4, id="farms-plus"),
        pytest.param("s1-active_workers", None, "-1", "active_workers", None, id="empty-workers-minus-stays-empty"),
    ],
)
def test_pad_stepper_button_without_javascript_steps_the_field_and_returns_to_it(
    client, name, start, step, key, expected
):
    game = game_started("Alice", "Bruno")
    if start is not None:
        save(client, game, name, str(start))

    response = press(client, game, loaded(client, game), name, step)

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + f"#f-{name}"
    assert entry(game, 1, key) == expected


def test_two_stale_stepper_buttons_from_two_pages_that_saw_1_make_3(client):
    """Without JavaScript too, a stepper steps the stored value: both phones' taps count (not a
    conflict with the value the page showed)."""
    game = game_scored(player("Alice", farms=1), player("Bruno"))
    phone_a, phone_b = loaded(client, game), loaded(client, game)

    first = press(client, game, phone_a, "s1-farms", "+1")
    second = press(client, game, phone_b, "s1-farms", "+1")

    assert (first.status_code, second.status_code) == (302, 302)
    assert entry(game, 1, "farms") == 3


def test_pad_stepper_button_saves_the_other_fields_typed_too(client):
    game = game_started("Alice", "Bruno")

    press(client, game, typed(loaded(client, game), {"s2-farm_income": "7"}), "s1-farms", "+1")

    assert (entry(game, 1, "farms"), entry(game, 2, "farm_income")) == (1, 7)


def test_pad_enter_in_a_field_without_javascript_saves_without_stepping(client):
    """Without JavaScript, Enter in a field submits the form through its first submit button
    (HTML "implicit submission"). That button must be a plain save, not a stepper's "−"."""
    game = game_started("Alice", "Bruno")

    form = page(client.get(url("pad", game))).by_id("pad")

    buttons = [el for el in form.iter() if el.tag == "button" and el.get("type", "submit") == "submit"]
    first = buttons[0]
    assert first.get("name") != "step", f"Enter would press {first.attrs}"


def test_pad_form_post_with_invalid_values_answers_422_keeping_the_typed_text_and_saving_the_rest(client):
    game = game_started("Alice", "Bruno")

    response = client.post(
        url("pad", game),
        typed(
            loaded(client, game),
            {
                "s1-farm_income": "3+6+2",
                "s1-farms": "120",
                "s2-explore_tokens": "abc",
                "s2-t0": "2",
            },
        ),
    )

    assert response.status_code == 422
    html = page(response)
    assert "Some values were not saved" in html.one(class_="form-errors").text
    for name, text, message in [
        ("s1-farms", "120", "Farms built, Alice: Must be from 0 to 99, not 120."),
        (
            "s2-explore_tokens",
            "abc",
            "Explore token bonuses, Bruno: Type a whole number, such as 12, or a sum, such as 3+6+2.",
        ),
    ]:
        field = html.one("input", name=name)
        assert field["value"] == text
        assert field["aria-invalid"] == "true"
        assert html.by_id(f"error-{name}").text == message
        assert f"error-{name}" in field["aria-describedby"].split()
    assert (entry(game, 1, "farm_income"), entry(game, 1, "farms"), entry(game, 2, "explore_tokens")) == (
        11,
        None,
        None,
    )
    assert tokens_of(game, 2) == [2, 0, 0]
    assert labelled(html.by_id("totals"), "Total, Alice").text == "12"  # the page shows what was saved


def test_pad_form_post_moves_a_token_from_a_later_sector_to_an_earlier_one(client):
    """Sector 1 is saved before sector 2: its new count fits only once sector 2 has given a token back."""
    game = game_scored(player("Alice", tokens=[0, 7, 0]), player("Bruno"))

    response = client.post(url("pad", game), typed(loaded(client, game), {"s1-t0": "1", "s1-t1": "6"}))

    assert response.status_code == 302
    assert tokens_of(game, 1) == [1, 6, 0]


def test_pad_form_post_refuses_more_than_7_tokens_in_all_and_says_how_many_are_left(client):
    """The counts are saved smallest rise first (lowered ones before them): sector 2's 3 fits, then
    sector 1's 5 does not."""
    game = game_started("Alice", "Bruno")

    response = client.post(url("pad", game), typed(loaded(client, game), {"s1-t0": "5", "s1-t1": "3"}))

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("error-s1-t0").text == (
        "Tokens in sector 1, Alice: Alice owns only 7 hibernation tokens and has 3 in other sectors: at most 4 here."
    )
    assert html.one("input", name="s1-t0")["value"] == "5"
    assert tokens_of(game, 1) == [0, 3, 0]


def test_pad_form_post_of_the_one_player_view_returns_to_that_view(client):
    game = game_started("Alice", "Bruno", "Carla")
    shown = loaded(client, game, "?player=3")
    assert {name.split("-")[0] for name in shown if name.startswith("s")} == {"s3"}

    response = client.post(url("pad", game) + "?player=3", typed(shown, {"s3-farms": "2"}))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?player=3"
    assert entry(game, 3, "farms") == 2
    assert [seat.revisions for seat in Seat.objects.filter(game=game).order_by("number")] == [
        {},
        {},
        {"farms": [1, "", 0]},
    ]


def test_pad_form_post_without_a_csrf_token_is_refused_with_403(owner):
    game = game_started("Alice", "Bruno")
    strict = strict_client(owner)
    shown = form_data(page(strict.get(url("pad", game))).by_id("pad"))
    del shown["csrfmiddlewaretoken"]

    response = strict.post(url("pad", game), typed(shown, {"s1-farms": "3"}))

    assert response.status_code == 403
    assert entry(game, 1, "farms") is None


def test_pad_form_post_with_the_forms_csrf_token_is_accepted(owner):
    game = game_started("Alice", "Bruno")
    strict = strict_client(owner)
    shown = form_data(page(strict.get(url("pad", game))).by_id("pad"))

    response = strict.post(url("pad", game), typed(shown, {"s1-farms": "3"}))

    assert response.status_code == 302
    assert entry(game, 1, "farms") == 3


# ---------------------------------------------------------------------------------------------
# Following the other phones: /games/<id>/live/ (polled by the pad, with the ETag it last got)


@WITH_AND_WITHOUT_HTMX
def test_live_answers_every_fields_value_and_version_then_every_figure_out_of_band(client, headers):
    game = game_started("Alice", "Bruno", "Carla")
    save_tokens(seat=seat_of(game, 3), sector=GameSector.objects.get(game=game, position=1), count=2)
    save_value(seat=seat_of(game, 1), key="farms", value=5)
    save_value(seat=seat_of(game, 1), key="farm_income", value=7, sum_text="3+4")

    response = client.get(url("live", game) + "?changes=1", headers=headers)  # a page showing its changes

    assert response.status_code == 200
    assert response["ETag"] == '"rev-3"'
    assert response["X-Pad-Revision"] == "3"
    html = page(response)
    values, *oob = top_level(html)
    assert values["id"] == "live-values" and "hx-swap-oob" not in values.attrs
    assert [part["id"] for part in oob] == [*OOB_IDS, "changes"]
    without = top_level(page(client.get(url("live", game), headers=headers)))[1:]  # its changes folded away
    assert [part["id"] for part in without] == OOB_IDS
    assert all(part["hx-swap-oob"] == "true" for part in oob)
    fields = {item["data-name"]: (item["data-version"], item["data-stored"]) for item in values.find_all("i")}
    assert len(fields) == 3 * PAD_FIELD_COUNT
    assert fields["s1-farms"] == ("1", "5")
    assert fields["s1-farm_income"] == ("1", "3+4")
    assert fields["s3-t1"] == ("1", "2")
    assert fields["s1-starting_vp"] == ("0", "1")
    assert fields["s2-farms"] == ("0", "")
    assert fields["s2-hive_mat_full"] == ("0", "False")
    assert [labelled(html.by_id("totals"), f"Total, {n}").text for n in ("Alice", "Bruno", "Carla")] == [
        "13",
        "2",
        "16",
    ]
    assert html.by_id("sector-1-summary").text == "Carla leads with 2 tokens: 13 VP."


@WITH_AND_WITHOUT_HTMX
def test_live_answers_304_with_an_empty_body_while_nothing_changed(client, headers):
    game = game_started("Alice", "Bruno")
    etag = client.get(url("live", game))["ETag"]

    response = client.get(url("live", game), headers={**headers, "If-None-Match": etag})

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag == '"rev-0"'


def test_live_answers_the_new_values_once_another_phone_saved(client):
    game = game_started("Alice", "Bruno")
    etag = client.get(url("live", game))["ETag"]
    save(client, game, "s2-farms", "4", version=0, page="phone-a", seq=1)

    response = client.get(url("live", game), headers={"If-None-Match": etag})

    assert response.status_code == 200
    assert response["ETag"] == '"rev-1"'
    item = page(response).by_id("live-values").one("i", data_name="s2-farms")
    assert (item["data-version"], item["data-stored"]) == ("1", "4")
    assert client.get(url("live", game), headers={"If-None-Match": response["ETag"]}).status_code == 304


def test_live_answers_304_after_a_save_refused_before_it_reached_the_game(client):
    """Input the save's form refuses (or a field the game has not) never locks the game: the
    other phones' polls stay 304. (One that reaches the game and writes nothing rolls back, the
    revision with it: tests/services/test_pad.py.)"""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", page="phone-a", seq=1)
    etag = client.get(url("live", game))["ETag"]

    assert save(client, game, "s1-farms", "120").status_code == 422
    assert save(client, game, "s1-farms", "4", version=None).status_code == 422
    assert save(client, game, "s1-nonsense", "4").status_code == 400

    assert client.get(url("live", game), headers={"If-None-Match": etag}).status_code == 304


def test_live_answers_304_to_the_weak_tag_of_a_compressed_answer(client):
    game = game_started("Alice", "Bruno")

    response = client.get(url("live", game), headers={"If-None-Match": 'W/"rev-0"'})

    assert response.status_code == 304


def test_live_of_the_one_player_view_sends_that_players_figures(client):
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("live", game) + "?player=2"))

    assert [el["aria-label"] for el in html.by_id("during-subtotal").find_all("span", class_="figure")] == [
        "During the game, Bruno",
    ]
    assert len(html.by_id("live-values").find_all("i")) == 2 * PAD_FIELD_COUNT


@WITH_AND_WITHOUT_HTMX
def test_live_refuses_post_with_405(client, headers):
    assert client.post(url("live", game_started()), headers=headers).status_code == 405


def link_holder(game: Game, kind: str, name: str = "") -> Client:
    """A phone without an account that opened the game's (new) link of that kind, and said its name."""
    phone = Client()
    link = services.link_renew(game=game, access=kind)
    assert phone.get(reverse("scoring:join", args=[link.token])).status_code == 302
    if name:
        assert phone.post(url("name", game), {"name": name}).status_code == 302
    return phone


def test_an_answer_made_for_one_phone_holds_nothing_of_its_session(client):
    """A poll's answer is made once for each revision and kept for the table's other phones
    (tests/test_query_counts.py): the one made for a link's holder carries neither her CSRF token nor
    her name, and the owner's phone gets it without her cookies."""
    game = game_started("Alice", "Bruno")
    zoe = link_holder(game, "edit", name="Zoé")
    zoe_page = zoe.get(url("pad", game)).content.decode()
    assert "Zoé" in zoe_page  # (her page holds her name, and her token)
    etag = client.get(url("live", game))["ETag"]
    save(client, game, "s1-farms", "3", page="owner", seq=1)

    made = zoe.get(url("live", game), headers={**HTMX, "If-None-Match": etag})
    answer = client.get(url("live", game), headers={**HTMX, "If-None-Match": etag})

    assert made.status_code == answer.status_code == 200 and answer.content == made.content
    body = answer.content.decode()
    assert "Zoé" not in body and "csrf" not in body.lower()
    assert zoe.cookies["csrftoken"].value not in body
    assert not answer.cookies  # none of hers, none of its own
    item = page(answer).by_id("live-values").one("i", data_name="s1-farms")
    assert (item["data-version"], item["data-stored"]) == ("1", "3")


@pytest.mark.parametrize(
    ("query", "language", "names"),
    [
        pytest.param("?player=2", "en", ["Bruno"], id="one-players-view"),
        pytest.param("", "fr", ["Alice", "Bruno"], id="french"),
    ],
)
def test_an_answer_is_made_again_for_another_view_or_language(client, owner, query, language, names):
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", page="owner", seq=1)
    assert client.get(url("live", game), headers=HTMX).status_code == 200  # made for everyone, in English

    other = Client(headers={"Accept-Language": language})
    other.force_login(owner)
    html = page(other.get(url("live", game) + query, headers=HTMX))

    with translation.override(language):
        shown = [translation.gettext("During the game, %(name)s") % {"name": name} for name in names]
    assert [el["aria-label"] for el in html.by_id("during-subtotal").find_all("span", class_="figure")] == shown


def test_a_poll_showing_the_recent_changes_is_made_for_each_phone(client):
    """The recent changes' fold, open, is answered for the phone that asks (its undo follows what
    the phone may do; its "2 minutes ago", the clock), whatever another phone was answered."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s1-farms", "3", page="owner", seq=1)
    watcher = link_holder(game, "view")

    mine = page(client.get(url("live", game) + "?changes=1", headers=HTMX)).by_id("changes")
    theirs = page(watcher.get(url("live", game) + "?changes=1", headers=HTMX)).by_id("changes")

    assert [button.text for button in mine.find_all("button")] == ["Undo"]
    assert theirs.find("button") is None and "Farms built, Alice" in theirs.text


# ---------------------------------------------------------------------------------------------
# Finishing: /games/<id>/finish/

NUMBER_KEYS = [category.key for category in PAD_CATEGORIES if not category.is_flag]


def game_all_entered(**kwargs) -> Game:
    """Every number category entered for somebody, tokens on the comb, active workers: nothing to confirm."""
    return game_scored(
        player("Alice", workers=1, tokens=[1, 0, 0], **dict.fromkeys(NUMBER_KEYS, 1)),
        player("Bruno", workers=2),
        **kwargs,
    )


def confirm_box(response) -> Element:
    return page(response).by_id("finish-confirm")


@WITH_AND_WITHOUT_HTMX
def test_finish_of_a_game_with_everything_entered_marks_it_finished_and_shows_the_results(client, headers):
    game = game_all_entered()

    response = client.post(url("finish", game), loaded(client, game), headers=headers)

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    game.refresh_from_db()
    assert game.finished_at is not None
    assert game.revision == 1
    assert page(client.get(url("history"))).find(class_="badge") is None


@WITH_AND_WITHOUT_HTMX
def test_finish_with_categories_nobody_entered_asks_first_listing_them(client, headers):
    game = game_started("Alice", "Bruno")
    for key in NUMBER_KEYS[1:-1]:  # (the starting VP is filled in) all but the faction's endgame ability
        save_value(seat=seat_of(game, 2), key=key, value=0)

    response = client.post(url("finish", game), loaded(client, game), headers=headers)

    assert response.status_code == 200
    box = confirm_box(response)
    assert box["role"] == "alert"
    assert [item.text for item in box.find_all("li")] == [
        "Faction's endgame ability",
        "Hibernation tokens on the comb",
        "Active workers",
    ]
    assert "They count as 0. Finish the game anyway?" in box.text
    form = box.one("form")
    assert (form["method"], form["action"]) == ("post", url("finish", game))
    assert form_data(form)["confirm"] == ["1"]
    assert form.one("button", type="submit").text == "Finish anyway"
    assert box.one("a", href=url("pad", game)).text == "Keep scoring"
    assert page(response).by_id("pad") is not None  # the pad, to keep scoring
    assert Game.objects.get().finished_at is None


@WITH_AND_WITHOUT_HTMX
def test_finish_lists_the_values_to_check_each_linking_to_its_field_before_it_asks(client, headers):
    game = game_all_entered()
    save_value(seat=seat_of(game, 2), key="queens_favor", value=999)
    save_value(seat=seat_of(game, 1), key="frames_filled", value=9)

    response = client.post(url("finish", game), loaded(client, game), headers=headers)

    assert response.status_code == 200
    box = confirm_box(response)
    assert "These values are far from what a game usually records: check them." in box.text
    links = [(a["href"], a.text) for a in box.one("ul", class_="finish-check").find_all("a")]
    assert links == [  # in the pad's order
        (url("pad", game) + "#f-s2-queens_favor", QUEENS_999),
        (
            url("pad", game) + "#f-s1-frames_filled",
            "Frames filled, Alice: 9 is far above the usual count here (0 to 4): check it.",
        ),
    ]
    assert "They are saved as typed. Finish the game anyway?" in box.text
    assert form_data(box.one("form"))["confirm"] == ["1"]
    assert Game.objects.get().finished_at is None
    finished = client.post(box.one("form")["action"], form_data(box.one("form")))
    assert finished["Location"] == url("results", game)
    assert Game.objects.get().finished_at is not None


def test_finish_of_the_one_player_view_links_each_value_to_check_in_its_players_view(client):
    game = game_all_entered()
    save_value(seat=seat_of(game, 2), key="queens_favor", value=999)

    box = confirm_box(client.post(url("finish", game), loaded(client, game, "?player=1")))

    assert box.one("ul", class_="finish-check").one("a")["href"] == url("pad", game) + "?player=2#f-s2-queens_favor"


def test_finish_lists_more_tokens_than_the_combs_spaces_to_check(client):
    game = game_scored(
        player("Alice", tokens=[5, 0, 0], workers=1, **dict.fromkeys(NUMBER_KEYS, 1)),
        player("Bruno", tokens=[0, 5, 0]),
        player("Carla", tokens=[0, 0, 4]),
        player("Dana", tokens=[2, 1, 1]),
    )

    box = confirm_box(client.post(url("finish", game), loaded(client, game)))

    assert [(a["href"], a.text) for a in box.one("ul", class_="finish-check").find_all("a")] == [
        (
            url("pad", game) + "#comb",
            "18 tokens are on the comb, but it has only 15 spaces for 4 players: check the counts.",
        ),
    ]


def test_finish_anyway_posts_the_confirmation_and_finishes(client):
    game = game_started("Alice", "Bruno")
    box = confirm_box(client.post(url("finish", game), loaded(client, game)))

    response = client.post(box.one("form")["action"], form_data(box.one("form")))

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert Game.objects.get().finished_at is not None


@pytest.mark.parametrize(
    ("names", "sectors", "tokens", "workers", "listed"),
    [
        pytest.param(
            ("Alice", "Bruno"),
            COMB,
            False,
            False,
            ["Hibernation tokens on the comb", "Active workers"],
            id="nothing-on-the-comb-no-workers",
        ),
        pytest.param(("Alice", "Bruno"), (), False, False, ["Active workers"], id="no-comb-sectors"),
        pytest.param(("Alice", "Bruno"), COMB, True, True, [], id="a-token-and-workers"),
        pytest.param(("Alice",), COMB, True, False, [], id="one-player-needs-no-workers"),
    ],
)
def test_finish_asks_about_the_comb_and_the_workers_only_when_they_matter(
    client, names, sectors, tokens, workers, listed
):
    game = game_started(*names, sectors=sectors)
    for key in NUMBER_KEYS:
        save_value(seat=seat_of(game, 1), key=key, value=1)
    if tokens:
        save_tokens(seat=seat_of(game, 1), sector=game.sectors.first(), count=0)  # 0 entered counts
    if workers:
        save_workers(seat=seat_of(game, 1), workers=0)

    response = client.post(url("finish", game), loaded(client, game))

    if listed:
        assert response.status_code == 200
        assert [item.text for item in confirm_box(response).find_all("li")] == listed
        assert Game.objects.get().finished_at is None
    else:
        assert response.status_code == 302
        assert Game.objects.get().finished_at is not None


def test_finish_of_a_stale_page_keeps_what_another_phone_saved_meanwhile(client):
    """Phone B loaded the pad; phone A saved Ann's farms and recruits; B finishes without JavaScript,
    posting the whole form as it loaded it: A's values stay and the game is finished."""
    game = game_started("Ann", "Bruno")
    phone_b = loaded(client, game)
    assert save(client, game, "s1-farms", "10", page="phone-a", seq=1).status_code == 200
    assert save(client, game, "s1-recruits", "20", page="phone-a", seq=2).status_code == 200

    asked = client.post(url("finish", game), phone_b)
    assert asked.status_code == 200 and confirm_box(asked) is not None
    assert (entry(game, 1, "farms"), entry(game, 1, "recruits")) == (10, 20)
    response = client.post(url("finish", game), {**phone_b, "confirm": "1"})

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert (entry(game, 1, "farms"), entry(game, 1, "recruits")) == (10, 20)
    assert total_of(game, 1) == 1 + 10 + 20
    assert Game.objects.get().finished_at is not None


def test_finish_saves_the_pads_typed_fields_first(client):
    """The finish button belongs to the pad's form: without JavaScript, what was typed comes along."""
    game = game_started("Alice", "Bruno")

    response = client.post(
        url("finish", game),
        {
            **typed(loaded(client, game), {"s1-farm_income": "3+6+2", "s2-t0": "2"}),
            "confirm": "1",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert (entry(game, 1, "farm_income"), tokens_of(game, 2)) == (11, [2, 0, 0])
    assert Game.objects.get().finished_at is not None


def test_finish_saves_the_typed_fields_even_when_it_then_asks_for_confirmation(client):
    game = game_started("Alice", "Bruno")

    response = client.post(url("finish", game), typed(loaded(client, game), {"s1-farms": "4"}))

    assert response.status_code == 200
    assert entry(game, 1, "farms") == 4
    assert "Farms built" not in [item.text for item in confirm_box(response).find_all("li")]
    assert labelled(page(response), "Farms built, Alice")["value"] == "4"


@WITH_AND_WITHOUT_HTMX
def test_finish_with_an_invalid_typed_field_answers_422_and_does_not_finish(client, headers):
    game = game_started("Alice", "Bruno")

    response = client.post(
        url("finish", game),
        {
            **typed(loaded(client, game), {"s1-farms": "120", "s1-farm_income": "4"}),
            "confirm": "1",
        },
        headers=headers,
    )

    assert response.status_code == 422
    html = page(response)
    assert html.one("input", name="s1-farms")["value"] == "120"
    assert html.by_id("error-s1-farms").text == "Farms built, Alice: Must be from 0 to 99, not 120."
    assert html.find(id="finish-confirm") is None
    assert entry(game, 1, "farm_income") == 4
    assert Game.objects.get().finished_at is None


def test_finish_with_a_field_changed_on_another_phone_meanwhile_answers_422_and_does_not_finish(client):
    game = game_all_entered()
    phone_b = loaded(client, game)
    assert save(client, game, "s1-farms", "10", version=0, page="phone-a", seq=1).status_code == 200

    response = client.post(url("finish", game), {**typed(phone_b, {"s1-farms": "7"}), "confirm": "1"})

    assert response.status_code == 422
    html = page(response)
    assert html.by_id("error-s1-farms").text.startswith("Farms built, Alice: Changed on another phone to 10")
    assert html.one("input", name="s1-farms")["value"] == "7"
    assert entry(game, 1, "farms") == 10
    assert Game.objects.get().finished_at is None


def test_finish_of_a_game_finished_already_shows_its_results(client):
    """Finished on another phone, or a second tap: the results, and the first finishing time kept."""
    game = game_started("Alice", "Bruno")
    client.post(url("finish", game), {"confirm": "1"})
    first = Game.objects.get().finished_at

    response = client.post(url("finish", game), {"confirm": "1"})

    assert response.status_code == 302
    assert response["Location"] == url("results", game)
    assert Game.objects.get().finished_at == first


def test_finish_with_more_than_7_tokens_for_a_player_answers_422_listing_the_problem(client):
    game = game_scored(player("Alice", tokens=[4, 4, 0]), player("Bruno", tokens=[1, 0, 0]))

    response = client.post(url("finish", game), {"confirm": "1"})

    assert response.status_code == 422
    problems = page(response).one(class_="form-errors")
    assert "The game cannot be finished yet:" in problems.text
    assert [item.text for item in problems.find_all("li")] == ["Alice has more than 7 tokens on the comb."]
    assert Game.objects.get().finished_at is None


@WITH_AND_WITHOUT_HTMX
def test_finish_refuses_get_with_405(client, headers):
    game = game_started("Alice")

    assert client.get(url("finish", game), headers=headers).status_code == 405
    assert Game.objects.get().finished_at is None


def test_finish_without_a_csrf_token_is_refused_with_403(owner):
    game = game_all_entered()
    strict = strict_client(owner)

    response = strict.post(url("finish", game), {"confirm": "1"})

    assert response.status_code == 403
    assert Game.objects.get().finished_at is None


def test_finish_with_the_pads_finish_form_is_accepted(owner):
    """With JavaScript, the script posts the pad's separate finish form (its CSRF token only)."""
    game = game_all_entered()
    strict = strict_client(owner)
    html = page(strict.get(url("pad", game)))

    response = strict.post(html.by_id("finish-form")["action"], form_data(html.by_id("finish-form")))

    assert response.status_code == 302
    assert Game.objects.get().finished_at is not None


# ---------------------------------------------------------------------------------------------
# End-of-game hints on the pad


def hints(client: Client, game: Game) -> list[str]:
    return [p.text for p in page(client.get(url("pad", game))).by_id("comb-hints").find_all("p")]


@pytest.mark.parametrize(
    ("players", "spaces"),
    [
        pytest.param(2, 8, id="2-players-8-spaces"),
        pytest.param(3, 12, id="3-players-12-spaces"),
        pytest.param(4, 15, id="4-players-15-spaces"),
        pytest.param(5, 15, id="5-players-15-spaces"),
    ],
)
def test_pad_says_the_comb_is_full_when_every_space_for_the_player_count_holds_a_token(client, players, spaces):
    names = ["Alice", "Bruno", "Carla", "Dana", "Emil"][:players]
    per_player = [spaces // players + (1 if i < spaces % players else 0) for i in range(players)]
    counts = list(zip(names, per_player, strict=True))
    full = game_scored(*(player(name, tokens=[count, 0, 0]) for name, count in counts))
    almost = game_scored(*(player(name, tokens=[count - (i == 0), 0, 0]) for i, (name, count) in enumerate(counts)))

    assert hints(client, full) == [
        (
            f"The comb is full ({spaces} spaces for {players} players): the end of the game is triggered. "
            "Everyone takes one more turn, then scoring begins."
        )
    ]
    assert hints(client, almost) == []


@pytest.mark.parametrize(
    ("trigger", "placed", "expected"),
    [
        pytest.param(7, 6, [], id="7th-rule-6-placed"),
        pytest.param(
            7,
            7,
            [
                (
                    "Alice has placed their 7th hibernation token: the end of the game is triggered. "
                    "Everyone takes one more turn, then scoring begins."
                )
            ],
            id="7th-rule-7-placed",
        ),
        pytest.param(6, 5, [], id="6th-rule-5-placed"),
        pytest.param(
            6,
            6,
            [
                (
                    "Alice has placed their 6th hibernation token: the end of the game is triggered. "
                    "Everyone takes one more turn, then scoring begins."
                )
            ],
            id="6th-rule-6-placed",
        ),
    ],
)
def test_pad_says_a_players_end_trigger_token_ends_the_game(client, trigger, placed, expected):
    game = game_scored(
        player("Alice", tokens=[placed - 2, 1, 1]),
        player("Bruno", tokens=[1, 0, 0]),
        player("Carla"),
        player("Dana"),
        end_trigger_token=trigger,
    )

    assert hints(client, game) == expected


def test_pad_warns_when_a_player_has_more_than_7_tokens(client):
    game = game_scored(player("Alice", tokens=[4, 4, 0]), player("Bruno"), player("Carla"), player("Dana"))

    assert hints(client, game) == ["Alice has 8 tokens on the comb, but each player owns only 7: check the counts."]


def test_save_of_the_7th_token_sends_the_end_of_game_hint(client):
    game = game_scored(player("Alice", tokens=[3, 3, 0]), player("Bruno"), player("Carla"), player("Dana"))

    html = page(save(client, game, "s1-t2", "1"))

    assert [p.text for p in html.by_id("comb-hints").find_all("p")] == [
        (
            "Alice has placed their 7th hibernation token: the end of the game is triggered. "
            "Everyone takes one more turn, then scoring begins."
        )
    ]
    assert html.by_id("comb-hints")["hx-swap-oob"] == "true"


# ---------------------------------------------------------------------------------------------
# Values far from what games record: saved, and marked beside their field on every phone

QUEENS_999 = (
    "Position on the Queen's Favor track, Bruno: 999 is far above what this category usually scores "
    "(0 to 25): check it."
)


def warnings_of(html: Element, key: str) -> list[str]:
    """The sentences under a category's row: its values to check."""
    return [p.text for p in html.by_id(f"warnings-{key}").find_all("p", class_="field-warning")]


def another_phone(owner) -> Client:
    other = Client()
    other.force_login(owner)
    return other


def test_a_value_far_above_its_category_is_saved_and_marked_beside_its_field_in_words(client):
    game = game_started("Alice", "Bruno")

    response = save(client, game, "s2-queens_favor", "999", version=0, page="a", seq=1)

    assert response.status_code == 200
    assert entry(game, 2, "queens_favor") == 999  # saved: only marked, never refused
    html = page(response)
    mark = status_of(response).one(class_="unusual-mark")
    assert mark.one(aria_hidden="true").children == ["check"]  # beside the field; read out in full:
    assert mark.text == "999 is far above what this category usually scores (0 to 25): check it."
    assert warnings_of(html, "queens_favor") == [QUEENS_999]
    assert html.by_id("warnings-queens_favor")["hx-swap-oob"] == "true"
    assert html.by_id("warning-s2-queens_favor").text == QUEENS_999


def test_a_value_far_from_its_category_is_marked_on_another_phones_page_and_poll(client, owner):
    game = game_started("Alice", "Bruno")
    etag = client.get(url("live", game))["ETag"]
    save(client, game, "s2-queens_favor", "999", version=0, page="a", seq=1)
    other = another_phone(owner)

    pad = page(other.get(url("pad", game)))
    live = page(other.get(url("live", game), headers={"If-None-Match": etag}))

    assert warnings_of(pad, "queens_favor") == [QUEENS_999]
    assert pad.by_id("status-s2-queens_favor").find(class_="unusual-mark") is not None
    assert "status-s2-queens_favor" in pad.by_id("f-s2-queens_favor")["aria-describedby"].split()
    assert warnings_of(live, "queens_favor") == [QUEENS_999]
    assert live.by_id("warnings-queens_favor")["hx-swap-oob"] == "true"
    item = live.by_id("live-values").one("i", data_name="s2-queens_favor")
    assert item.find(class_="unusual-mark") is not None


@pytest.mark.parametrize(
    ("key", "value", "sentence"),
    [
        pytest.param(
            "frames_filled",
            "9",
            "Frames filled, Alice: 9 is far above the usual count here (0 to 4): check it.",
            id="9-frames",
        ),
        pytest.param(
            "farm_income",
            "80+5",
            ("Farm income, Alice: 85 is far above what this category usually scores (0 to 40): check it."),
            id="the-track-typed-into-one-source-as-a-sum",
        ),
        pytest.param(
            "carvings",
            "-20",
            (
                "Conditions on carvings built, Alice: \u221220 is below what this category usually "
                "scores (\u221210 to 50): check it."
            ),
            id="carvings-far-below-0",
        ),  # (true minus signs)
        pytest.param(
            "starting_vp",
            "0",
            ("Starting VP, Alice: 0 is below what this category usually scores (1 to 5): check it."),
            id="no-seat-starts-with-0",
        ),
    ],
)
def test_each_kind_of_unusual_value_is_said_in_words(client, key, value, sentence):
    game = game_started("Alice", "Bruno")

    html = page(save(client, game, f"s1-{key}", value))

    assert warnings_of(html, key) == [sentence]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("queens_favor", "25"),
        ("frames_filled", "4"),
        ("carvings", "-10"),
        ("starting_vp", "5"),
        ("farm_income", ""),
    ],
)
def test_a_value_within_what_games_record_is_not_marked(client, key, value):
    game = game_started("Alice", "Bruno")

    response = save(client, game, f"s1-{key}", value)

    assert warnings_of(page(response), key) == []
    assert status_of(response).find(class_="unusual-mark") is None
    assert page(client.get(url("pad", game))).find(class_="field-warning") is None


def test_a_marked_value_corrected_on_one_phone_is_no_longer_marked_on_another(client, owner):
    game = game_started("Alice", "Bruno")
    save(client, game, "s2-queens_favor", "999")
    etag = client.get(url("live", game))["ETag"]
    save(client, game, "s2-queens_favor", "9")

    live = page(another_phone(owner).get(url("live", game), headers={"If-None-Match": etag}))

    assert warnings_of(live, "queens_favor") == []
    assert live.by_id("live-values").one("i", data_name="s2-queens_favor").find(class_="unusual-mark") is None


def test_the_one_player_view_marks_only_that_players_values(client):
    game = game_scored(player("Alice", queens_favor=999), player("Bruno", queens_favor=500))

    html = page(client.get(url("pad", game) + "?player=2"))

    assert warnings_of(html, "queens_favor") == [QUEENS_999.replace("999", "500")]


def test_more_tokens_than_the_combs_spaces_are_marked_to_check(client):
    """18 tokens on the 15 spaces of a 4-player comb: saved, and said to check (not only "full")."""
    game = game_scored(
        player("Alice", tokens=[5, 0, 0]),
        player("Bruno", tokens=[0, 5, 0]),
        player("Carla", tokens=[0, 0, 4]),
        player("Dana", tokens=[2, 1, 1]),
    )

    assert hints(client, game) == [
        "18 tokens are on the comb, but it has only 15 spaces for 4 players: check the counts."
    ]


# ---------------------------------------------------------------------------------------------
# Undo: /games/<id>/changes/<change>/undo/ (what undo puts back, and who: tests/test_history.py)


def latest_change() -> Change:
    return Change.objects.order_by("-pk").first()


def undo(client: Client, game: Game, change: Change, headers: dict | None = None):
    return client.post(reverse("scoring:undo", args=[game.public_id, change.pk]), headers=headers or {})


def test_the_pad_offers_to_undo_each_recent_change(client):
    game = game_started("Alice", "Bruno")
    change = save_value(seat=seat_of(game, 2), key="recruits", value=3).change

    html = page(client.get(url("pad", game)))

    form = html.by_id("changes").one("form", data_undo=True)
    assert form["action"] == reverse("scoring:undo", args=[game.public_id, change.pk])
    assert form.one("button")["aria-label"].startswith("Undo: ")


def test_undo_without_javascript_puts_the_value_back_and_returns_to_the_changes(client):
    game = game_started("Alice", "Bruno")
    save(client, game, "s2-recruits", "3", page="a", seq=1)
    mistake = latest_change()
    save(client, game, "s2-farms", "2", page="a", seq=2)  # another field: the recruits' change is still the latest

    response = undo(client, game, mistake)

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "#changes"
    assert (entry(game, 2, "recruits"), entry(game, 2, "farms")) == (None, 2)
    assert latest_change().undoes == mistake


def test_undo_with_htmx_answers_the_changes_then_every_figure_out_of_band(client):
    game = game_started("Alice", "Bruno")
    save(client, game, "s2-recruits", "3", page="a", seq=1)

    response = undo(client, game, latest_change(), HTMX)

    assert response.status_code == 200
    changes, *oob = top_level(page(response))
    assert changes["id"] == "changes" and changes.find(class_="field-error") is None
    assert [part["id"] for part in oob] == OOB_IDS
    assert labelled(page(response).by_id("totals"), "Total, Bruno").text == "2"
    assert entry(game, 2, "recruits") is None


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_undo_of_a_change_the_field_moved_on_from_is_a_409_that_says_why_even_when_the_value_came_back(client, headers):
    """Phone A set Bruno's recruits to 3; phone B then set 5, and phone C 3 again. A's change is no
    longer the field's latest: undoing it would overwrite C's 3, though it is the same value."""
    game = game_started("Alice", "Bruno")
    save(client, game, "s2-recruits", "3", page="phone-a", seq=1)
    mine = latest_change()
    save(client, game, "s2-recruits", "5", page="phone-b", seq=1)
    save(client, game, "s2-recruits", "3", page="phone-c", seq=1)
    before, changes = snapshot(game), Change.objects.count()

    response = undo(client, game, mine, headers)

    assert response.status_code == 409
    message = page(response).by_id("changes").one("p", class_="field-error")
    assert message["role"] == "alert"
    assert message.text == (
        "Recruits built, Bruno: changed again since, to 3. Undoing would overwrite that, so nothing was changed."
    )
    assert entry(game, 2, "recruits") == 3
    assert (snapshot(game), Change.objects.count()) == (before, changes)


# ---------------------------------------------------------------------------------------------
# Names are text, never markup (every page: tests/views/test_every_page.py)


def test_a_players_name_is_escaped_in_a_saves_answer_and_the_tie_sentence(client):
    game = evil_game()

    response = save(client, game, "s1-farm_income", "30")

    assert EVIL.encode() not in response.content
    tie = page(response).by_id("ranking").one("p", class_="tie").text
    assert tie == "Bruno wins the tie on active workers, 3 to 1."
    assert f"Total, {EVIL}" in [el.get("aria-label") for el in page(response).by_id("totals").iter()]


# What a save answers is what a poll would bring: a page whose last poll was the revision just
# before its own save has, with that save's answer, the game as a poll would show it at the
# save's revision (every figure the write changed, the other cells of a comb step's sector). So
# the save's answer carries the poll's ETag at its revision, and that page polls on from there
# (static/scoring/saving.js, ``pollAfterSave``): a phone scoring alone is sent no whole game after
# each of its saves.


def _signature(element: Element) -> tuple:
    """What an element shows and says, as a poll or a save's answer brings it (the out-of-band
    mark left out: the answer swaps it in, the page holds it without)."""
    attrs = tuple(sorted((name, value) for name, value in element.attrs.items() if name != "hx-swap-oob"))
    children = tuple(_signature(child) if isinstance(child, Element) else child for child in element.children)
    return element.tag, attrs, children


def _polled(client, game) -> tuple[dict[str, tuple], dict[str, tuple]]:
    """A poll's figures (by id) and values (by field name: version and value stored)."""
    values, *figures = top_level(page(client.get(url("live", game), headers=HTMX)))
    items = {item["data-name"]: _signature(item) for item in values.find_all("i")}
    return {part["id"]: _signature(part) for part in figures}, items


SAVED_ONE_BY_ONE = [
    *((During.BREAKDOWN, category.key, "7" if not category.is_flag else "1") for category in PAD_CATEGORIES),
    *((During.TRACK, category.key, "40") for category in categories_of(During.TRACK) if category.section == "during"),
    (During.BREAKDOWN, "t0", "2"),  # tokens in the first sector: its awards move, the comb's figures with them
    (During.BREAKDOWN, "active_workers", "3"),  # the tie-breaker
    (During.BREAKDOWN, "farms", "95"),  # far beyond what games record: its row's warning
]


@pytest.mark.parametrize(("during", "key", "value"), SAVED_ONE_BY_ONE, ids=lambda part: str(part))
def test_a_save_answers_everything_its_write_changed_as_a_poll_at_its_revision_would(client, during, key, value):
    game = game_started("Alice", "Bruno", "Carla", during=during)
    save_tokens(seat=seat_of(game, 2), sector=GameSector.objects.get(game=game, position=0), count=1)
    save_value(seat=seat_of(game, 3), key="farms", value=4)
    if key == "active_workers":  # (a tie for the lead, which the workers break)
        save_value(seat=seat_of(game, 1), key="farm_income", value=total_of(game, 3) - total_of(game, 1))
    figures_before, values_before = _polled(client, game)

    answer = save(client, game, f"s1-{key}", value, page="phone-a", seq=1)

    assert answer.status_code == 200
    assert answer["ETag"] == f'"rev-{revision_of(game)}"' == client.get(url("live", game))["ETag"]
    figures_after, values_after = _polled(client, game)
    status, *parts = top_level(page(answer))
    answered = {part["id"]: _signature(part) for part in parts if part.get("hx-swap-oob")}
    changed = {name for name in figures_after if figures_after[name] != figures_before[name]}
    assert changed, "the save changed no figure: nothing to prove"
    assert {name: answered.get(name) for name in changed} == {name: figures_after[name] for name in changed}
    cells = next((part for part in parts if part.get("data-live") is not None), None)
    sector_cells = {item["data-name"]: _signature(item) for item in cells.find_all("i")} if cells else {}
    moved = {name for name in values_after if values_after[name] != values_before[name]} - {f"s1-{key}"}
    assert {name: sector_cells.get(name) for name in moved} == {name: values_after[name] for name in moved}
    saved_item = page(client.get(url("live", game))).one("i", data_name=f"s1-{key}")
    assert (status["data-version"], status["data-stored"]) == (saved_item["data-version"], saved_item["data-stored"])


def test_a_refused_save_answers_the_poll_etag_of_the_revision_it_left_unchanged(client):
    game = game_started("Alice", "Bruno")
    etag = client.get(url("live", game))["ETag"]

    answer = save(client, game, "s1-farms", "abc", page="phone-a", seq=1)

    assert answer.status_code == 422
    assert answer["ETag"] == etag
