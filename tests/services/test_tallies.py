"""The tallies (scoring.tallies): the sums behind the players list, a player's page and the
statistics follow every change to a finished game by the difference alone, and always equal
what computing them again from the seats gives."""

from __future__ import annotations

import contextlib
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game, OwnerTally, Player, PlayerTally, Seat
from scoring.rules.categories import CATEGORIES, FACTIONS, During
from scoring.selectors.people import CHART_GAMES
from scoring.services.finishing import game_finish, game_reopen
from scoring.services.games import game_delete
from scoring.services.pad import game_mode_change
from scoring.services.people import players_merge
from scoring.services.tallies import tallies_rebuild
from scoring.tallies import MEASURES, seat_measures
from tests.support.factories import game_scored, player, save_value, seat_of, user

pytestmark = pytest.mark.django_db


def rows(model, **where) -> dict:
    """The tally rows as (owner or player name, scope, key): their non-zero measures (and best)."""
    found = {}
    for row in model.objects.filter(**where).select_related(*(["player"] if model is PlayerTally else ["owner"])):
        who = row.player.name if model is PlayerTally else row.owner.username
        measures = {name: getattr(row, name) for name in MEASURES if getattr(row, name)}
        if model is PlayerTally and row.best is not None:
            measures["best"] = row.best
        if measures:
            found[who, row.scope, row.key] = measures
    return found


def ann_row(**where) -> dict:
    return rows(PlayerTally, player__name="Ann", scope="all", **where).get(("Ann", "all", ""), {})


# ---------------------------------------------------------------------------------------------
# What one seat adds


def test_a_seat_adds_its_total_its_win_and_each_categorys_vp(owner):
    game = game_scored(
        player("Ann", farm_income=10, farms=3, hive_mat_full=True, frames_filled=2, faction="Ria"),
        player("Bob", farm_income=4),
        finished=True,
        owner=owner,
    )
    ann = seat_of(game, 1)
    measures = seat_measures(ann)
    assert measures["games"] == 1 and measures["seats"] == 1 and measures["wins"] == 1
    assert measures["points"] == ann.score_total == measures["winner_points"]
    assert measures["vp_farm_income"] == 10 and measures["vp_farms"] == 3
    assert measures["vp_hive_mat_full"] == 8 and measures["vp_frames_filled"] == 16
    bob = seat_measures(seat_of(game, 2))
    assert bob["games"] == 0 and bob["wins"] == 0 and bob["winner_points"] == 0  # a game counts on its seat 1


def test_a_track_games_during_the_game_points_are_one_measure(owner):
    """Statistics count a track game's during-the-game points as one category: the track's."""
    game = game_scored(
        player("Ann", vp_track=57, farms=3), player("Bob", vp_track=40), finished=True, owner=owner, during=During.TRACK
    )
    ann = seat_measures(seat_of(game, 1))
    assert (ann["vp_vp_track"], ann["vp_farms"], ann["points"]) == (57, 3, 60)
    assert all(ann[f"vp_{key}"] == 0 for key in ("starting_vp", "farm_income", "seed_card_benefits"))
    assert ann_row()["vp_vp_track"] == 57


def test_a_game_in_progress_adds_nothing_until_it_is_finished(owner):
    game = game_scored(player("Ann", farm_income=10, faction="Ria"), player("Bob", farm_income=4), owner=owner)
    assert not OwnerTally.objects.exists() and not PlayerTally.objects.exists()
    assert Seat.objects.filter(game=game, tallied__isnull=False).count() == 0
    game_finish(game=game)
    assert rows(OwnerTally)[owner.username, "all", ""] == {
        "games": 1,
        "seats": 2,
        "wins": 1,
        "points": 14,
        "winner_points": 10,
        "vp_farm_income": 14,
    }
    assert rows(OwnerTally)[owner.username, "faction", "Ria"]["wins"] == 1
    assert rows(OwnerTally)[owner.username, "seat", "2"] == {"seats": 1, "points": 4, "vp_farm_income": 4}
    assert ann_row() == {
        "seats": 1,
        "wins": 1,
        "points": 10,
        "winner_points": 10,
        "games": 1,
        "vp_farm_income": 10,
        "best": 10,
    }
    game_finish(game=game)  # finishing again counts nothing twice
    assert rows(OwnerTally)[owner.username, "all", ""]["games"] == 1


