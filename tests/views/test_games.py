"""Specification of the games' pages (``scoring/views/games.py``), through Django's test client:
the history, a game's results, deleting it and exporting it (starting one is
``tests/views/test_start.py``).

Each page is requested with and without the ``HX-Request`` header, with valid and invalid input.
The history's filters and pages are ``tests/views/test_history_page.py``; the statistics,
``tests/selectors/test_statistics.py``; the players' pages, ``tests/test_people.py``.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, date, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.gamefile import read_document
from scoring.models import Change, Game, GameSector, HibernationTokens, Seat
from scoring.rules.categories import CATEGORIES, During, categories_of
from scoring.services.sharing import link_renew
from tests.support.factories import game_scored, game_started, player, save_value, seat_of
from tests.support.pages import (
    WITH_AND_WITHOUT_HTMX,
    Element,
    page,
    play_again_links,
    shared_victory_game,
    url,
)

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# History: /


@WITH_AND_WITHOUT_HTMX
def test_history_without_games_invites_to_start_one(client, headers):
    response = client.get(url("history"), headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert "No games yet" in html.one("p", class_="empty").text
    assert html.find("a", href=url("start")) is not None
    assert html.find("ol", class_="history") is None


@WITH_AND_WITHOUT_HTMX
def test_history_lists_games_newest_first_with_winners_marked_and_in_progress_badged(client, headers):
    older = game_scored(
        player("Alice", farm_income=30),
        player("Bruno", farm_income=20),
        played_on=date(2024, 5, 1),
        finished=True,
    )
    newer = game_scored(
        player("Carla", farm_income=5),
        player("Dana", farm_income=15),
        played_on=date(2024, 6, 1),
    )

    html = page(client.get(url("history"), headers=headers))

    games = html.find_all("li", class_="history-game")
    assert [game.one("span", class_="history-date").text for game in games] == ["Sat 1 Jun 2024", "Wed 1 May 2024"]
    in_progress, finished = games
    assert in_progress.one("a", class_="history-link")["href"] == url("pad", newer)
    assert in_progress.one("span", class_="badge").text == "in progress"
    assert finished.one("a", class_="history-link")["href"] == url("results", older)
    assert finished.find("span", class_="badge") is None
    assert [p.text for p in finished.find_all("span", class_="history-player")] == ["Alice (winner) 30", "Bruno 20"]
    assert [p.text for p in finished.find_all("span", class_="winner")] == ["Alice (winner) 30"]


def test_history_orders_games_of_the_same_day_by_creation_newest_first(client):
    first = game_started("Alice", played_on=date(2024, 5, 1))
    second = game_started("Bruno", played_on=date(2024, 5, 1))

    html = page(client.get(url("history")))

    links = [a["href"] for a in html.find_all("a", class_="history-link")]
    assert links == [url("pad", second), url("pad", first)]


def test_history_marks_every_winner_of_a_shared_victory(client):
    game_scored(
        player("Alice", farm_income=20, workers=2),
        player("Bruno", farm_income=20, workers=2),
        player("Carla", farm_income=10),
        finished=True,
    )

    html = page(client.get(url("history")))

    assert [p.text for p in html.find_all("span", class_="winner")] == ["Alice (winner) 20", "Bruno (winner) 20"]


# ---------------------------------------------------------------------------------------------
# Players: /players/ (their figures are tests/test_people.py)


@WITH_AND_WITHOUT_HTMX
def test_players_without_finished_games_says_statistics_come_later(client, headers):
    game_started("Alice", "Bruno")  # in progress: not counted

    response = client.get(url("players"), headers=headers)

    assert response.status_code == 200
    assert "Statistics appear here once a game is finished." in page(response).one("p", class_="empty").text


# ---------------------------------------------------------------------------------------------
# Results: /games/<id>/results/


@pytest.mark.parametrize(
    ("language", "hers", "heading"),
    [
        ("en", 20, "Shared victory: the Automa and Hélène"),
        ("fr", 20, "Victoire partagée : l’Automa et Hélène"),
        ("en", 19, "The Automa wins"),
        ("fr", 19, "L’Automa gagne"),
    ],
)
def test_the_automas_victory_names_it_as_every_sentence_does(client, language, hers, heading):
    """Issue 50: « Victoire partagée : Automa et Hélène » beside « L’Automa et Hélène »; and
    "the Automa wins" heading the results in lower case."""
    game = game_scored(
        player("Automa", automa=True, farm_income=20, workers=2),
        player("Hélène", farm_income=hers, workers=2),
        finished=True,
    )

    html = page(client.get(url("results", game), HTTP_ACCEPT_LANGUAGE=language))

    assert html.by_id("winner-heading").text == heading


@WITH_AND_WITHOUT_HTMX
def test_results_rank_a_shared_victory_with_shared_places(client, headers):
    game = shared_victory_game(finished=True)

    response = client.get(url("results", game), headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert html.by_id("winner-heading").text == "Shared victory: Alice and Bruno"
    ranking = html.one("ol", aria_label="Ranking").find_all("li")
    assert [item.text for item in ranking] == ["1st Alice Saha 26 VP", "1st Bruno 26 VP", "3rd Carla 18 VP"]
    assert [item.get("class", "") for item in ranking] == ["winner", "winner", ""]
    assert [p.text for p in html.find_all("p", class_="tie")] == [
        "Alice and Bruno share the victory: 26 VP and 2 active workers each."
    ]
    assert html.find(class_="badge") is None


def test_results_explain_a_tie_broken_by_active_workers(client):
    game = game_scored(
        player("Alice", farm_income=20, workers=1),
        player("Bruno", farm_income=20, workers=3),
        player("Carla", farm_income=30),
    )

    html = page(client.get(url("results", game)))

    assert html.by_id("winner-heading").text == "Carla wins"
    ranking = html.one("ol", aria_label="Ranking").find_all("li")
    assert [item.text for item in ranking] == ["1st Carla 30 VP", "2nd Bruno 20 VP", "3rd Alice 20 VP"]
    assert [p.text for p in html.find_all("p", class_="tie")] == [
        "Bruno takes 2nd place on the tie-break with 3 active workers, ahead of Alice (1)."
    ]
    assert html.one(class_="badge").text == "in progress"


def test_results_breakdown_table_lists_every_category_then_subtotals_total_and_workers(client):
    game = shared_victory_game()

    html = page(client.get(url("results", game)))

    table = html.one("table", class_="breakdown")
    assert [th.text for th in table.one("thead").find_all("th")] == ["Category", "Alice", "Bruno", "Carla"]
    rows = {
        (row.find("summary") or row.one("th")).text: [td.text for td in row.find_all("td")]
        for row in table.one("tbody").find_all("tr")
    }
    labels = list(rows)
    assert labels == (  # each category by the pad's short words, its full words a tap away (issue 28)
        [c.short_label for c in categories_of(During.BREAKDOWN) if c.section == "during"]
        + ["During the game"]
        + [c.short_label for c in CATEGORIES if c.section == "end"]
        + ["Comb majorities", "End of the game", "Total", "Active workers"]
    )
    full = [item.text for item in table.one("tbody").find_all("small", class_="help")]
    assert full == (
        [c.label for c in categories_of(During.BREAKDOWN) if c.section == "during"]
        + [c.label for c in CATEGORIES if c.section == "end"]
        + ["Hibernation Comb sector majorities"]
    )
    assert rows["Farm income"] == ["20", "20", "5"]
    assert rows["During the game"] == ["20", "20", "5"]
    assert rows["Comb majorities"] == ["6", "6", "13"]
    assert rows["End of the game"] == ["6", "6", "13"]
    assert rows["Total"] == ["26", "26", "18"]
    assert rows["Active workers"] == ["2", "2", "4"]


def bars_of(html: Element) -> list[Element]:
    return html.one("ul", class_="bars").find_all("li", class_="bar")


def solid_end(bar: Element) -> float:
    """Where a bar's solid part ends: the end of what its player earned, less what the dashed
    segments (negative categories) take back from it."""
    rects = bar.one("svg", class_="bar-svg").find_all("rect")
    earned = max((float(r["x"]) + float(r["width"]) for r in rects if r.get("class") != "bar-negative"), default=0)
    return earned - sum(float(r["width"]) for r in rects if r.get("class") == "bar-negative")


def test_results_draw_a_bar_of_points_by_category_per_player_with_its_legend_under_it(client):
    """Issue 19: the legend reads on a phone: each bar carries its own, in words and VP, so that
    nobody matches colours across the page."""
    game = shared_victory_game()

    html = page(client.get(url("results", game)))

    assert html.by_id("chart-heading").text == "Points by category"
    assert html.one("ul", class_="bars")["aria-labelledby"] == "chart-heading"
    bars = bars_of(html)
    assert [bar.one("p", class_="bar-name").text for bar in bars] == ["Alice · 26 VP", "Bruno · 26 VP", "Carla · 18 VP"]
    svg = bars[0].one("svg", class_="bar-svg")
    assert svg["aria-hidden"] == "true" and svg["viewbox"] == "0 0 340 22"  # the legend says it in words
    assert [rect.one("title").text for rect in svg.find_all("rect")] == [
        "During the game: 20 VP",
        "Hibernation Comb sector majorities: 6 VP",
    ]
    assert [item.text for item in bars[0].one("ul", class_="legend").find_all("li")] == [
        "During the game: 20 VP",
        "Hibernation Comb sector majorities: 6 VP",
    ]
    legend_colours = [item.one("rect")["fill"] for item in bars[0].one("ul", class_="legend").find_all("li")]
    assert legend_colours == [rect["fill"] for rect in svg.find_all("rect")]
    widths = [sum(float(rect["width"]) for rect in bar.one("svg", class_="bar-svg").find_all("rect")) for bar in bars]
    assert widths[0] == pytest.approx(340) and widths[1] == pytest.approx(340)
    assert widths[2] == pytest.approx(340 * 18 / 26, abs=0.05)


def test_results_bars_of_equal_totals_are_equal_whatever_a_negative_category_takes_away(client):
    """Issue 19: "a -2 carving made two 101-point players draw different bars". A negative category
    is drawn back from the end of what was earned (dashed, over it), so each solid bar ends at its
    total, and the legend says what it took away."""
    game = game_scored(
        player("Maya", farm_income=101),
        player("Tom", farm_income=103, carvings=-2),
        player("Lea", farm_income=50),
        sectors=[],
    )

    html = page(client.get(url("results", game)))

    maya, tom, lea = bars_of(html)
    assert solid_end(maya) == pytest.approx(solid_end(tom)) == pytest.approx(340 * 101 / 103, abs=0.05)
    assert solid_end(lea) == pytest.approx(340 * 50 / 103, abs=0.05)
    earned, taken = tom.one("svg", class_="bar-svg").find_all("rect")
    assert earned["fill"] == maya.one("svg", class_="bar-svg").one("rect")["fill"]  # the same category's colour
    assert earned.one("title").text == "During the game: 103 VP"
    assert taken["class"] == "bar-negative" and taken.one("title").text == "Conditions on carvings built: \u22122 VP"
    assert float(taken["x"]) + float(taken["width"]) == pytest.approx(float(earned["width"]))  # drawn back from the end
    assert [item.text for item in tom.one("ul", class_="legend").find_all("li")] == [
        "During the game: 103 VP",
        "Conditions on carvings built: \u22122 VP",
    ]
    assert tom.one("ul", class_="legend").find_all("li")[1]["class"] == "legend-item taken"


def test_results_bar_of_a_negative_total_goes_left_of_zero(client):
    """A total below zero (only carvings can make one) is drawn left of a zero line, the others
    from it."""
    game = game_scored(
        player("Maya", starting_vp=0, carvings=-10), player("Tom", starting_vp=0, farm_income=30), sectors=[]
    )

    html = page(client.get(url("results", game)))

    maya, tom = bars_of(html)
    zero = 340 * 10 / 40
    assert float(maya.one("line", class_="bar-zero")["x1"]) == pytest.approx(zero, abs=0.05)
    assert [(float(r["x"]), float(r["width"])) for r in maya.one("svg", class_="bar-svg").find_all("rect")] == [
        (pytest.approx(0, abs=0.05), pytest.approx(zero, abs=0.05))
    ]
    assert solid_end(tom) == pytest.approx(340)


def test_results_explain_every_comb_sector_in_words(client):
    game = shared_victory_game()

    html = page(client.get(url("results", game)))

    section = html.one("section", aria_labelledby="comb-results-heading")
    assert [p.text for p in section.find_all("p")] == [
        "Sector 1: Alice and Bruno tie for 1st with 2 tokens: 13 VP shared, 6 each, rounded down. "
        "Nobody scores 2nd place.",
        "Sector 2: Carla leads with 1 token: 13 VP.",
        "Sector 3: No tokens yet: nobody scores.",
    ]


def test_results_of_a_game_without_sectors_say_so(client):
    game = game_scored(player("Alice", farm_income=4), sectors=[])

    html = page(client.get(url("results", game)))

    assert html.one("section", aria_labelledby="comb-results-heading").one("p", class_="empty").text == (
        "This game has no comb sectors."
    )


def bgstats_links(html: Element) -> list[Element]:
    return [a for a in html.find_all("a") if a.text == "Log this play in BG Stats"]


def test_finished_results_link_to_bg_stats_with_the_play_filled_in(client):
    game = shared_victory_game(finished=True)

    html = page(client.get(url("results", game)))

    (link,) = bgstats_links(html)
    assert link.parent is html.one("div", class_="results-next")
    assert (link["class"], link["target"], link["rel"]) == ("button", "_blank", "noopener")
    address = urlsplit(link["href"])
    assert (address.scheme, address.netloc, address.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    play = json.loads(parse_qs(address.query)["data"][0])
    assert play["sourcePlayId"] == game.public_id
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Alice", 26, 1, True),
        ("Bruno", 26, 1, True),
        ("Carla", 18, 3, False),
    ]


def test_the_bg_stats_link_of_a_game_finished_on_the_pad_says_when_it_ended_and_how_long_it_took(client):
    """Decoded from the page as BG Stats decodes it: the end of the play in UTC, its length from
    the first value entered, and each player by an id that says nothing of the database."""
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=4)
    Change.objects.filter(game=game).update(at=timezone.now() - timedelta(minutes=75))
    assert client.post(url("finish", game), {"confirm": "1"}).status_code == 302
    game.refresh_from_db()

    (link,) = bgstats_links(page(client.get(url("results", game))))

    play = json.loads(parse_qs(urlsplit(link["href"]).query)["data"][0])
    assert play["playDate"] == game.finished_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    assert play["durationMin"] == 75
    # (each player by a digest of their name: tests/presenters/test_bgstats.py)
    assert all(re.fullmatch(r"name-[0-9a-f]{12}", p["sourcePlayerId"]) for p in play["players"])


def test_results_of_a_game_in_progress_offer_no_bg_stats_link(client):
    html = page(client.get(url("results", shared_victory_game())))

    assert bgstats_links(html) == []
    assert [a["href"] for a in html.find_all("a") if "bgstatsapp" in a.get("href", "")] == []


def test_results_offer_delete_to_the_owner_only(client):
    """Issue 49, point 7: a table-mate's *Delete…* led to "Not allowed"."""
    game = shared_victory_game(finished=True)
    mate = Client()
    link = link_renew(game=game, access="edit")
    assert mate.post(reverse("scoring:join", args=[link.token])).status_code == 302

    def delete_links(phone: Client) -> list[Element]:
        response = phone.get(url("results", game))
        assert response.status_code == 200
        return page(response).find_all("a", href=url("delete", game))

    assert [a.text for a in delete_links(client)] == ["Delete…"]
    assert delete_links(mate) == []


