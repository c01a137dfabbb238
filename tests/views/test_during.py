"""Specification of the two ways a game counts its during-the-game points, on the pages: the start
form's choice (the VP track by default), the pad's fields in each way, the pad's link to the page
that counts them the other way (a plain form, refused there with why), the live view other phones
poll, and the results. The rules of the change itself are ``tests/services/test_during.py``."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.rules.categories import DURING_LABELS, During, Section, categories_of
from scoring.services.pad import game_mode_change
from scoring.services.sharing import link_renew
from tests.support.factories import game_scored, game_started, player, save_value, seat_of
from tests.support.pages import (
    HTMX,
    SCRIPT,
    WITH_AND_WITHOUT_HTMX,
    form_data,
    labelled,
    loaded,
    pad_inputs,
    page,
    save,
    typed,
    url,
)

pytestmark = pytest.mark.django_db

BREAKDOWN = categories_of(During.BREAKDOWN, Section.DURING)
TRACK_LABEL = "VP on the track at the end"


def during_of(game: Game) -> str:
    return Game.objects.values_list("during_mode", flat=True).get(pk=game.pk)


def during_fields(html, name: str) -> list[str]:
    """The accessible names of a player's during-the-game fields on the pad, in order."""
    section = html.one("section", aria_labelledby="during-heading")
    return [field["aria-label"] for field in section.find_all("input") if field.get("aria-label", "").endswith(name)]


# ---------------------------------------------------------------------------------------------
# The start form


def test_the_start_form_offers_both_ways_the_vp_track_chosen(client):
    html = page(client.get(url("start")))

    radios = html.find_all("input", name="during")
    assert [(radio["value"], "checked" in radio.attrs) for radio in radios] == [("track", True), ("breakdown", False)]
    labels = [radio.parent.text for radio in radios]
    assert labels == [DURING_LABELS[During.TRACK], DURING_LABELS[During.BREAKDOWN]]


@pytest.mark.parametrize(
    ("posted", "during", "starting_vp"),
    [
        pytest.param({"during": "track"}, "track", None, id="the-track"),
        pytest.param({"during": "breakdown"}, "breakdown", 1, id="the-breakdown"),
        pytest.param({}, "track", None, id="left-out-the-track"),
    ],
)
def test_starting_a_game_counts_the_way_chosen(client, posted, during, starting_vp):
    form = {
        "played_on": "2026-12-01",
        "end_trigger_token": "7",
        "player-TOTAL_FORMS": "5",
        "player-INITIAL_FORMS": "0",
        "player-0-name": "Alice",
        "sector-TOTAL_FORMS": "20",
        "sector-INITIAL_FORMS": "0",
        **posted,
    }

    response = client.post(url("start"), form)

    assert response.status_code == 302
    game = Game.objects.get()
    assert during_of(game) == during
    assert seat_of(game, 1).starting_vp == starting_vp


def test_an_unknown_way_is_an_error_of_the_start_form(client):
    form = {
        "played_on": "2026-12-01",
        "end_trigger_token": "7",
        "player-TOTAL_FORMS": "5",
        "player-INITIAL_FORMS": "0",
        "player-0-name": "Alice",
        "sector-TOTAL_FORMS": "20",
        "sector-INITIAL_FORMS": "0",
        "during": "both",
    }

    assert client.post(url("start"), form).status_code == 422
    assert not Game.objects.exists()


# ---------------------------------------------------------------------------------------------
# The pad in each way


