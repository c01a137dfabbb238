"""Specification of *Play again* (``scoring.rules.play_again``): the next game of the same table, worked
out from a finished game's seats and comb alone (no database: the rows are built in memory). How
the start form shows it and who may ask for it is ``tests/views/test_games.py``; the table's whole
way from the results to the next pad, ``tests/browser/test_play_again.py``."""

from __future__ import annotations

import pytest

from scoring.models import Game, GameSector, Seat
from scoring.rules.categories import During
from scoring.rules.play_again import NextGame, next_game, seats_moved_on


def next_game_of(
    *names: str, automa_first: bool = False, sectors=((9, 4), (13, 0)), during=During.TRACK, end_trigger_token: int = 6
) -> NextGame:
    """The next game of a game of these seats (the Automa first if told), its seats and comb
    handed over in any order."""
    game = Game(during_mode=during.value, end_trigger_token=end_trigger_token)
    seats = [
        Seat(game=game, number=number, name=name, is_automa=automa_first and number == 1)
        for number, name in enumerate(names, start=1)
    ]
    comb = [
        GameSector(game=game, position=position, first_vp=first, second_vp=second)
        for position, (first, second) in enumerate(sectors)
    ]
    return next_game(reversed(seats), reversed(comb), during=game.during, end_trigger_token=game.end_trigger_token)


@pytest.mark.parametrize(
    ("names", "moved"),
    [
        (["Alice", "Bruno"], ["Bruno", "Alice"]),
        (["Alice", "Bruno", "Carla"], ["Bruno", "Carla", "Alice"]),
        (["A", "B", "C", "D", "E"], ["B", "C", "D", "E", "A"]),
    ],
)
def test_everyone_moves_on_one_seat_the_second_player_first_and_the_first_player_last(names, moved):
    assert seats_moved_on(names) == moved


def test_the_next_game_is_the_same_table_moved_on_with_the_same_comb_way_of_counting_and_end():
    upcoming = next_game_of("Alice", "Bruno", "Carla", during=During.BREAKDOWN, end_trigger_token=7)

    assert upcoming == NextGame(
        players=("Bruno", "Carla", "Alice"),
        solo=False,
        sectors=((9, 4), (13, 0)),
        during=During.BREAKDOWN,
        end_trigger_token=7,
        first="Bruno",
        last="Alice",
    )


def test_a_solo_game_is_played_again_by_the_same_player_the_automa_keeping_seat_one():
    upcoming = next_game_of("Automa", "Alice", automa_first=True)

    assert (upcoming.players, upcoming.solo, upcoming.first, upcoming.last) == (("Alice",), True, "", "")


def test_a_game_of_one_player_without_the_automa_has_no_seat_to_move_on_to():
    upcoming = next_game_of("Alice")

    assert (upcoming.players, upcoming.solo, upcoming.first, upcoming.last) == (("Alice",), False, "", "")


def test_a_game_without_a_comb_is_played_again_without_one():
    assert next_game_of("Alice", "Bruno", sectors=()).sectors == ()
