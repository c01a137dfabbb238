"""Specification of the history page: the signed-in user's games, newest first, a page at a
time, searchable by player name and filterable by dates, player count, faction and status, each
filter a link that can be bookmarked; a constant number of queries whatever the number of games.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scoring.models import Game, Seat
from scoring.selectors.history import HISTORY_PAGE_SIZE
from tests.support.factories import game_scored, player
from tests.support.pages import markup

pytestmark = pytest.mark.django_db


def many_games(owner, count: int, start: date = date(2020, 1, 1)) -> None:
    """``count`` two-player games in a few statements (the page only reads games and seats)."""
    games = Game.objects.bulk_create(
        Game(owner=owner, played_on=start + timedelta(days=number)) for number in range(count)
    )
    Seat.objects.bulk_create(
        Seat(game=game, number=number, name=name, name_key=name.casefold(), score_total=number, is_winner=number == 2)
        for game in games
        for number, name in ((1, "Alice"), (2, "Bruno"))
    )


def listed(response) -> list[str]:
    return [entry.game.played_on.isoformat() for entry in response.context["games"]]


@pytest.fixture
def games(owner):
    """Four games of the owner's, and one of somebody else's."""
    game_scored(player("Ann", faction="Ana", farm_income=10), player("Ben"), played_on=date(2024, 1, 5), finished=True)
    game_scored(player("ann"), player("Cid", faction="Iber"), player("Dee"), played_on=date(2024, 2, 5))
    game_scored(player("Eve"), played_on=date(2024, 3, 5), finished=True)
    game_scored(player("Ben", faction="Ana"), player("Cid"), played_on=date(2024, 4, 5), finished=True)
    stranger = User.objects.create_user("stranger", password="x-long-pass-phrase-1")
    game_scored(player("Ann"), played_on=date(2024, 5, 5), owner=stranger)


@pytest.mark.parametrize(
    ("query", "dates"),
    [
        ("", ["2024-04-05", "2024-03-05", "2024-02-05", "2024-01-05"]),
        ("?player=ANN", ["2024-02-05", "2024-01-05"]),
        ("?player=e", ["2024-04-05", "2024-03-05", "2024-02-05", "2024-01-05"]),  # Ben, Eve, Dee: part of a name
        ("?since=2024-02-01&until=2024-03-31", ["2024-03-05", "2024-02-05"]),
        ("?players=3", ["2024-02-05"]),
        ("?players=1", ["2024-03-05"]),
        ("?faction=Ana", ["2024-04-05", "2024-01-05"]),
        ("?status=finished", ["2024-04-05", "2024-03-05", "2024-01-05"]),
        ("?status=in-progress", ["2024-02-05"]),
        ("?faction=Ana&status=finished&player=ben", ["2024-04-05", "2024-01-05"]),
    ],
    ids=[
        "all",
        "name-any-case",
        "part-of-a-name",
        "dates",
        "three-players",
        "solo-count",
        "faction",
        "finished",
        "in-progress",
        "combined",
    ],
)
def test_filters_narrow_the_owners_games_newest_first(client, owner, games, query, dates):
    client.force_login(owner)
    response = client.get(reverse("scoring:history") + query)
    assert response.status_code == 200
    assert listed(response) == dates


def test_each_active_filter_is_a_link_that_removes_it(client, owner, games):
    client.force_login(owner)
    response = client.get(reverse("scoring:history") + "?player=ann&status=finished")
    chips = {chip["label"]: chip["url"] for chip in response.context["chips"]}
    assert chips == {
        "Player: <bdi>ann</bdi>": "?status=finished",
        "Games: Finished": "?player=ann",
    }  # (a name isolated)
    assert 'href="?status=finished"' in markup(response)


@pytest.mark.parametrize(
    ("language", "chips"),
    [
        ("en", ["From: 1\u00a0Mar\u00a02024", "To: 31\u00a0Mar\u00a02024"]),
        ("fr", ["Du\u202f: 1er\u00a0mars\u00a02024", "Au\u202f: 31\u00a0mars\u00a02024"]),
    ],
)
def test_a_periods_chips_write_its_days_as_the_pages_do_never_as_iso_dates(client, owner, games, language, chips):
    """Issue 50: « Du : 2026-01-01 »."""
    client.force_login(owner)
    response = client.get(
        reverse("scoring:history") + "?since=2024-03-01&until=2024-03-31", HTTP_ACCEPT_LANGUAGE=language
    )
    assert [str(chip["label"]) for chip in response.context["chips"]] == chips


def test_an_impossible_period_says_why_and_lists_all_games(client, owner, games):
    client.force_login(owner)
    response = client.get(reverse("scoring:history") + "?since=2024-03-01&until=2024-01-01")
    assert "The end of the period comes before its start." in markup(response)
    assert len(listed(response)) == 4


def test_the_history_comes_a_page_at_a_time_with_links_that_keep_the_filters(client, owner):
    many_games(owner, 45)
    client.force_login(owner)
    first = client.get(reverse("scoring:history") + "?player=alice")
    assert len(listed(first)) == HISTORY_PAGE_SIZE and listed(first)[0] == "2020-02-14"
    assert 'href="?player=alice&amp;page=2"' in markup(first)
    last = client.get(reverse("scoring:history") + "?player=alice&page=3")
    assert listed(last) == [(date(2020, 1, 1) + timedelta(days=n)).isoformat() for n in range(4, -1, -1)]
    assert client.get(reverse("scoring:history") + "?page=99").status_code == 200  # the last page
    huge = client.get(reverse("scoring:history") + "?player=alice&page=461170000000000000")  # found by hypothesis
    assert huge.status_code == 200 and listed(huge) == listed(last)


def test_the_number_of_queries_is_the_same_at_10_and_at_1000_games(client, owner, django_assert_num_queries):
    client.force_login(owner)
    many_games(owner, 10)
    client.get(reverse("scoring:history"))  # the session is read and warmed like any other request
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as at_10:
        client.get(reverse("scoring:history") + "?player=bru&status=in-progress")
    many_games(owner, 990, start=date(2021, 1, 1))
    with django_assert_num_queries(len(at_10)):
        response = client.get(reverse("scoring:history") + "?player=bru&status=in-progress")
    # the games are counted up to ten pages past the one shown: the count reads as many rows at
    # 1,000 games as at 100,000, and the page says so
    assert response.context["page"].paginator.count == 11 * HISTORY_PAGE_SIZE + 1
    assert "More than 220 games" in markup(response)
    assert "Page 1 of 12 or more" in markup(response)