def corrected(game, number: int, key: str, value) -> None:
    """A finished game corrected as its owner does: reopened (it leaves the tallies), the value
    saved, and the game finished again (it counts again, as corrected)."""
    game_reopen(game=game)
    save_value(seat=seat_of(game, number), key=key, value=value)
    game_finish(game=game)


def test_a_reopened_game_leaves_the_tallies_until_it_is_finished_again(owner):
    game = game_scored(player("Ann", farm_income=30), finished=True, owner=owner)
    counted = ann_row()
    game_reopen(game=game)
    assert ann_row().get("games", 0) == 0
    assert not tallies_rebuild()
    game_finish(game=game)
    assert ann_row() == counted
    assert not tallies_rebuild()


def test_a_correction_after_the_game_moves_the_tallies_by_the_difference(owner):
    game = game_scored(player("Ann", farm_income=30), player("Bob", farm_income=20), finished=True, owner=owner)
    corrected(game, 1, "farm_income", 10)  # Ann now loses to Bob
    assert ann_row() == {"seats": 1, "games": 1, "points": 10, "vp_farm_income": 10, "best": 10}
    bob = rows(PlayerTally, player__name="Bob")["Bob", "all", ""]
    assert bob["wins"] == 1 and bob["winner_points"] == 20 and bob["best"] == 20
    assert not tallies_rebuild()  # nothing to put right


def test_the_best_total_goes_down_when_the_best_game_is_corrected(owner):
    best = game_scored(player("Ann", farm_income=50), finished=True, owner=owner)
    game_scored(player("Ann", farm_income=30), finished=True, owner=owner)
    assert ann_row()["best"] == 50
    corrected(best, 1, "farm_income", 20)
    assert ann_row()["best"] == 30
    game_delete(game=Game.objects.get(seats__score_total=30))
    assert ann_row()["best"] == 20


def test_deleting_a_finished_game_takes_it_out(owner):
    kept = game_scored(player("Ann", farm_income=5, faction="Ria"), finished=True, owner=owner)
    gone = game_scored(player("Ann", farm_income=9, faction="Ana"), finished=True, owner=owner)
    game_delete(game=gone)
    assert rows(OwnerTally)[owner.username, "all", ""]["games"] == 1
    assert ("Ann", "faction", "Ana") not in rows(PlayerTally)
    assert ann_row()["points"] == seat_of(kept, 1).score_total


def test_merging_two_players_adds_their_tallies_together(owner):
    game_scored(player("Ann", farm_income=5, faction="Ria"), finished=True, owner=owner)
    game_scored(player("Annie", farm_income=9, faction="Ria"), player("Bob"), finished=True, owner=owner)
    keep, merged = Player.objects.get(name="Ann"), Player.objects.get(name="Annie")
    players_merge(keep=keep, merged=merged)
    assert ann_row() == {
        "seats": 2,
        "games": 2,
        "wins": 2,
        "points": 14,
        "winner_points": 14,
        "vp_farm_income": 14,
        "best": 9,
    }
    assert rows(PlayerTally)["Ann", "faction", "Ria"]["seats"] == 2
    assert not tallies_rebuild()


def test_the_games_of_nobody_and_the_automa(owner):
    game_scored(player("Ann", farm_income=5), finished=True, owner=None)  # a game from before accounts
    assert not OwnerTally.objects.exists() and not PlayerTally.objects.exists()
    game_scored(player("Ann", farm_income=5), player("Automa", automa=True, farm_income=9), finished=True, owner=owner)
    automa = Player.objects.get(is_automa=True)
    assert PlayerTally.objects.get(player=automa, scope="all").wins == 1


# ---------------------------------------------------------------------------------------------
# Whatever happens, the kept tallies equal the ones computed again from the seats

OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("play"), st.integers(1, 4), st.booleans(), st.integers(0, 40), st.sampled_from(During)),
        st.tuples(st.just("finish"), st.integers(0, 9)),
        st.tuples(
            st.just("correct"),
            st.integers(0, 9),
            st.integers(0, 3),
            st.sampled_from(
                ["farm_income", "carvings", "hive_mat_full", "frames_filled", "recruits", "vp_track", "starting_vp"]
            ),
            st.integers(-5, 20),
        ),
        st.tuples(st.just("count during the game"), st.integers(0, 9), st.sampled_from(During)),
        st.tuples(st.just("delete"), st.integers(0, 9)),
        st.tuples(st.just("merge"), st.sampled_from(["Ann", "Bob", "Cid"]), st.sampled_from(["Ann", "Bob", "Cid"])),
    ),
    min_size=3,
    max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_after_any_changes_the_tallies_equal_the_ones_computed_again(owner, operations):
    names = ["Ann", "Bob", "Cid", "Dee"]
    for operation in operations:
        games = list(Game.objects.filter(owner=owner).order_by("pk"))
        match operation:
            case ("play", count, finished, farms, during):
                key = "vp_track" if during is During.TRACK else "farm_income"
                game_scored(
                    *(
                        player(names[n], **{key: (farms * (n + 1)) % 31}, faction=FACTIONS[(farms + n) % 4])
                        for n in range(count)
                    ),
                    finished=finished,
                    owner=owner,
                    during=during,
                )
            case ("finish", index) if games:
                game_finish(game=games[index % len(games)])
            case ("correct", index, number, key, value) if games:
                seats = list(games[index % len(games)].seats.order_by("number"))
                category = next(c for c in CATEGORIES if c.key == key)
                value = bool(value % 2) if category.is_flag else min(max(value, category.minimum), category.maximum)
                save_value(seat=seats[number % len(seats)], key=key, value=value)
            case ("count during the game", index, during) if games:
                with contextlib.suppress(ValidationError):  # (a way holding values is kept: nothing changes)
                    game_mode_change(game=games[index % len(games)], during=during)
            case ("delete", index) if games:
                game_delete(game=games[index % len(games)])
            case ("merge", keep, merged) if keep != merged:
                people = {person.name: person for person in Player.objects.filter(owner=owner)}
                if keep in people and merged in people:
                    # (two people of one game are refused: nothing changes)
                    with contextlib.suppress(ValidationError):
                        players_merge(keep=people[keep], merged=people[merged])
    kept = rows(OwnerTally), rows(PlayerTally)
    assert not tallies_rebuild(), "the kept tallies differ from the ones computed again"
    assert (rows(OwnerTally), rows(PlayerTally)) == kept
    Game.objects.all().delete()
    Player.objects.all().delete()
    OwnerTally.objects.all().delete()


def test_a_tampered_tally_is_put_right_by_recompute_outcomes(owner, capsys):
    game_scored(player("Ann", farm_income=5), finished=True, owner=owner)
    PlayerTally.objects.filter(scope="all").update(points=999, best=999)
    call_command("recompute_outcomes")
    assert "were different and are now right" in capsys.readouterr().out
    assert ann_row()["points"] == 5 and ann_row()["best"] == 5
    call_command("recompute_outcomes")
    assert "The tallies (players’ and statistics’ figures) were right." in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# The migration that made the tallies fills them for the games stored before


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_tallies_of_the_games_already_stored():
    from django.db.migrations.executor import MigrationExecutor

    ann = user("ann")
    game_scored(player("Ann", farm_income=5, faction="Ria"), player("Bob", farm_income=3), finished=True, owner=ann)
    game_scored(player("Ann", farm_income=1), player("Bob", farm_income=3), owner=ann)  # in progress
    expected = rows(OwnerTally), rows(PlayerTally)
    executor = MigrationExecutor(connection)
    executor.migrate([("scoring", "0008_history_index")])  # the tallies are gone
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert (rows(OwnerTally), rows(PlayerTally)) == expected
    assert Seat.objects.filter(tallied__isnull=False).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_migration_of_the_vp_track_keeps_every_stored_game_a_breakdown_and_brings_the_tallies_up_to_date():
    """Every game stored before keeps the breakdown it was scored with (its outcome unchanged);
    a new game counts the VP track; every finished seat's ``tallied`` has the track's measure (0),
    so a rebuild afterwards finds nothing to put right."""
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("scoring", "0015_games_of_visitors")], [("scoring", "0016_game_during_mode_and_vp_track")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User, Game, Seat, OldOwnerTally = (
        old.get_model(*name.split(".")) for name in ("auth.User", "scoring.Game", "scoring.Seat", "scoring.OwnerTally")
    )
    ann = User.objects.create(username="ann")
    game = Game.objects.create(owner=ann, public_id="migrated", finished_at="2026-11-29T21:00Z")
    Seat.objects.create(
        game=game,
        number=1,
        name="Ann",
        name_key="ann",
        starting_vp=1,
        farm_income=9,
        score_during=10,
        score_total=10,
        tallied={"seats": 1, "points": 10},
    )
    OldOwnerTally.objects.create(owner=ann, scope="all", key="", seats=1, points=10, vp_farm_income=9)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    Game, Seat = new.get_model("scoring", "Game"), new.get_model("scoring", "Seat")

    migrated = Game.objects.get(public_id="migrated")
    assert migrated.during_mode == "breakdown"
    assert Game.objects.create(owner_id=ann.pk, public_id="new").during_mode == "track"
    seat = Seat.objects.get(game=migrated)
    assert (seat.starting_vp, seat.farm_income, seat.vp_track, seat.score_total) == (1, 9, None, 10)
    assert seat.tallied["vp_vp_track"] == 0 and seat.tallied["vp_farm_income"] == 9

    executor = MigrationExecutor(connection)  # back to the latest state for the other tests
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes("scoring"))


