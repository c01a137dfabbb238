"""Specification of the people across games: a Player record per person per owner, every seat
pointing to its Player, the merge of two records of one person, and the players' pages.

* A seat of a game gets its owner's Player of that name, ignoring case, created when new
  (``services.imports.game_store``: the start form and the imports alike); another owner's "Ann" is
  another person, and the Automa is a record of its own, never a person.
* ``services.people.players_merge`` moves the seats of one record to another and deletes it; it refuses
  the same record, two owners' records, the Automa with a person, and two people of one game.
* The players list (``players/``) and a player's page (``players/<id>/``) show the signed-in
  user's players only, with figures over finished games computed by the database: the number of
  queries does not grow with the number of games.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.actors import Keeper
from scoring.gamefile import GameData, PlayerData
from scoring.models import Player, PlayerTally, Seat, Tally
from scoring.rules.categories import MAJORITY_LABEL, During
from scoring.rules.engine import Sector
from scoring.selectors.games import known_player_names
from scoring.selectors.people import player_page, players_table
from scoring.services.games import PlayerSetup, game_start
from scoring.services.imports import games_store
from scoring.services.people import players_merge
from scoring.tallies import point_parts, row_measures
from tests.support.factories import COMB, NUMBER_KEYS, game_scored, game_started, player, user
from tests.support.pages import Element, page, text_of

pytestmark = pytest.mark.django_db


def player_of(game, number: int) -> Player | None:
    return Seat.objects.select_related("player").get(game=game, number=number).player


def named(name: str, owner) -> Player:
    return Player.objects.get(owner=owner, name_key=name.casefold(), is_automa=False)


def players_url() -> str:
    return reverse("scoring:players")


def player_url(person: Player) -> str:
    return reverse("scoring:player", args=[person.pk])


def merge_url(person: Player) -> str:
    return reverse("scoring:player_merge", args=[person.pk])


# ---------------------------------------------------------------------------------------------
# Every seat points to its person


def test_a_started_game_attaches_each_seat_to_the_owners_player_of_that_name(owner):
    first = game_started("Ann", "Bob")
    second = game_started("ann ", "Cleo")  # another spelling of Ann, and a newcomer

    assert player_of(first, 1) == player_of(second, 1) == named("Ann", owner)
    assert player_of(first, 1).name == "Ann"  # the spelling it was first typed with
    assert player_of(first, 2) == named("Bob", owner)
    assert player_of(second, 2) == named("Cleo", owner)
    assert sorted(Player.objects.filter(owner=owner).values_list("name", flat=True)) == ["Ann", "Bob", "Cleo"]


def test_an_imported_game_attaches_its_seats_the_same_way(owner):
    game_started("Ann")
    data = GameData(
        players=[
            PlayerData(name="ANN", seat=1, faction="", automa=False, active_workers=0, entries={}),
            PlayerData(name="Dora", seat=2, faction="", automa=False, active_workers=0, entries={}),
        ],
        comb=[Sector(9, 4)],
        played_on=date(2024, 1, 1),
    )

    [imported] = games_store([data], owner=owner, finished=True)

    assert player_of(imported, 1) == named("Ann", owner)
    assert player_of(imported, 2) == named("Dora", owner)
    assert Player.objects.filter(owner=owner).count() == 2


def test_another_owners_ann_is_another_person(owner):
    mine = game_started("Ann")
    theirs = game_started("Ann", owner=user("someone-else"))

    assert player_of(mine, 1) != player_of(theirs, 1)
    assert player_of(mine, 1).owner == owner and player_of(theirs, 1).owner == user("someone-else")


def test_the_automa_is_its_own_record_never_a_person_named_automa(owner):
    solo = game_start(players=[PlayerSetup("Ann")], solo=True, sectors=COMB, owner=owner)
    again = game_start(players=[PlayerSetup("Bob")], solo=True, sectors=COMB, owner=owner)
    person = game_started("Automa", "Cleo")  # a person who happens to be called so

    assert player_of(solo, 1).is_automa and player_of(solo, 1) == player_of(again, 1)  # one Automa per owner
    assert not player_of(person, 1).is_automa
    assert player_of(person, 1) != player_of(solo, 1)


def test_a_game_of_nobody_has_no_players():
    game = game_started("Ann", owner=None)

    assert player_of(game, 1) is None
    assert not Player.objects.exists()


def test_the_start_form_suggests_the_users_players_most_games_first_not_the_automa(owner):
    game_started("Bob", "Ann")
    game_started("ann", "Cleo")
    game_start(players=[PlayerSetup("Ann")], solo=True, sectors=COMB, owner=owner)
    game_started("Zed", owner=user("someone-else"))

    assert known_player_names(Keeper(user=owner)) == ["Ann", "Bob", "Cleo"]


# ---------------------------------------------------------------------------------------------
# Merging two records of one person


def test_a_merge_moves_the_seats_and_deletes_the_merged_record(owner):
    first = game_started("Ann", "Bob")
    second = game_started("Annie", "Bob")
    ann, annie = named("Ann", owner), named("Annie", owner)

    kept = players_merge(keep=ann, merged=annie)

    assert kept == ann
    assert player_of(first, 1) == player_of(second, 1) == ann
    assert not Player.objects.filter(pk=annie.pk).exists()
    assert Seat.objects.get(game=second, number=1).name == "Annie"  # the game still shows what was typed
    assert "Annie" not in known_player_names(Keeper(user=owner))


def test_a_merged_name_is_remembered_for_the_next_games(owner, owner_client):
    game_started("Ann", "Bob")
    game_started("Annie", "Bob")
    players_merge(keep=named("Ann", owner), merged=named("Annie", owner))

    later = game_started("ANNIE", "Bob")  # the name merged, in any case, joins the kept player

    assert player_of(later, 1) == named("Ann", owner)
    assert not Player.objects.filter(owner=owner, name_key="annie").exists()
    assert "Also played as Annie." in page(owner_client.get(player_url(named("Ann", owner)))).text


def test_a_players_other_names_follow_them_into_a_merge(owner):
    game_started("Ann", "Bob")
    game_started("Annie", "Bob")
    game_started("Cleo", "Bob")
    players_merge(keep=named("Ann", owner), merged=named("Annie", owner))
    players_merge(keep=named("Cleo", owner), merged=named("Ann", owner))

    assert sorted(named("Cleo", owner).aliases.values_list("name", flat=True)) == ["Ann", "Annie"]
    assert player_of(game_started("Annie", "Bob"), 1) == named("Cleo", owner)

    both = game_started("Annie", "Ann")  # both names are Cleo's, but one person sits once at a game
    assert player_of(both, 1) == named("Cleo", owner)
    assert player_of(both, 2) == named("Ann", owner) and named("Ann", owner) != named("Cleo", owner)


def test_a_merge_refuses_the_same_record(owner):
    game_started("Ann")
    ann = named("Ann", owner)

    with pytest.raises(ValidationError, match="cannot be merged with themselves"):
        players_merge(keep=ann, merged=ann)


def test_a_merge_refuses_two_owners_records(owner):
    game_started("Ann")
    game_started("Ann", owner=user("someone-else"))

    with pytest.raises(ValidationError, match="same account"):
        players_merge(keep=named("Ann", owner), merged=named("Ann", user("someone-else")))
    assert Player.objects.count() == 2


def test_a_merge_refuses_the_automa_with_a_person(owner):
    game_start(players=[PlayerSetup("Ann")], solo=True, sectors=COMB, owner=owner)
    automa = Player.objects.get(owner=owner, is_automa=True)

    with pytest.raises(ValidationError, match="The Automa is not a person"):
        players_merge(keep=named("Ann", owner), merged=automa)
    with pytest.raises(ValidationError, match="The Automa is not a person"):
        players_merge(keep=automa, merged=named("Ann", owner))


def test_a_merge_refuses_two_people_who_played_the_same_game(owner):
    game_started("Ann", "Bob", played_on=date(2024, 3, 1))

    with pytest.raises(ValidationError) as refused:
        players_merge(keep=named("Ann", owner), merged=named("Bob", owner))
    assert (
        text_of(refused.value.messages[0]) == "Ann and Bob played in the same game (1 Mar 2024): they are two people."
    )


# ---------------------------------------------------------------------------------------------
# The statistics, on a small history made by hand
#
#   2024-01-10  Ann 30 (Ria)  wins            Bob 20
#   2024-02-10  Ann 25 (Saha) shared victory  Bob 25          (same active workers)
#   2024-03-10  Ann 10 (Ria)                  Automa 40       (solo)
#   2024-04-10  anne 59 (Ria) wins            Bob 10          ("anne" merged into Ann)
#   in progress Ann 99                        Bob 1           (not counted)


@pytest.fixture
def history(owner):
    game_scored(
        player("Ann", farm_income=30, faction="Ria"),
        player("Bob", farm_income=20),
        played_on=date(2024, 1, 10),
        finished=True,
    )
    game_scored(
        player("Ann", farm_income=17, frames_filled=1, workers=2, faction="Saha"),
        player("Bob", farm_income=25, workers=2),
        played_on=date(2024, 2, 10),
        finished=True,
    )
    game_scored(
        player("Automa", automa=True, farm_income=40),
        player("Ann", farm_income=10, faction="Ria"),
        played_on=date(2024, 3, 10),
        finished=True,
    )
    game_scored(
        player("anne", farm_income=51, hive_mat_full=True, faction="Ria"),
        player("Bob", farm_income=10),
        played_on=date(2024, 4, 10),
        finished=True,
    )
    game_scored(player("Ann", farm_income=99), player("Bob", farm_income=1), played_on=date(2024, 5, 10))
    players_merge(keep=named("Ann", owner), merged=named("anne", owner))
    return named("Ann", owner)


def test_a_players_figures_over_their_finished_games(history):
    figures = player_page(history)

    assert figures.games == 4
    assert figures.wins == 3  # the shared victory counts
    assert figures.win_rate == 75
    assert figures.average == 31.0  # (30 + 25 + 10 + 59) / 4
    assert figures.best == 59
    assert (figures.latest.played_on, figures.latest.total) == (date(2024, 4, 10), 59)
    assert [(point.played_on.isoformat(), point.total, point.winner) for point in figures.scores] == [
        ("2024-01-10", 30, True),
        ("2024-02-10", 25, True),
        ("2024-03-10", 10, False),
        ("2024-04-10", 59, True),
    ]


def test_a_players_average_points_by_category_count_what_was_not_entered_as_0(history):
    averages = {item.label: item.average for item in player_page(history).categories}

    assert averages["Farm income"] == 27.0  # (30 + 17 + 10 + 51) / 4
    assert averages["Frames filled"] == 2.0  # one frame (8 VP) in four games
    assert averages["Hive mat filled"] == 2.0  # filled once (8 VP) in four games
    assert "Starting VP" not in averages  # never entered: no point in it
    assert sum(averages.values()) == 31.0  # the categories make the average total (no comb here)


def test_a_players_averages_by_part_add_up_to_their_average_on_either_way_of_counting(owner):
    """Issue 49: Élodie's averages had no row for the comb's majorities (91.0 against 103.5). Each
    part a total is made of is a row: either way of counting the during-the-game points, every
    category of the breakdown, the faction's ability, the comb."""
    every_number = dict.fromkeys(NUMBER_KEYS, 3)
    game_scored(
        player("Élodie", tokens=[3, 0, 1], faction="Saha", hive_mat_full=True, **every_number),
        player("Bob", tokens=[1, 2, 1], farm_income=20),
        finished=True,
    )
    game_scored(
        player("Élodie", vp_track=61, tokens=[0, 2, 2], faction_ability=7),
        player("Bob", vp_track=50, tokens=[0, 2, 0]),
        during=During.TRACK,
        finished=True,
    )

    for name in ("Élodie", "Bob"):
        measures = row_measures(PlayerTally.objects.get(player=named(name, owner), scope=Tally.Scope.ALL))
        parts = point_parts(measures)
        assert sum(vp for _label, _short, vp in parts) == measures["points"], name
        figures = player_page(named(name, owner))
        shown = {item.label: item.average for item in figures.categories}
        assert {"VP on the track at the end", "Farm income", MAJORITY_LABEL} <= set(shown), name
        # (each row rounded to a tenth on its own: within half a tenth a row of the average)
        assert sum(shown.values()) == pytest.approx(figures.average, abs=0.05 * len(shown)), name
    elodie = {item.label for item in player_page(named("Élodie", owner)).categories}
    assert {"Faction’s endgame ability", "Hive mat filled", "Recruits built"} <= elodie
    bob = {item.label for item in player_page(named("Bob", owner)).categories}
    assert "Recruits built" not in bob  # (a part he never scored a point in: left out)