def test_a_track_games_pad_asks_each_player_one_number_in_place_of_the_nine_rows(client):
    game = game_started("Alice", "Bruno", during=During.TRACK)

    html = page(client.get(url("pad", game)))

    assert during_fields(html, "Alice") == [f"{TRACK_LABEL}, Alice"]
    assert during_fields(html, "Bruno") == [f"{TRACK_LABEL}, Bruno"]
    assert labelled(html, f"{TRACK_LABEL}, Bruno")["name"] == "s2-vp_track"
    assert "starting VP included" in html.by_id("label-vp_track").text
    names = {field["name"] for field in pad_inputs(html)}
    assert not {f"s1-{category.key}" for category in BREAKDOWN} & names  # the starting VP is not asked
    assert html.one("div", data_pad=True)["data-during"] == "track"  # (pad.js: another phone changing it reloads)
    link = html.by_id("during-link")
    assert link.parent.one("h2")["id"] == "during-heading"  # (on the heading's line: the pad grows no taller)
    assert (link.text, link["href"]) == ("Use the breakdown", url("during", game))


def test_a_breakdown_games_pad_asks_the_starting_vp_and_each_source(client):
    game = game_started("Alice", "Bruno")

    html = page(client.get(url("pad", game)))

    assert during_fields(html, "Alice") == [f"{category.label}, Alice" for category in BREAKDOWN]
    assert labelled(html, "Starting VP, Bruno")["value"] == "2"
    assert html.find(aria_label=f"{TRACK_LABEL}, Alice") is None
    assert html.one("div", data_pad=True)["data-during"] == "breakdown"
    assert html.by_id("during-link").text == "Use the VP track"


def test_a_view_link_shows_the_track_without_the_link_to_change_it():
    game = game_started("Alice", during=During.TRACK)
    watcher = Client()
    watcher.get(reverse("scoring:join", args=[link_renew(game=game, access="view").token]))

    html = page(watcher.get(url("pad", game)))

    assert labelled(html, f"{TRACK_LABEL}, Alice").get("name") == "s1-vp_track"
    assert html.find(id="during-link") is None
    assert watcher.get(url("during", game)).status_code == 403


def test_the_track_saves_without_javascript(client):
    game = game_started("Alice", "Bruno", during=During.TRACK)

    response = client.post(url("pad", game), typed(loaded(client, game), {"s1-vp_track": "50+7"}))

    assert response.status_code == 302
    alice = seat_of(game, 1)
    assert (alice.vp_track, alice.sums, alice.score_total) == (57, {"vp_track": "50+7"}, 57)


def test_the_script_saves_the_track_and_a_breakdown_field_is_no_field_of_a_track_game(client):
    game = game_started("Alice", during=During.TRACK)

    assert save(client, game, "s1-vp_track", "44").status_code == 200
    refused = save(client, game, "s1-farm_income", "6", headers=SCRIPT)

    assert (refused.status_code, refused.content.decode()) == (400, "This field is not part of the game.")
    assert (seat_of(game, 1).vp_track, seat_of(game, 1).farm_income) == (44, None)


def test_the_live_view_says_the_way_the_game_counts(client):
    game = game_started("Alice", during=During.TRACK)

    html = page(client.get(url("live", game), headers=HTMX))

    values = html.by_id("live-values")
    assert values["data-during"] == "track"
    assert [item["data-name"] for item in values.find_all("i")][0] == "s1-vp_track"


def test_the_results_of_a_track_game_show_the_track_then_the_during_the_game_subtotal(client):
    game = game_scored(player("Ann", vp_track=40, farms=2), player("Ben", vp_track=38), during=During.TRACK)

    rows = page(client.get(url("results", game))).one("table", class_="breakdown").find_all("tr")[1:]

    assert [(row.find("summary") or row.find("th")).text for row in rows[:3]] == [
        "VP on the track",
        "During the game",
        "Planted seed cards",
    ]  # (the pad's short words,)
    assert rows[0].one("small", class_="help").text == TRACK_LABEL  # (the edition's full words a tap away)
    assert [cell.text for cell in rows[0].find_all("td")] == ["40", "38"]


# ---------------------------------------------------------------------------------------------
# Changing the way: the page the pad's link opens


