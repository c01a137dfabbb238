"""Specification of games stored from game-file data (``scoring/services/imports.py``), called
directly: one game (``game_store``) and many (``games_store``), an import's batches
(``games_import``), and the fingerprints that tell a game already stored (``Game.fingerprint``,
``fingerprints_fill``). The import's pages and command are specified in ``tests/views/test_transfer.py``
and ``tests/management/test_commands.py``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.gamefile import GameData, PlayerData, dump_document, game_fingerprint, parse_document, to_json
from scoring.models import Game, HibernationTokens, Seat
from scoring.rules.engine import Sector
from scoring.selectors.games import game_data, game_state, games_with_everything
from scoring.selectors.imports import fingerprints_stored
from scoring.services import imports as imports_services
from scoring.services.finishing import game_finish, game_reopen
from scoring.services.imports import ImportResult, fingerprints_fill, game_store, games_import, games_store
from scoring.services.locking import game_lock
from scoring.services.outcomes import game_outcome_recompute
from scoring.services.tallies import tallies_rebuild
from tests.gamefile.documents import DATA
from tests.support.factories import (
    game_scored,
    game_started,
    owner,
    player,
    revision_of,
    save_value,
    seat_of,
    stored_outcomes,
    tokens_of,
    user,
)

pytestmark = pytest.mark.django_db

# ---------------------------------------------------------------------------------------------
# game_store: game-file data


def test_game_store_stores_the_entries_the_tokens_given_and_the_outcome():
    game = game_store(
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
    assert game.finished_at is not None and revision_of(game) == 0
    scored = game_state(game).score()
    assert [row[3] for row in stored_outcomes(game)] == [p.total for p in scored.players]  # the outcome stored with it
    assert scored.players[0].majority_by_sector[0] == 9  # (Ann's tokens count: 1st in sector 1)


def test_games_store_stores_each_games_outcome_and_tallies_as_the_engine_and_a_rebuild_give_them():
    games = games_store(parse_document((DATA / "multi_game.json").read_bytes()), finished=True, owner=owner())

    assert [game_outcome_recompute(game) for game in games] == [False, False, False]
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
    return game_data(games_with_everything().get(pk=game.pk))


def test_a_stored_games_fingerprint_is_the_one_of_its_export():
    games = games_store(parse_document((DATA / "multi_game.json").read_bytes()), finished=True, owner=owner())

    assert [Game.objects.get(pk=game.pk).fingerprint for game in games] == [
        game_fingerprint(exported(game)) for game in games
    ]


def test_an_import_stores_the_games_not_stored_yet_in_batches_and_says_what_it_did():
    said = []
    games_import(document_games(3), owner=owner())

    result = games_import(
        document_games(7), owner=owner(), batch=3, progress=lambda done, total: said.append((done, total))
    )

    assert result == ImportResult(added=4, skipped=3)
    assert said == [(3, 7), (6, 7), (7, 7)]
    assert Game.objects.filter(owner=owner()).count() == 7


def test_a_game_held_twice_by_a_document_is_stored_once():
    twice = document_games(2) * 2

    assert games_import(twice, owner=owner(), batch=3) == ImportResult(added=2, skipped=2)


def test_an_import_looks_the_games_up_without_reading_the_accounts_games_back():
    """Whether the account holds no other game or 60, checking a document costs the same statements:
    the fingerprints are looked up, never computed again from the stored games."""

    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            games_import(document_games(5, first_day=1), owner=owner())
        Game.objects.filter(owner=owner(), played_on__lt=date(2024, 1, 8)).delete()
        assert not [query for query in queries if query["sql"].startswith('SELECT "scoring_seat"')]
        return len(queries)

    statements()  # (the first import also creates the player Ann, and the account's tallies)
    empty = statements()
    games_store(document_games(60, first_day=2), finished=True, owner=owner())

    assert statements() == empty


def test_fingerprints_are_looked_up_a_few_hundred_at_a_time(django_assert_num_queries):
    """(An account of 80,000 games once failed an import of 20,000: "too many SQL variables".)"""
    games_store(document_games(2), finished=True, owner=owner())
    asked = [game_fingerprint(data) for data in document_games(2)] + [f"{number:064x}" for number in range(1200)]

    account = owner()

    with django_assert_num_queries(3) as queries:
        found = fingerprints_stored(account, asked)

    assert found == set(asked[:2])
    # Unordered, so the database looks them up by the (owner, fingerprint) index: ordered as the
    # history is, SQLite walked the owner's games by the history's index instead.
    assert not [query for query in queries.captured_queries if "ORDER BY" in query["sql"]]


def test_a_game_keeps_its_own_times_through_its_file():
    """Issue 49, point 5: a game finished at 22:20:57 came back from its file as played at the
    import's 22:30:59. Its start, its finish and its length go out in the file and come back."""
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=4)
    game_finish(game=game)
    started, finished = datetime(2026, 11, 29, 20, 2, 11, tzinfo=UTC), datetime(2026, 11, 29, 21, 20, 57, tzinfo=UTC)
    Game.objects.filter(pk=game.pk).update(created_at=started, finished_at=finished, play_minutes=75)
    data = exported(Game.objects.get(pk=game.pk))

    (back,) = games_store([parse_document(to_json(dump_document([data])))[0]], finished=True, owner=user("other"))

    back.refresh_from_db()
    assert (back.created_at, back.finished_at, back.play_minutes) == (started, finished, 75)


def test_a_file_without_times_gives_its_games_the_imports_and_a_start_no_later_than_the_finish():
    finished = datetime(2026, 11, 29, 21, 20, 57, tzinfo=UTC)
    with_a_finish = GameData(players=[PlayerData(name="Alice", seat=1)], finished_at=finished)
    without = GameData(players=[PlayerData(name="Alice", seat=1)])
    before = timezone.now()

    first, second = games_store([with_a_finish, without], finished=True, owner=owner())

    first.refresh_from_db()
    second.refresh_from_db()
    assert first.created_at == first.finished_at == finished
    assert before <= second.created_at <= second.finished_at <= timezone.now()


def test_a_game_finished_on_the_pad_is_known_to_an_import_of_its_export():
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=4)
    game_finish(game=game)

    assert games_import([exported(game)], owner=owner()) == ImportResult(added=0, skipped=1)


def test_a_game_written_to_since_its_fingerprint_was_kept_is_known_once_an_import_fills_it():
    game = game_scored(player("Alice", farms=2), player("Bruno"), finished=True)
    game_reopen(game=game)  # corrected after the game: the fingerprint is forgotten
    save_value(seat=seat_of(game, 1), key="farms", value=5)
    assert Game.objects.get(pk=game.pk).fingerprint is None

    assert games_import([exported(game)], owner=owner()) == ImportResult(added=0, skipped=1)
    assert Game.objects.get(pk=game.pk).fingerprint == game_fingerprint(exported(game))


def test_filling_the_fingerprints_leaves_a_game_written_to_meanwhile_for_the_next_time(monkeypatch):
    game = game_started("Alice", "Bruno")
    save_value(seat=seat_of(game, 1), key="farms", value=1)
    real_data = game_data

    def written_to_meanwhile(stored, **kwargs):  # another phone saves while the fingerprint is computed
        game_lock(game.pk)
        return real_data(stored, **kwargs)

    monkeypatch.setattr(imports_services, "game_data", written_to_meanwhile)
    assert fingerprints_fill(owner()) == 0
    monkeypatch.undo()

    assert Game.objects.get(pk=game.pk).fingerprint is None
    assert fingerprints_fill(owner()) == 1