def test_finished_results_offer_the_next_steps_right_after_the_winner_and_the_ranking(client):
    game = shared_victory_game(finished=True)

    html = page(client.get(url("results", game)))

    next_steps = html.one("div", class_="results-next")
    assert [(a.text, a["class"]) for a in next_steps.find_all("a")] == [
        ("Log this play in BG Stats", "button"),
        ("Play again", "button primary"),
    ]
    assert play_again_links(html)[0]["href"] == url("again", game)
    # In the page's order: the winner and the ranking, then what to do next, then the chart and the rest.
    order = [
        element
        for element in html.iter()
        if element.get("id") in ("winner-heading", "chart-heading") or element is next_steps
    ]
    assert [element.get("id", "next") for element in order] == ["winner-heading", "next", "chart-heading"]


def test_results_of_a_game_in_progress_offer_no_play_again(client):
    html = page(client.get(url("results", shared_victory_game())))

    assert play_again_links(html) == []
    assert html.find("div", class_="results-next") is None


def test_an_edit_links_holder_may_log_the_play_but_not_play_again_from_the_owners_table(client):
    game = shared_victory_game(finished=True)
    link = link_renew(game=game, access="edit")
    holder = Client()
    holder.get(reverse("scoring:join", args=[link.token]))

    html = page(holder.get(url("results", game)))
    refused = holder.get(url("again", game))

    assert len(bgstats_links(html)) == 1 and play_again_links(html) == []
    assert refused.status_code == 403
    assert "Only the game’s owner can start the next game with its players." in refused.content.decode()