def test_a_players_factions_played_and_won_with(history):
    factions = [(row.faction, row.played, row.won) for row in player_page(history).factions]

    assert factions == [("Ria", 3, 2), ("Saha", 1, 1)]


def test_a_shared_victory_counts_for_each_winner(history, owner):
    bob = player_page(named("Bob", owner))

    assert (bob.games, bob.wins, bob.win_rate, bob.average, bob.best) == (3, 1, 33, 18.3, 25)


def test_a_player_without_a_finished_game_has_no_figures_yet(owner):
    game_started("Ann")

    figures = player_page(named("Ann", owner))

    assert (figures.games, figures.wins, figures.average, figures.best, figures.latest) == (0, 0, None, None, None)
    assert figures.categories == [] and figures.factions == []


def test_the_players_table_has_a_row_per_person_most_wins_first_without_the_automa(history, owner):
    rows = [(row.name, row.games, row.wins, row.win_rate, row.average, row.best) for row in players_table(owner)]

    assert rows == [("Ann", 4, 3, 75, 31.0, 59), ("Bob", 3, 1, 33, 18.3, 25)]


# ---------------------------------------------------------------------------------------------
# The pages


def table_of(element: Element) -> list[list[str]]:
    """Each row's cells in words; a cell holding a row's short words and its full words a tap
    away, by its short words."""
    return [
        [(cell.find("summary") or cell).text.strip() for cell in row.children if isinstance(cell, Element)]
        for row in element.one("tbody").find_all("tr")
    ]


