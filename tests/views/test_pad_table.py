"""Specification of *Table view* (``/games/<id>/table/``): the standings turned towards the
table, polled as values arrive."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.services.finishing import game_finish
from tests.support.factories import (
    game_scored,
    game_started,
    player,
    save_value,
    seat_of,
)
from tests.support.pages import (
    HTMX,
    loaded,
    page,
    save,
    top_level,
    typed,
    url,
)

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Table view: /games/<id>/table/


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


def test_the_tables_view_says_the_etag_of_what_it_shows_its_first_poll_a_304_until_a_save(client):
    """Issue 51: the first poll brought the standings the page had just drawn, parsed and swapped
    again as a slow phone opened it. The page says the ETag of what it shows (follow.js sends it)."""
    game = game_started("Alice", "Bruno")
    shown = page(client.get(url("table", game))).by_id("standings")["data-poll-etag"]

    assert client.get(url("table", game), headers={**HTMX, "If-None-Match": shown}).status_code == 304
    save_value(seat=seat_of(game, 1), key="farms", value=2)
    assert client.get(url("table", game), headers={**HTMX, "If-None-Match": shown}).status_code == 200


def test_a_shared_victory_and_a_finished_game_are_said_in_words_on_the_tables_view(client):
    game = game_scored(player("Alice", farm_income=9, workers=2), player("Bruno", farm_income=9, workers=2))
    game_finish(game=Game.objects.get(pk=game.pk))

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