@pytest.mark.parametrize(
    ("during", "says", "offers"),
    [
        pytest.param(
            During.TRACK, "This game counts them on the VP track", ("breakdown", "Use the breakdown"), id="the-track"
        ),
        pytest.param(
            During.BREAKDOWN,
            "This game breaks them down",
            ("track", "Use the VP track"),
            id="the-breakdown",
        ),
    ],
)
def test_the_page_says_how_the_game_counts_and_offers_the_other_way(client, during, says, offers):
    game = game_started("Alice", during=during)

    html = page(client.get(url("during", game)))

    assert says in html.one("main").text
    form = html.one("main").one("form", method="post")
    assert (form.one("input", name="during")["value"], form.one("button").text) == offers
    assert html.find("a", href=url("pad", game)).text == "Back to the pad"


def test_the_form_changes_the_way_and_goes_back_to_the_pad_with_its_fields(client):
    game = game_started("Alice", "Bruno")
    form = page(client.get(url("during", game) + "?player=2")).one("main").one("form", method="post")

    response = client.post(url("during", game) + "?player=2", form_data(form))

    assert response.status_code == 302
    assert response["Location"] == url("pad", game) + "?player=2"
    assert during_of(game) == "track"
    html = page(client.get(response["Location"]))
    assert during_fields(html, "Bruno") == [f"{TRACK_LABEL}, Bruno"]


@WITH_AND_WITHOUT_HTMX
def test_a_refusal_comes_back_with_the_page_and_says_why(client, headers):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 2), key="farm_income", value=6)

    response = client.post(url("during", game), {"during": "track"}, headers=headers)

    assert response.status_code == 409
    alert = page(response).one(role="alert")
    assert alert.text == (
        "Values are already entered in the breakdown: Bruno’s Farm income. Clear them first to switch to the VP track."
    )
    assert during_of(game) == "breakdown"


@WITH_AND_WITHOUT_HTMX
def test_a_way_the_pad_does_not_know_is_refused(client, headers):
    game = game_started("Alice")

    response = client.post(url("during", game), {"during": "both"}, headers=headers)

    assert response.status_code == 400
    assert during_of(game) == "breakdown"


def test_undoing_a_change_of_the_other_way_says_it_is_no_longer_part_of_the_game(client):
    """Alice's farm income typed then emptied, and the game changed to the track: undoing the
    emptying would bring back a value the game no longer counts, so nothing changes, and the pad
    says why."""
    game = game_started("Alice")
    save_value(seat=seat_of(game, 1), key="farm_income", value=6)
    emptied = save_value(seat=seat_of(game, 1), key="farm_income", value=None).change
    game_mode_change(game=game, during=During.TRACK)

    response = client.post(reverse("scoring:undo", args=[game.public_id, emptied.pk]))

    assert response.status_code == 409
    assert page(response).by_id("undo-message").one(role="alert").text == (
        "Farm income, Alice: the game now counts its points another way, so nothing was changed."
    )
    assert seat_of(game, 1).farm_income is None


@pytest.mark.parametrize(
    ("during", "key", "value", "offered"),
    [
        pytest.param(During.BREAKDOWN, None, None, True, id="a-new-breakdown-game-its-starting-vp-as-filled-in"),
        pytest.param(During.BREAKDOWN, "starting_vp", None, True, id="a-starting-vp-emptied"),
        pytest.param(During.BREAKDOWN, "explore_tokens", 3, False, id="a-breakdown-entry"),
        pytest.param(During.TRACK, None, None, True, id="a-new-track-game"),
        pytest.param(During.TRACK, "farms", 3, True, id="an-end-of-game-entry-is-either-ways"),
        pytest.param(During.TRACK, "vp_track", 0, False, id="a-track-entry"),
    ],
)
def test_the_pad_offers_the_other_way_only_while_nothing_is_entered_this_way(client, during, key, value, offered):
    """A pad in the middle of a game keeps its first screen for the scores: the button shows only
    while the change can be made."""
    game = game_started("Alice", "Bruno", during=during)
    if key:
        save_value(seat=seat_of(game, 2), key=key, value=value)

    html = page(client.get(url("pad", game)))

    assert (html.find(id="during-link") is not None) is offered