def test_the_players_list_links_each_name_to_its_page(history, owner_client):
    html = page(owner_client.get(players_url()))

    assert table_of(html.one("table", class_="stats")) == [
        ["Ann", "4", "3 (75%)", "31.0", "59"],
        ["Bob", "3", "1 (33%)", "18.3", "25"],
    ]
    assert [a["href"] for a in html.find_all("a", class_="player-link")] == [
        player_url(history),
        player_url(Player.objects.get(name="Bob")),
    ]


def test_the_player_page_shows_every_figure_with_the_games_behind_it(history, owner_client):
    response = owner_client.get(player_url(history))
    html = page(response)

    assert response.status_code == 200
    figures = {row[0]: row[1] for row in table_of(html.one("table", class_="figures"))}
    assert figures == {
        "Games": "4",
        "Wins": "3",
        "Win rate": "75%",
        "Average": "31.0",
        "Best": "59",
        "Latest": "59 (10 Apr 2024)",
    }
    short_and_full = [
        (row.one("summary").text, row.one("small", class_="help").text)
        for row in html.one("table", class_="categories").find_all("tr")
    ]
    # (the parts Ann scored points in, in the pad's order: no row for the rest)
    assert short_and_full == [
        ("Farm income", "Farm income"),
        ("Hive mat filled", "Hive mat filled"),
        ("Frames filled", "Frames filled"),
    ]
    assert [small.text for small in html.find_all("small", class_="games-behind")] == [
        "from 4 finished games",
        "4 games",
        "from 4 games",
    ]
    categories = dict(map(tuple, table_of(html.one("table", class_="categories"))))
    assert categories["Farm income"] == "27.0" and categories["Frames filled"] == "2.0"
    assert table_of(html.one("table", class_="factions")) == [["Ria", "3", "2"], ["Saha", "1", "1"]]