# ---------------------------------------------------------------------------------------------
# Deleting: /games/<id>/delete/


@WITH_AND_WITHOUT_HTMX
def test_delete_page_asks_for_confirmation_and_deletes_nothing(client, headers):
    game = shared_victory_game()

    response = client.get(url("delete", game), headers=headers)

    assert response.status_code == 200
    html = page(response)
    assert html.one("h1").text == "Delete this game?"
    assert "The game played on Wed 1 May 2024 with Alice (26), Bruno (26), Carla (18)." in html.one("main").text
    form = html.one("main").one("form")
    assert form["method"] == "post" and form.get("action") is None  # posts to the same address
    assert form.one("button").text == "Delete the game"
    assert Game.objects.filter(pk=game.pk).exists()


@WITH_AND_WITHOUT_HTMX
def test_delete_post_deletes_the_game_and_everything_in_it(client, headers):
    game = shared_victory_game()
    kept = game_started("Dana")

    response = client.post(url("delete", game), headers=headers)

    assert response.status_code == 302
    assert response["Location"] == url("history")
    assert list(Game.objects.all()) == [kept]
    assert not Seat.objects.filter(game_id=game.pk).exists()
    assert not GameSector.objects.filter(game_id=game.pk).exists()
    assert not HibernationTokens.objects.filter(seat__game_id=game.pk).exists()


