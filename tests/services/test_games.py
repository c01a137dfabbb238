"""Specification of the writes of a game's life (``scoring/services/games.py``), called directly:
games started from the start form (``game_create``, ``game_start``), the comb layouts kept for
next time (``comb_layout_save``), and deleting a game (``game_delete``).

The game's lock is specified in ``test_locking.py``, games stored from game-file data and the
imports in ``test_imports.py``, the stored outcomes in ``test_outcomes.py``, the pad's saves in
``test_pad.py``; the people across games in ``tests/test_people.py``, the tallies in
``tests/services/test_tallies.py``.
"""

from __future__ import annotations

from datetime import date

import pytest

from scoring.models import Change, CombLayout, Game, GameLink, GameSector, HibernationTokens, Seat
from scoring.rules.categories import CATEGORIES, During
from scoring.services.games import PlayerSetup, comb_layout_save, game_create, game_delete, game_start
from scoring.services.sharing import link_renew, link_revoke
from tests.support.factories import (
    COMB,
    game_scored,
    game_started,
    owner,
    player,
    revision_of,
    save_value,
    seat_of,
    stored_outcomes,
    tokens_of,
)

pytestmark = pytest.mark.django_db

# Every number category of the registry, both ways of counting the during-the-game points.
NUMBER_KEYS_ANY_WAY = [category.key for category in CATEGORIES if not category.is_flag]


# ---------------------------------------------------------------------------------------------
# game_create: a new game is empty except the starting VP


def test_game_create_fills_in_the_starting_vp_of_each_seat_and_leaves_every_other_entry_empty():
    game = game_started("Alice", "Bruno", "Carla")

    seats = list(Seat.objects.filter(game=game).order_by("number"))
    assert [seat.starting_vp for seat in seats] == [1, 2, 3]
    for seat in seats:
        entered = {key: getattr(seat, key) for key in NUMBER_KEYS_ANY_WAY if key != "starting_vp"}
        assert set(entered.values()) == {None}
        assert seat.hive_mat_full is False  # a yes/no is always answered: no until ticked
        assert seat.active_workers is None
        assert (seat.sums, seat.revisions) == ({}, {})
    assert not HibernationTokens.objects.filter(seat__game=game).exists()  # no token row until a count is entered
    assert revision_of(game) == 0
    assert game.finished_at is None
    assert not Change.objects.filter(game=game).exists()


def test_game_create_keeps_the_comb_in_order_the_names_trimmed_and_the_game_details():
    game = game_create(
        players=[PlayerSetup("  Alice "), PlayerSetup("Bruno", faction="Ria")],
        sectors=[(9, 4), (13, 0)],
        played_on=date(2026, 11, 29),
        notes="At Carla's",
        end_trigger_token=6,
        owner=owner(),
    )

    assert list(Seat.objects.filter(game=game).order_by("number").values_list("name", "faction")) == [
        ("Alice", ""),
        ("Bruno", "Ria"),
    ]
    assert list(
        GameSector.objects.filter(game=game).order_by("position").values_list("position", "first_vp", "second_vp")
    ) == [(0, 9, 4), (1, 13, 0)]
    game.refresh_from_db()
    assert (game.played_on, game.notes, game.end_trigger_token, game.owner) == (
        date(2026, 11, 29),
        "At Carla's",
        6,
        owner(),
    )


def test_entries_not_entered_count_as_0_in_every_score():
    game = game_started("Alice", "Bruno")

    counted = {**dict.fromkeys(NUMBER_KEYS_ANY_WAY, 0), "starting_vp": 1, "hive_mat_full": False}
    assert seat_of(game, 1).entries() == counted
    assert seat_of(game, 1).workers == 0
    assert tokens_of(game, 1) == [0, 0, 0]
    assert stored_outcomes(game)[0][3] == 1 and stored_outcomes(game)[1][3] == 2  # stored with the game: Bruno leads


# ---------------------------------------------------------------------------------------------
# game_start: the start form


def test_a_solo_game_seats_the_automa_first_and_the_player_second():
    game = game_start(players=[PlayerSetup("Ann")], solo=True, sectors=COMB, owner=owner(), during=During.BREAKDOWN)

    seats = list(Seat.objects.filter(game=game).order_by("number"))
    assert [(seat.name, seat.is_automa, seat.starting_vp) for seat in seats] == [("Automa", True, 1), ("Ann", False, 2)]