def test_the_player_page_draws_the_totals_over_time_without_inline_styles(history, owner_client):
    content = owner_client.get(player_url(history)).content.decode()
    chart = page(owner_client.get(player_url(history))).one("svg", class_="score-chart")

    points = chart.one("polyline")["points"].split()
    assert len(points) == 4  # one per finished game, oldest first
    heights = [float(point.split(",")[1]) for point in points]
    assert heights[3] < heights[0] < heights[1] < heights[2]  # 59 highest, then 30, 25, 10 (y grows down)
    assert [circle.one("title").text for circle in chart.find_all("circle")] == [
        "10 Jan 2024: 30 VP (win)",
        "10 Feb 2024: 25 VP (win)",
        "10 Mar 2024: 10 VP",
        "10 Apr 2024: 59 VP (win)",
    ]
    assert not re.search(r"\sstyle=", content)


def test_the_players_pages_are_the_owners_only(history, client, other_user):
    client.force_login(other_user)

    assert client.get(player_url(history)).status_code == 404
    listed = page(client.get(players_url()))
    assert listed.find_all("a", class_="player-link") == []
    assert "Statistics appear here once a game is finished." in listed.one("p", class_="empty").text


def test_the_players_pages_ask_to_sign_in(history, client):
    assert client.get(player_url(history)).status_code == 302
    assert client.get(players_url()).status_code == 302