# ---------------------------------------------------------------------------------------------
# Exporting: /games/<id>/export/


def test_export_downloads_the_game_as_a_game_file_with_its_history(client):
    game = game_started("Alice", "Bruno", played_on=date(2024, 5, 1))
    save_value(seat=seat_of(game, 1), key="farm_income", value=11, sum_text="3+6+2")

    response = client.get(url("export", game))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="apiary-2024-05-01-{game.public_id[:6]}.json"'
    (exported,) = read_document(json.loads(response.content))
    assert [(p.name, p.entries["farm_income"]) for p in exported.players] == [("Alice", 11), ("Bruno", 0)]
    assert [(change.player, change.entry, change.new) for change in exported.changes] == [(1, "farm_income", "3+6+2")]


@pytest.mark.parametrize("during", [During.TRACK, During.BREAKDOWN])
def test_before_anybody_scores_no_page_crowns_anybody(client, during):
    """A new game's totals are all the game's own (0 on the VP track, the starting VP of the
    breakdown): the results, the pad's ranking and the table's view name no winner, rank nobody,
    and say that the ranking starts with the first value."""
    game = game_started("Ben", "Priya", "Tom", "Olivia", during=during)
    note = "Nobody has entered a value yet: the ranking starts with the first one."

    results = page(client.get(url("results", game)))
    pad = page(client.get(url("pad", game)))
    table = page(client.get(url("table", game)))

    assert results.by_id("winner-heading").text == "No scores yet"
    for html in (results, pad, table):
        assert html.one(class_="not-scored").text == note
        assert not html.find(class_="winner") and not html.find(class_="leading") and not html.find(class_="tie")
        assert "victory" not in html.text
    assert [name.text for name in pad.by_id("ranking").find_all(class_="rank-name")] == [
        "Ben",
        "Priya",
        "Tom",
        "Olivia",
    ]
    assert {rank.text for rank in pad.by_id("ranking").find_all(class_="rank")} == {""}
    save_value(seat=seat_of(game, 3), key="farms", value=2)
    assert page(client.get(url("results", game))).by_id("winner-heading").text == "Tom wins"


