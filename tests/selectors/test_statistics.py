"""Specification of the overall statistics (``selectors.statistics.overall_statistics``): over the user's
finished games, the average winning score, each category's share of all points and the win
rate by faction and by seat, each with the number behind it; computed in the database."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scoring.rules.categories import MAJORITY_LABEL, During
from scoring.selectors.statistics import overall_statistics
from tests.support.factories import game_scored, player
from tests.support.pages import markup

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(owner):
    # Ann 10 + 8 (hive mat) = 18, Ben 6: Ann wins (seat 1, Ana).
    game_scored(
        player("Ann", faction="Ana", farm_income=10, hive_mat_full=True),
        player("Ben", faction="Iber", farm_income=6),
        sectors=[],
        finished=True,
    )
    # A shared victory: both 12 VP and 2 workers (seat 1 Iber and seat 2 Ana both win).
    game_scored(
        player("Ben", faction="Iber", recruits=12, workers=2),
        player("Ann", faction="Ana", recruits=12, workers=2),
        sectors=[],
        finished=True,
    )
    # In progress: never counted.
    game_scored(player("Ann", farm_income=500), sectors=[])
    # Another user's finished game: never counted.
    game_scored(
        player("Zed", farm_income=99),
        sectors=[],
        finished=True,
        owner=User.objects.create_user("zed", password="a-long-pass-phrase-2"),
    )


def test_the_figures_of_a_small_history(owner, history):
    stats = overall_statistics(owner)
    assert stats.games == 2
    assert stats.average_winning_score == 14.0  # winners: 18, 12 and 12
    shares = {share.label: (share.vp, share.percent) for share in stats.shares}
    assert shares["Farm income"] == (16, 33.3)  # of 48 VP in all
    assert shares["Recruits built"] == (24, 50.0)
    assert shares["Hive mat filled"] == (8, 16.7)
    assert MAJORITY_LABEL not in shares  # (no point on the comb here: issue 49, no "0 / 0.0%" row)
    assert len(shares) == 3
    assert sum(share.vp for share in stats.shares) == 48
    assert [(r.label, r.seats, r.wins, r.percent) for r in stats.by_faction] == [("Ana", 2, 2, 100), ("Iber", 2, 1, 50)]
    assert [(r.label, r.seats, r.wins) for r in stats.by_seat] == [("1", 2, 2), ("2", 2, 1)]


def test_the_statistics_page_shows_them_and_the_games_behind(client, owner, history, django_assert_max_num_queries):
    client.force_login(owner)
    with django_assert_max_num_queries(8):  # session, user, and four aggregates whatever the history
        response = client.get(reverse("scoring:statistics"))
    html = markup(response)
    assert response.status_code == 200
    assert "From 2 finished games." in html and "14.0\u00a0VP" in html


def test_without_finished_games_the_page_says_so(client, owner):
    client.force_login(owner)
    assert "Statistics appear here once a game is finished." in markup(client.get(reverse("scoring:statistics")))


def test_a_track_games_during_the_game_points_are_one_category_beside_the_breakdowns(owner):
    """A breakdown game counts its sources apart; a VP-track game counts its during-the-game
    points as one category, the track's; the end of the game counts the same either way."""
    game_scored(
        player("Ann", starting_vp=1, farm_income=10, farms=4), player("Ben", starting_vp=2), sectors=[], finished=True
    )
    game_scored(
        player("Ann", vp_track=30, farms=2), player("Ben", vp_track=27), sectors=[], finished=True, during=During.TRACK
    )

    shares = {share.label: share.vp for share in overall_statistics(owner).shares}

    assert shares["VP on the track at the end"] == 57
    assert (shares["Starting VP"], shares["Farm income"], shares["Farms built"]) == (3, 10, 6)
    assert sum(shares.values()) == 1 + 10 + 4 + 2 + 30 + 2 + 27