def test_the_merge_form_offers_the_owners_other_players_and_merges(owner, owner_client):
    game_started("Ann", "Bob")
    game_started("Annie", "Cleo")
    ann, annie = named("Ann", owner), named("Annie", owner)

    form = page(owner_client.get(player_url(ann))).one("form", class_="merge-form")
    assert form["action"] == merge_url(ann)
    assert [option.text for option in form.find_all("option")] == ["Annie", "Bob", "Cleo"]

    response = owner_client.post(merge_url(ann), {"same_as": annie.pk})

    assert response.status_code == 302 and response["Location"] == player_url(ann)
    assert not Player.objects.filter(pk=annie.pk).exists()
    assert Seat.objects.filter(player=ann).count() == 2


def test_the_merge_form_says_why_a_merge_is_refused(owner, owner_client):
    game_started("Ann", "Bob")

    response = owner_client.post(merge_url(named("Ann", owner)), {"same_as": named("Bob", owner).pk})

    assert response.status_code == 400
    assert "played in the same game" in page(response).one("p", class_="error").text
    assert Player.objects.filter(owner=owner).count() == 2


def test_the_merge_takes_only_the_owners_own_players(owner, owner_client, client, other_user):
    game_started("Ann")
    game_started("Ann", owner=other_user)
    mine, theirs = named("Ann", owner), named("Ann", other_user)

    refused = owner_client.post(merge_url(mine), {"same_as": theirs.pk})
    assert refused.status_code == 400
    assert "Choose one of your players." in page(refused).one("p", class_="error").text

    client.force_login(other_user)
    assert client.post(merge_url(mine), {"same_as": theirs.pk}).status_code == 404
    assert Player.objects.count() == 2


# ---------------------------------------------------------------------------------------------
# A constant number of queries


def played_games(owner, count: int, *, start: date) -> None:
    for n in range(count):
        game_scored(
            player("Ann", farm_income=10 + n % 7, faction="Ria"),
            player(f"Guest {n % 4}", farm_income=12),
            played_on=start + timedelta(days=n),
            finished=True,
            owner=owner,
        )