def test_the_results_of_a_finished_game_ask_how_long_the_play_lasted(client):
    """Issue 36, point 10: once finished, its owner says how long the play lasted (for BG Stats),
    as the rest of a finished game is theirs to change (issue 47, point 6); an edit or a view
    link's holder reads it; a length no play has is refused under its field."""
    game = shared_victory_game(finished=True)
    form = page(client.get(url("results", game))).one("form", id="play-length")
    assert form["action"] == url("length", game)
    assert form.one("label").text == "How long did you play?"

    refused = client.post(url("length", game), {"minutes": "0"})
    assert refused.status_code == 422
    assert page(refused).one("form", id="play-length").one("input", type="number")["value"] == "0"
    assert page(refused).by_id("id_minutes_error").text == "Type the minutes played: at least 1."

    saved = client.post(url("length", game), {"minutes": "85"})
    assert saved.status_code == 302 and saved["Location"] == url("results", game) + "#play-length"
    assert Game.objects.get(pk=game.pk).play_minutes == 85
    assert page(client.get(url("results", game))).one("input", type="number")["value"] == "85"
    watcher = Client()
    link = link_renew(game=Game.objects.get(pk=game.pk), access="view")
    watcher.get(reverse("scoring:join", args=[link.token]))
    shown = page(watcher.get(url("results", game)))
    assert shown.find("form", id="play-length") is None and "Played in 85 minutes." in shown.text
    mate = Client()
    mate.get(reverse("scoring:join", args=[link_renew(game=Game.objects.get(pk=game.pk), access="edit").token]))
    shown = page(mate.get(url("results", game)))
    assert shown.find("form", id="play-length") is None and "Played in 85 minutes." in shown.text
    assert mate.post(url("length", game), {"minutes": "60"}).status_code == 403
    assert Game.objects.get(pk=game.pk).play_minutes == 85


def test_the_play_length_is_in_the_games_history_and_refused_while_it_is_played(client):
    game = shared_victory_game(finished=True)
    client.post(url("length", game), {"minutes": "85"})

    history = page(client.get(url("pad", game))).by_id("changes")
    assert "Play length: 85 minutes" in history.text

    in_progress = game_started("Alice", "Bruno", owner=game.owner)
    refused = client.post(url("length", in_progress), {"minutes": "85"})
    assert refused.status_code == 409 and "once the game is finished" in refused.content.decode()
    assert Game.objects.get(pk=in_progress.pk).play_minutes is None
