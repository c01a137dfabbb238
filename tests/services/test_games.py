"""Specification of the writes of stored games (``scoring/services/``: ``games.py``,
``imports.py``, ``outcomes.py``, ``locking.py``), called directly:
games started from the start form (``game_create``, ``game_start``) and stored from game-file
data (``game_store``), the comb layouts, the game's lock (``game_lock``), its stored outcomes
recomputed (``game_outcome_recompute``), deleting it (``game_delete``), and an import's batches
(``games_import``) with the fingerprints that tell a game already stored (``Game.fingerprint``).

Every write to an existing game begins with ``game_lock``: a conditional UPDATE that moves the
game's revision on by one (on PostgreSQL the row's lock; on SQLite the transaction already holds
the database's write lock), so the other phones' polls see that something may have changed.
The imports and the change history are specified in ``tests/test_history.py`` and
``tests/test_commands.py``, the people across games in ``tests/test_people.py``, the tallies in
``tests/test_tallies.py``.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import selectors, services
from scoring.categories import CATEGORIES, During
from scoring.engine import Sector
from scoring.gamefile import GameData, PlayerData, game_fingerprint, parse_document
from scoring.models import Change, CombLayout, Game, GameLink, GameSector, HibernationTokens, Seat
from scoring.tallies import tallies_rebuild
from tests.factories import COMB, game_scored, game_started, owner, player, save_value, seat_of, tokens_of
from tests.test_gamefile import DATA

pytestmark = pytest.mark.django_db

NUMBER_KEYS = [category.key for category in CATEGORIES if not category.is_flag]


def revision(game: Game) -> int:
    return Game.objects.values_list("revision", flat=True).get(pk=game.pk)


def outcomes(game: Game) -> list[tuple]:
    return list(Seat.objects.filter(game=game).order_by("number").values_list(*services.OUTCOME_FIELDS))


# ---------------------------------------------------------------------------------------------
# game_create: a new game is empty except the starting VP


def test_game_create_fills_in_the_starting_vp_of_each_seat_and_leaves_every_other_entry_empty():
    game = game_started("Alice", "Bruno", "Carla")

    seats = list(Seat.objects.filter(game=game).order_by("number"))
    assert [seat.starting_vp for seat in seats] == [1, 2, 3]
    for seat in seats:
        assert [getattr(seat, key) for key in NUMBER_KEYS if key != "starting_vp"] == [None] * (len(NUMBER_KEYS) - 1)
        assert seat.hive_mat_full is False  # a yes/no is always answered: no until ticked
        assert seat.active_workers is None
        assert (seat.sums, seat.revisions) == ({}, {})
    assert not HibernationTokens.objects.filter(seat__game=game).exists()  # no token row until a count is entered
    assert revision(game) == 0
    assert game.finished_at is None
    assert not Change.objects.filter(game=game).exists()


def test_game_create_keeps_the_comb_in_order_the_names_trimmed_and_the_game_details():
    game = services.game_create(
        players=[services.PlayerSetup("  Alice "), services.PlayerSetup("Bruno", faction="Ria")],
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

    assert seat_of(game, 1).entries() == {**dict.fromkeys(NUMBER_KEYS, 0), "starting_vp": 1, "hive_mat_full": False}
    assert seat_of(game, 1).workers == 0
    assert tokens_of(game, 1) == [0, 0, 0]
    assert outcomes(game)[0][3] == 1 and outcomes(game)[1][3] == 2  # stored with the game: Bruno leads


# ---------------------------------------------------------------------------------------------
# game_start: the start form


def test_a_solo_game_seats_the_automa_first_and_the_player_second():
    game = services.game_start(
        players=[services.PlayerSetup("Ann")], solo=True, sectors=COMB, owner=owner(), during=During.BREAKDOWN
    )

    seats = list(Seat.objects.filter(game=game).order_by("number"))
    assert [(seat.name, seat.is_automa, seat.starting_vp) for seat in seats] == [("Automa", True, 1), ("Ann", False, 2)]


def test_a_comb_given_a_layout_name_is_saved_as_that_layout_for_next_time():
    services.game_start(
        players=[services.PlayerSetup("Ann")], sectors=[(9, 4), (6, 3)], layout_name=" Base ", owner=owner()
    )
    services.game_start(players=[services.PlayerSetup("Ann")], sectors=[(9, 4)], owner=owner())  # no name: none

    (layout,) = CombLayout.objects.filter(owner=owner())
    assert layout.name == "Base"
    assert list(layout.sectors.order_by("position").values_list("first_vp", "second_vp")) == [(9, 4), (6, 3)]


def test_saving_a_layout_again_under_its_name_replaces_its_sectors():
    services.comb_layout_save(name="Base", sectors=[(9, 4), (6, 3)], owner=owner())

    layout = services.comb_layout_save(name="Base", sectors=[(12, 6)], owner=owner())

    assert CombLayout.objects.filter(owner=owner()).count() == 1
    assert list(layout.sectors.values_list("position", "first_vp", "second_vp")) == [(0, 12, 6)]


# ---------------------------------------------------------------------------------------------
# game_store: game-file data


def test_game_store_stores_the_entries_the_tokens_given_and_the_outcome():
    game = services.game_store(
        GameData(
            players=[
                PlayerData(
                    name="Ann",
                    seat=1,
                    faction="Ria",
                    automa=False,
                    active_workers=2,
                    entries={"farm_income": 12, "hive_mat_full": True},
                    hibernation=[2, 0],
                ),
                PlayerData(name="Ben", seat=2, faction="", automa=False, active_workers=0, entries={"recruits": 3}),
            ],
            comb=[Sector(9, 4), Sector(13, 0)],
        ),
        finished=True,
        owner=owner(),
    )

    ann, ben = Seat.objects.filter(game=game).order_by("number")
    assert (ann.farm_income, ann.hive_mat_full, ann.active_workers, ann.faction) == (12, True, 2, "Ria")
    assert (ben.recruits, ben.active_workers) == (3, 0)
    assert tokens_of(game, 1) == [2, 0]
    assert not HibernationTokens.objects.filter(seat=ben).exists()  # a player with no tokens given has none entered
    assert game.finished_at is not None and revision(game) == 0
    scored = selectors.game_state(game).score()
    assert [row[3] for row in outcomes(game)] == [p.total for p in scored.players]  # the outcome stored with it
    assert scored.players[0].majority_by_sector[0] == 9  # (Ann's tokens count: 1st in sector 1)


def test_games_store_stores_each_games_outcome_and_tallies_as_the_engine_and_a_rebuild_give_them():
    games = services.games_store(parse_document((DATA / "multi_game.json").read_bytes()), finished=True, owner=owner())

    assert [services.game_outcome_recompute(game) for game in games] == [False, False, False]
    assert not tallies_rebuild(owner())


# ---------------------------------------------------------------------------------------------
# games_import and the fingerprints


def document_games(count: int, first_day: int = 1) -> list[GameData]:
    return [
        GameData(
            players=[
                PlayerData(name="Ann", seat=1, faction="", automa=False, active_workers=0, entries={"farms": number})
            ],
            played_on=date(2024, 1, first_day + number % 28),
        )
        for number in range(count)
    ]


def exported(game: Game) -> GameData:
    return selectors.game_data(selectors.games_with_everything().get(pk=game.pk))


def test_a_stored_games_fingerprint_is_the_one_of_its_export():
    games = services.games_store(parse_document((DATA / "multi_game.json").read_bytes()), finished=True, owner=owner())

    assert [Game.objects.get(pk=game.pk).fingerprint for game in games] == [
        game_fingerprint(exported(game)) for game in games
    ]


def test_an_import_stores_the_games_not_stored_yet_in_batches_and_says_what_it_did():
    said = []
    services.games_import(document_games(3), owner=owner())

    result = services.games_import(
        document_games(7), owner=owner(), batch=3, progress=lambda done, total: said.append((done, total))
    )

    assert result == services.ImportResult(added=4, skipped=3)
    assert said == [(3, 7), (6, 7), (7, 7)]
    assert Game.objects.filter(owner=owner()).count() == 7


def test_a_game_held_twice_by_a_document_is_stored_once():
    twice = document_games(2) * 2

    assert services.games_import(twice, owner=owner(), batch=3) == services.ImportResult(added=2, skipped=2)


def test_an_import_looks_the_games_up_without_reading_the_accounts_games_back():
    """Whether the account holds no other game or 60, checking a document costs the same statements:
    the fingerprints are looked up, never computed again from the stored games."""

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            services.games_import(document_games(5, first_day=1), owner=owner())
        Game.objects.filter(owner=owner(), played_on__lt=date(2024, 1, 8)).delete()
        assert not [query for query in queries if query["sql"].startswith('SELECT "scoring_seat"')]
        return len(queries)

    statements()  # (the first import also creates the player Ann, and the account's tallies)
    empty = statements()
    services.games_store(document_games(60, first_day=2), finished=True, owner=owner())

    assert statements() == empty


def test_fingerprints_are_looked_up_a_few_hundred_at_a_time(django_assert_num_queries):
    """(An account of 80,000 games once failed an import of 20,000: "too many SQL variables".)"""
    services.games_store(document_games(2), finished=True, owner=owner())
    asked = [game_fingerprint(data) for data in document_games(2)] + [f"{number:064x}" for number in range(1200)]

    account = owner()

    with django_assert_num_queries(3) as queries:
        found = selectors.fingerprints_stored(account, asked)

    assert found == set(asked[:2])
    # Unordered, so the database looks them up by the (owner, fingerprint) index: ordered as the
    # history is, SQLite walked the owner's games by the history's index instead.
    assert not [query for query in queries.captured_queries if "ORDER BY" in query["sql"]]


def test_a_game_finished_on_the_pad_is_known_to_an_import_of_its_export():
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=4)
    services.game_finish(game=game)

    assert services.games_import([exported(game)], owner=owner()) == services.ImportResult(added=0, skipped=1)


def test_a_game_written_to_since_its_fingerprint_was_kept_is_known_once_an_import_fills_it():
    game = game_scored(player("Alice", farms=2), player("Bruno"), finished=True)
    services.game_reopen(game=game)  # corrected after the game: the fingerprint is forgotten
    save_value(seat=seat_of(game, 1), key="farms", value=5)
    assert Game.objects.get(pk=game.pk).fingerprint is None

    assert services.games_import([exported(game)], owner=owner()) == services.ImportResult(added=0, skipped=1)
    assert Game.objects.get(pk=game.pk).fingerprint == game_fingerprint(exported(game))


def test_filling_the_fingerprints_leaves_a_game_written_to_meanwhile_for_the_next_time(monkeypatch):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=1)
    real_data = selectors.game_data

    def written_to_meanwhile(stored, **kwargs):  # another phone saves while the fingerprint is computed
        services.game_lock(game.pk)
        return real_data(stored, **kwargs)

    monkeypatch.setattr(selectors, "game_data", written_to_meanwhile)
    assert services.fingerprints_fill(owner()) == 0
    monkeypatch.undo()

    assert Game.objects.get(pk=game.pk).fingerprint is None
    assert services.fingerprints_fill(owner()) == 1


# ---------------------------------------------------------------------------------------------
# game_lock


def test_the_lock_moves_the_games_revision_on_by_one_and_says_whether_the_game_is_there():
    game = game_started("Alice", "Bruno")

    assert services.game_lock(game.pk) is True
    assert services.game_lock(game.pk) is True
    assert revision(game) == 2
    assert services.game_lock(game.pk + 1000) is False


def test_the_lock_moves_the_games_revision_and_forgets_its_fingerprint(django_assert_num_queries):
    game = game_scored(player("Alice", farm_income=3), player("Bruno"), finished=True)
    before = Game.objects.values().get(pk=game.pk)

    with django_assert_num_queries(1):
        services.game_lock(game.pk)

    assert before["fingerprint"] is not None
    assert Game.objects.values().get(pk=game.pk) == {**before, "revision": before["revision"] + 1, "fingerprint": None}


# ---------------------------------------------------------------------------------------------
# Outcomes: game_outcome_store and game_outcome_recompute take the game itself


def test_recomputing_a_games_outcome_repairs_it_and_says_whether_it_differed():
    game = game_scored(player("Alice", farm_income=10), player("Bruno", farm_income=3))
    right = outcomes(game)
    Seat.objects.filter(game=game, number=2).update(score_total=99, is_winner=True, rank=1)

    assert services.game_outcome_recompute(game) is True
    assert outcomes(game) == right
    assert services.game_outcome_recompute(game) is False
    assert revision(game) == 2  # it locks the game, as every write does


def test_storing_the_outcome_reads_the_game_as_it_is_stored_not_the_copy_given():
    game = game_started("Alice", "Bruno")
    stale = Game.objects.get(pk=game.pk)
    save_value(seat=seat_of(game, 1), key="farm_income", value=10)
    Seat.objects.filter(game=game).update(score_total=0)

    assert services.game_outcome_store(stale) is True
    assert [row[3] for row in outcomes(game)] == [11, 2]


# ---------------------------------------------------------------------------------------------
# game_delete


def test_deleting_a_game_deletes_everything_of_it_and_nothing_of_another():
    game = game_scored(player("Alice", tokens=[1, 0, 0]), player("Bruno"), finished=True)
    other = game_started("Carla", "Dario")
    save_value(seat=seat_of(game, 1), key="farms", value=3)
    save_value(seat=seat_of(other, 1), key="farms", value=4)
    services.link_renew(game=game, access="edit")

    services.game_delete(game=game)

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
    services.game_delete(game=game)

    services.game_delete(game=stale)

    assert not Game.objects.exists()