@pytest.mark.parametrize("address", ["list", "page"])
def test_the_number_of_queries_is_the_same_at_3_and_at_30_games(
    owner, owner_client, django_assert_num_queries, address
):
    played_games(owner, 3, start=date(2024, 1, 1))

    target = players_url() if address == "list" else player_url(named("Ann", owner))
    owner_client.get(target)  # the session is read and warmed like any other request
    with CaptureQueriesContext(connection) as at_3:
        owner_client.get(target)
    played_games(owner, 27, start=date(2025, 1, 1))
    with django_assert_num_queries(len(at_3)):
        response = owner_client.get(target)
    assert response.status_code == 200
    if address == "list":
        assert [(row.name, row.games) for row in response.context["players"]][0] == ("Ann", 30)
    else:
        assert response.context["page"].games == 30 and len(response.context["page"].scores) == 30


# ---------------------------------------------------------------------------------------------
# The migration fills the players of the games stored before


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_seat_of_an_owned_game_its_player():
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("scoring", "0006_stored_outcomes")], [("scoring", "0007_players")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User, Game, Seat = (old.get_model(*name.split(".")) for name in ("auth.User", "scoring.Game", "scoring.Seat"))
    ann_owner, other = User.objects.create(username="a"), User.objects.create(username="b")
    first = Game.objects.create(owner=ann_owner, played_on=date(2024, 1, 1))
    second = Game.objects.create(owner=ann_owner, played_on=date(2024, 2, 1))
    theirs = Game.objects.create(owner=other, played_on=date(2024, 1, 1))
    nobodys = Game.objects.create(owner=None, played_on=date(2024, 1, 1))
    for game, number, name, automa in [
        (first, 1, "Ann", False),
        (first, 2, "Automa", True),
        (second, 1, "ANN", False),
        (second, 2, "Automa", True),
        (theirs, 1, "ann", False),
        (nobodys, 1, "Ann", False),
    ]:
        Seat.objects.create(game=game, number=number, name=name, name_key=name.casefold(), is_automa=automa)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    Seat, Player = new.get_model("scoring", "Seat"), new.get_model("scoring", "Player")

    people = {(p.owner.username, p.name, p.is_automa) for p in Player.objects.select_related("owner")}
    assert people == {("a", "Ann", False), ("a", "Automa", True), ("b", "ann", False)}
    assert (
        Seat.objects.filter(game_id=first.pk, number=1).get().player_id
        == Seat.objects.filter(game_id=second.pk, number=1).get().player_id
    )
    assert Seat.objects.get(game_id=nobodys.pk).player_id is None

    executor = MigrationExecutor(connection)  # back to the latest state for the other tests
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes("scoring"))


@pytest.mark.django_db(transaction=True)
def test_the_migration_keys_names_again_without_their_ignorable_characters():
    """ "Ann" typed with a variation selector was another name than "Ann"; now the same one. A
    player whose new key is another player's of the owner keeps its own (no clash: two records
    the owner may merge)."""
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("scoring", "0021_game_played_after")], [("scoring", "0022_name_keys_without_ignorables")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User, Game, Seat, Player = (
        old.get_model(*name.split(".")) for name in ("auth.User", "scoring.Game", "scoring.Seat", "scoring.Player")
    )
    owner_ = User.objects.create(username="a")
    game = Game.objects.create(owner=owner_, played_on=date(2024, 1, 1))
    Seat.objects.create(game=game, number=1, name="Ann\ufe00", name_key="ann\ufe00")
    Seat.objects.create(game=game, number=2, name="\u2764\ufe0f Bo", name_key="\u2764\ufe0f bo")
    Player.objects.create(owner=owner_, name="Ann", name_key="ann")
    Player.objects.create(owner=owner_, name="Ann\ufe00", name_key="ann\ufe00")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    Seat, Player = new.get_model("scoring", "Seat"), new.get_model("scoring", "Player")

    assert sorted(Seat.objects.values_list("name_key", flat=True)) == ["ann", "\u2764 bo"]
    assert sorted(Player.objects.values_list("name_key", flat=True)) == ["ann", "ann\ufe00"]  # (kept: no clash)

    executor = MigrationExecutor(connection)  # back to the latest state for the other tests
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes("scoring"))