def test_a_comb_given_a_layout_name_is_saved_as_that_layout_for_next_time():
    game_start(players=[PlayerSetup("Ann")], sectors=[(9, 4), (6, 3)], layout_name=" Base ", owner=owner())
    game_start(players=[PlayerSetup("Ann")], sectors=[(9, 4)], owner=owner())  # no name: none

    (layout,) = CombLayout.objects.filter(owner=owner())
    assert layout.name == "Base"
    assert list(layout.sectors.order_by("position").values_list("first_vp", "second_vp")) == [(9, 4), (6, 3)]


def next_game_of(before: Game, *names: str, **keeper) -> Game:
    return game_start(
        players=[PlayerSetup(name) for name in names],
        sectors=COMB,
        after=before,
        **(keeper or {"owner": owner()}),
    )


def test_a_game_started_with_play_again_is_the_next_game_of_the_table_shared_as_it_was():
    """It follows the game played (``played_after``), has a new link of each kind the game played
    had live (a revoked one is not copied), and the game played's revision moves on, so that its
    phones' next poll brings the offer."""
    before = game_started("Ann", "Bob")
    link_renew(game=before, access="edit")
    link_renew(game=before, access="view")
    link_revoke(game=before, access="view")
    revision = revision_of(before)

    game = next_game_of(before, "Bob", "Ann")

    assert Game.objects.get(pk=game.pk).played_after == before
    assert list(GameLink.objects.filter(game=game, revoked_at__isnull=True).values_list("access", flat=True)) == [
        "edit"
    ]
    assert GameLink.objects.get(game=game).token != GameLink.objects.get(game=before, access="edit").token
    assert revision_of(before) == revision + 1


def test_a_game_played_that_was_not_shared_gives_a_next_game_without_links():
    before = game_started("Ann", "Bob")

    game = next_game_of(before, "Bob", "Ann")

    assert game.played_after == before and not GameLink.objects.filter(game=game).exists()


def test_another_keepers_game_is_never_the_game_played_before():
    """(The start form's ``again_of`` is checked as the keeper's too: ``forms.games``.)"""
    before = game_started("Ann", "Bob")
    link_renew(game=before, access="edit")
    revision = revision_of(before)

    game = next_game_of(before, "Bob", "Ann", visitor="another-browser")

    assert game.played_after is None and not GameLink.objects.filter(game=game).exists()
    assert revision_of(before) == revision


def test_deleting_the_game_played_leaves_the_next_game_on_its_own():
    before = game_started("Ann", "Bob")
    game = next_game_of(before, "Bob", "Ann")

    game_delete(game=before)

    assert Game.objects.get(pk=game.pk).played_after is None


def test_saving_a_layout_again_under_its_name_replaces_its_sectors():
    comb_layout_save(name="Base", sectors=[(9, 4), (6, 3)], owner=owner())

    layout = comb_layout_save(name="Base", sectors=[(12, 6)], owner=owner())

    assert CombLayout.objects.filter(owner=owner()).count() == 1
    assert list(layout.sectors.values_list("position", "first_vp", "second_vp")) == [(0, 12, 6)]


# ---------------------------------------------------------------------------------------------
# game_delete


def test_deleting_a_game_deletes_everything_of_it_and_nothing_of_another():
    game = game_scored(player("Alice", tokens=[1, 0, 0]), player("Bruno"), finished=True)
    other = game_started("Carla", "Dario")
    save_value(seat=seat_of(game, 1), key="farms", value=3)
    save_value(seat=seat_of(other, 1), key="farms", value=4)
    link_renew(game=game, access="edit")

    game_delete(game=game)

    assert list(Game.objects.values_list("pk", flat=True)) == [other.pk]
    assert not Seat.objects.filter(game_id=game.pk).exists()
    assert not GameSector.objects.filter(game_id=game.pk).exists()
    assert not HibernationTokens.objects.filter(seat__game_id=game.pk).exists()
    assert not Change.objects.filter(game_id=game.pk).exists()
    assert not GameLink.objects.filter(game_id=game.pk).exists()
    assert Change.objects.filter(game=other).count() == 1 and seat_of(other, 1).farms == 4


def test_deleting_a_game_another_phone_deleted_already_changes_nothing():
    game = game_started("Alice", "Bruno")
    stale = Game.objects.get(pk=game.pk)
    game_delete(game=game)

    game_delete(game=stale)

    assert not Game.objects.exists()
