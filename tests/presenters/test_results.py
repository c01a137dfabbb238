"""Specification of the results in figures (``scoring/presenters/results.py``): the standings'
words as the table's view says them, following the ranking and its tie-break."""

from __future__ import annotations

import pytest

from scoring.presenters.board import Scoreboard
from scoring.presenters.results import standings
from scoring.selectors.games import game_state
from tests.support.factories import game_scored, game_started, player

pytestmark = pytest.mark.django_db


def words_of(game) -> list[tuple[str, str, str]]:
    """Each player of the standings: name, rank, and where they stand in words."""
    board = Scoreboard(game_state(game))
    return [(view.name, view.rank_label, said) for view, said in standings(board)]


@pytest.mark.parametrize(
    ("players", "said"),
    [
        pytest.param(
            [player("Olivia", farm_income=20, workers=3), player("Priya", farm_income=20, workers=1)],
            [("Olivia", "1st", "leads on the tie-break"), ("Priya", "2nd", "tied on VP, 2nd on the tie-break")],
            id="a-tie-broken-by-workers",
        ),
        pytest.param(
            [player("Olivia", farm_income=20, workers=2), player("Priya", farm_income=20, workers=2)],
            [("Olivia", "1st", "shares the lead"), ("Priya", "1st", "shares the lead")],
            id="a-shared-lead",
        ),
        pytest.param(
            [
                player("Ann", farm_income=20, workers=3),
                player("Ben", farm_income=20, workers=1),
                player("Cid", farm_income=20, workers=1),
                player("Dee", farm_income=5),
            ],
            [
                ("Ann", "1st", "leads on the tie-break"),
                ("Ben", "2nd", "tied on VP, 2nd on the tie-break"),
                ("Cid", "2nd", "tied on VP, 2nd on the tie-break"),
                ("Dee", "4th", "15\u00a0VP behind"),
            ],
            id="a-leader-on-the-tie-break-and-two-level-behind-it",
        ),
        pytest.param(
            [player("Olivia", farm_income=30), player("Priya", farm_income=20)],
            [("Olivia", "1st", "leads by 10\u00a0VP"), ("Priya", "2nd", "10\u00a0VP behind")],
            id="a-lead-on-vp",
        ),
    ],
)
def test_the_standings_words_follow_the_ranking_and_its_tie_break(players, said):
    assert words_of(game_scored(*players, sectors=())) == said


def test_before_anybody_scores_the_standings_say_nothing_and_rank_nobody():
    assert words_of(game_started("Ann", "Ben", "Cid", sectors=())) == [
        ("Ann", "", ""),
        ("Ben", "", ""),
        ("Cid", "", ""),
    ]
