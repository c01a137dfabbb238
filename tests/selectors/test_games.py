"""Specification of the reads of one game (``scoring/selectors/games.py``): the game as the pad,
its poll, a save and its answer read it (``game_state``)."""

from __future__ import annotations

import pytest

from scoring import selectors
from scoring.models import HibernationTokens
from tests.factories import game_started, revision_of, save_tokens

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "sectors", [[], [(12, 6)], [(9, 3), (14, 7), (10, 5), (11, 0)]], ids=["no comb", "one", "four"]
)
def test_the_game_state_holds_every_sector_in_comb_order_and_every_token_entered(sectors, django_assert_num_queries):
    """``selectors.game_state`` reads the seats (with the game's row) and the comb as rows (the
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
        state = selectors.game_state(game)

    assert [(s.pk, s.position, s.first_vp, s.second_vp) for s in state.sectors] == [
        (s.pk, s.position, s.first_vp, s.second_vp) for s in stored
    ]
    assert state.tokens == {
        (t.seat_id, t.sector_id): t.count for t in HibernationTokens.objects.filter(seat__game=game)
    }
    assert [seat.pk for seat in state.seats] == [seat.pk for seat in seats]
    assert state.game.revision == revision_of(game)
