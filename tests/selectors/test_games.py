"""Specification of the reads of one game (``scoring/selectors/games.py``): the game as the pad,
its poll, a save and its answer read it (``game_state``)."""

from __future__ import annotations

import pytest

from scoring.models import HibernationTokens
from scoring.rules.categories import During
from scoring.selectors.games import game_played_next, game_state, seat_of_same_player
from scoring.services.games import PlayerSetup, game_start
from tests.support.factories import game_started, owner, revision_of, save_tokens, save_value, save_workers

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "sectors", [[], [(12, 6)], [(9, 3), (14, 7), (10, 5), (11, 0)]], ids=["no comb", "one", "four"]
)
def test_the_game_state_holds_every_sector_in_comb_order_and_every_token_entered(sectors, django_assert_num_queries):
    """``selectors.games.game_state`` reads the seats (with the game's row) and the comb as rows (the
    sectors joined to their tokens): the same sectors and tokens as the tables hold, sectors
    nobody has tokens in included, in two statements."""
    game = game_started("Ann", "Bob", "Cid", sectors=sectors)
    seats = list(game.seats.order_by("number"))
    stored = list(game.sectors.order_by("position"))
    for number, (seat, sector) in enumerate(zip(seats, stored[::2], strict=False), start=2):
        save_tokens(seat=seat, sector=sector, count=number)
    if stored:
        save_tokens(seat=seats[0], sector=stored[-1], count=1)

    with django_assert_num_queries(2):
        state = game_state(game)

    assert [(s.pk, s.position, s.first_vp, s.second_vp) for s in state.sectors] == [
        (s.pk, s.position, s.first_vp, s.second_vp) for s in stored
    ]
    assert state.tokens == {
        (t.seat_id, t.sector_id): t.count for t in HibernationTokens.objects.filter(seat__game=game)
    }
    assert [seat.pk for seat in state.seats] == [seat.pk for seat in seats]
    assert state.game.revision == revision_of(game)


@pytest.mark.parametrize(
    ("entered", "started"),
    [
        pytest.param({}, False, id="a-new-breakdown-game-its-starting-vp-filled-in"),
        pytest.param({"starting_vp": 1}, False, id="the-starting-vp-typed-as-the-game-filled-it-in"),
        pytest.param({"starting_vp": 4}, True, id="the-starting-vp-changed"),
        pytest.param({"farms": 0}, True, id="a-0-entered"),
        pytest.param({"hive_mat_full": True}, True, id="a-yes-ticked"),
        pytest.param({"workers": 0}, True, id="active-workers"),
        pytest.param({"tokens": 0}, True, id="a-token-count-of-0"),
    ],
)
def test_anything_entered_tells_a_value_a_player_entered_from_the_games_own_start(entered, started):
    game = game_started("Ann", "Bob", sectors=[(9, 4)])
    seat = game.seats.get(number=1)
    for key, value in entered.items():
        if key == "workers":
            save_workers(seat=seat, workers=value)
        elif key == "tokens":
            save_tokens(seat=seat, sector=game.sectors.get(), count=value)
        else:
            save_value(seat=seat, key=key, value=value)

    assert game_state(game).anything_entered() is started


def test_a_new_vp_track_game_has_nothing_entered():
    assert game_state(game_started("Ann", "Bob", during=During.TRACK)).anything_entered() is False


def test_the_next_game_of_a_table_is_the_latest_started_after_it():
    before = game_started("Ann", "Bob")
    assert game_played_next(before) is None
    started = [
        game_start(players=[PlayerSetup("Bob"), PlayerSetup("Ann")], after=before, owner=owner()) for _ in range(2)
    ]

    assert game_played_next(before) == started[-1]


@pytest.mark.parametrize(
    ("was_on", "found"),
    [(1, 2), (2, 1), (3, None), (None, None), (0, None)],
    ids=["first", "second", "no longer plays", "not said", "everyone"],
)
def test_the_same_player_is_found_in_their_new_seat_by_name(was_on, found):
    """As the history matches names (``Seat.name_key``: "BOB" is Bob)."""
    before = game_started("Ann", "Bob", "Cid")
    game = game_started("BOB", "ann", "Dora")

    seat = seat_of_same_player(was_on, before, game)

    assert (seat.number if seat else None) == found