# ---------------------------------------------------------------------------------------------
# The pages that read the tallies cost the same queries at 10 and at 1,000 games


def games_in_bulk(owner, count: int, start: int) -> None:
    """``count`` finished three-player games stored at once (as the benchmark stores them), then
    the tallies computed from them."""
    names = ["Ann", "Bob", "Cid", "Dee"]
    people = {person.name: person for person in Player.objects.filter(owner=owner)}
    for name in names:
        if name not in people:
            people[name] = Player.objects.create(owner=owner, name=name)
    games = Game.objects.bulk_create(
        Game(owner=owner, played_on=date(2020, 1, 1) + timedelta(days=n), finished_at="2020-01-01T00:00Z")
        for n in range(start, start + count)
    )
    Seat.objects.bulk_create(
        Seat(
            game=game,
            number=number,
            name=names[(n + number) % 4],
            name_key=names[(n + number) % 4].casefold(),
            player=people[names[(n + number) % 4]],
            faction=FACTIONS[n % 5],
            farm_income=n % 30,
            score_total=n % 30,
            rank=number,
            is_winner=number == 1,
        )
        for game, n in zip(games, range(start, start + count), strict=True)
        for number in (1, 2, 3)
    )
    tallies_rebuild(owner)


@pytest.mark.parametrize("page", ["history", "history searched", "players", "a player", "statistics"])
def test_the_pages_cost_the_same_queries_at_10_and_at_200_games(client, owner, page):
    """200 games: ten pages of the history, more than a player's chart shows (an N+1 would show
    as 190 more statements)."""
    client.force_login(owner)
    games_in_bulk(owner, 10, 0)
    address = {
        "history": reverse("scoring:history"),
        "history searched": reverse("scoring:history") + "?player=an&faction=Ana&players=3",
        "players": reverse("scoring:players"),
        "a player": reverse("scoring:player", args=[Player.objects.get(name="Ann").pk]),
        "statistics": reverse("scoring:statistics"),
    }[page]
    client.get(address)  # the session is read and warmed like any other request
    with CaptureQueriesContext(connection) as at_10:
        client.get(address)
    games_in_bulk(owner, 190, 10)
    with CaptureQueriesContext(connection) as at_200:
        response = client.get(address)
    assert response.status_code == 200
    assert len(at_200) == len(at_10), [query["sql"][:120] for query in at_200.captured_queries]
    if page == "statistics":
        assert response.context["stats"].games == 200
    if page == "a player":
        assert response.context["page"].games == 150
        assert len(response.context["page"].scores) == CHART_GAMES
        assert "the latest 50 of 150 games" in response.content.decode()
        latest = Game.objects.filter(seats__player__name="Ann").order_by("-played_on").first()
        assert response.context["page"].latest.played_on == latest.played_on
