"""Specification of a finished game as a play for BG Stats (``scoring.presenters.bgstats``): the address of
the results' *Log this play in BG Stats*, read back as BG Stats reads it (the JSON of its ``data``
parameter): who played and how they did, when the play ended and how long it lasted, and who
each player is from one play to the next, without a number of our database."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime, timedelta
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.utils import translation

from scoring.models import Change, Game, GameEvent, Player, Seat
from scoring.presenters import bgstats
from scoring.presenters.board import Scoreboard
from scoring.selectors.changes import play_facts
from scoring.selectors.games import game_data, game_state, games_with_everything
from scoring.services.finishing import game_finish, game_reopen, play_length_set
from scoring.services.imports import games_store
from scoring.services.people import players_merge
from scoring.services.visitors import visitor_games_claim
from tests.support.factories import game_scored, player, save_value, seat_of, user
from tests.support.pages import shared_victory_game

pytestmark = pytest.mark.django_db


def link_of(game: Game) -> str:
    return bgstats.play_link(Scoreboard(game_state(game)), play_facts(game))


def play_of(link: str) -> dict:
    """The play a link carries, decoded as BG Stats decodes it."""
    address = urlsplit(link)
    assert f"{address.scheme}://{address.netloc}{address.path}" == "https://app.bgstatsapp.com/createPlay.html"
    query = parse_qs(address.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    return json.loads(query["data"][0])


def played(game: Game, *, first_entry: datetime | None, finished: datetime) -> Game:
    """The game as a table played it: its first value entered at ``first_entry`` (none: nothing
    entered on the pad) and finished at ``finished``."""
    if first_entry is not None:
        save_value(seat=seat_of(game, 1), key="farms", value=3)
        Change.objects.filter(game=game).update(at=first_entry)
    Game.objects.filter(pk=game.pk).update(finished_at=finished)
    game.refresh_from_db()
    return game


EVENING = datetime(2024, 5, 1, 19, 47, 13, 600_000, tzinfo=UTC)  # the finish of a game played on 2024-05-01


def every_category(name: str, **fields) -> object:
    """A player who scored in every category of the breakdown: the longest comments."""
    return player(
        name,
        starting_vp=5,
        explore_tokens=12,
        farm_income=20,
        comb_pods=9,
        hive_build_bonuses=8,
        advance_strength4=6,
        explore_strength4=6,
        tile_abilities=7,
        seed_card_benefits=5,
        planted_seed_cards=30,
        farms=12,
        recruits=20,
        developments=20,
        carvings=-3,
        queens_favor=17,
        hive_mat_full=True,
        frames_filled=3,
        faction_ability=22,
        workers=2,
        tokens=[2, 1, 1],
        **fields,
    )


def test_a_shared_victory_is_one_play_with_both_winners_on_first_place():
    game = shared_victory_game(finished=True)  # Alice and Bruno: 26 VP and 2 active workers each

    play = play_of(link_of(game))

    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Alice", 26, 1, True),
        ("Bruno", 26, 1, True),
        ("Carla", 18, 3, False),
    ]


def test_the_play_is_apiary_on_the_day_played_from_this_app_with_our_game_as_its_id():
    game = shared_victory_game(finished=True)

    play = play_of(link_of(game))

    assert play["sourceName"] == "Apiary Scorepad"
    assert play["game"] == {"name": "Apiary", "sourceGameId": "apiary", "bggId": 400314}
    assert play["sourcePlayId"] == game.public_id


# ---------------------------------------------------------------------------------------------
# When the play ended, and how long it lasted


def test_the_play_ended_when_the_game_was_finished_in_utc_to_the_second():
    paris = datetime(2024, 5, 1, 21, 47, 13, 600_000, tzinfo=ZoneInfo("Europe/Paris"))  # 19:47:13.6 UTC
    game = played(shared_victory_game(), first_entry=None, finished=paris)

    assert play_of(link_of(game))["playDate"] == "2024-05-01 19:47:13"


def test_a_game_finished_past_midnight_ended_then():
    game = played(shared_victory_game(), first_entry=None, finished=datetime(2024, 5, 2, 0, 40, tzinfo=UTC))

    assert play_of(link_of(game))["playDate"] == "2024-05-02 00:40:00"


def test_a_game_reopened_to_be_corrected_ended_when_the_table_first_finished_it():
    game = played(shared_victory_game(), first_entry=EVENING - timedelta(minutes=70), finished=EVENING)
    Game.objects.filter(pk=game.pk).update(finished_at=None)
    game_finish(game=game)  # the table finishes at EVENING (set below) ...
    game_reopen(game=game)
    save_value(seat=seat_of(game, 2), key="farms", value=5)  # ... and someone corrects a value two hours later
    game_finish(game=game)
    first, again = GameEvent.objects.filter(game=game, what=GameEvent.What.FINISHED).order_by("pk")
    GameEvent.objects.filter(pk=first.pk).update(at=EVENING)
    later = EVENING + timedelta(hours=2)
    GameEvent.objects.filter(pk=again.pk).update(at=later)
    Change.objects.filter(game=game, seat__number=2).update(at=later - timedelta(minutes=1))
    Game.objects.filter(pk=game.pk).update(finished_at=later)
    game.refresh_from_db()

    play = play_of(link_of(game))

    assert (play["playDate"], play["durationMin"]) == ("2024-05-01 19:47:13", 70)


def test_a_game_finished_days_after_its_date_sends_the_day_alone_at_noon_utc():
    """An imported game is finished when it is imported: only its day is known, and noon UTC is
    that day wherever the player's phone is."""
    game = shared_victory_game(finished=True)  # dated 2024-05-01, finished (imported) now

    play = play_of(link_of(game))

    assert play["playDate"] == "2024-05-01 12:00:00"
    assert "durationMin" not in play


def test_the_play_lasted_from_the_first_value_entered_to_the_finish_in_whole_minutes():
    game = played(
        shared_victory_game(), first_entry=EVENING - timedelta(hours=1, minutes=23, seconds=40), finished=EVENING
    )

    assert play_of(link_of(game))["durationMin"] == 84  # 83 min 40 s (and a fraction)


@pytest.mark.parametrize(
    ("length", "minutes"),
    [
        (timedelta(minutes=20), 20),
        (timedelta(hours=6), 360),  # the shortest and the longest sent
        (timedelta(minutes=19, seconds=59), None),  # the scoring seen, not the game
        (timedelta(hours=6, seconds=1), None),  # a game left open
        (timedelta(minutes=-5), None),  # a value entered after the finish only (a correction)
    ],
    ids=["20 min", "6 h", "under 20 min", "over 6 h", "after the finish"],
)
def test_a_length_no_game_of_apiary_takes_is_left_out(length, minutes):
    game = played(shared_victory_game(), first_entry=EVENING - length, finished=EVENING)

    assert play_of(link_of(game)).get("durationMin") == minutes
    assert (timedelta(minutes=20), timedelta(hours=6)) == bgstats.PLAUSIBLE_LENGTH


def test_the_length_the_table_said_is_sent_whatever_the_pad_saw():
    """Issue 36, point 10: a table types its values after the game, so the pad sees minutes of
    scoring, not the game: the length the table gives on the results is the play's."""
    game = played(shared_victory_game(), first_entry=EVENING - timedelta(minutes=6), finished=EVENING)
    assert "durationMin" not in play_of(link_of(game))

    play_length_set(game=game, minutes=95)

    assert play_of(link_of(game))["durationMin"] == 95


def test_a_game_with_no_value_entered_on_the_pad_has_no_length():
    game = played(shared_victory_game(), first_entry=None, finished=EVENING)

    assert "durationMin" not in play_of(link_of(game))


def test_seat_one_is_the_start_player():
    play = play_of(link_of(shared_victory_game(finished=True)))

    assert [p["startPlayer"] for p in play["players"]] == [True, False, False]


def test_a_faction_is_the_players_role():
    play = play_of(link_of(shared_victory_game(finished=True)))  # Alice plays Saha

    assert [p.get("role") for p in play["players"]] == ["Saha", None, None]


def test_the_comments_give_each_players_points_by_category_one_line_each():
    play = play_of(link_of(shared_victory_game(finished=True)))

    assert play["comments"].split("\n") == [
        "Alice: Farm income 20, Comb majorities 6",
        "Bruno: Farm income 20, Comb majorities 6",
        "Carla: Farm income 5, Comb majorities 13",
    ]


def test_a_negative_category_is_written_with_a_true_minus_sign():
    game = game_scored(player("Alice", farm_income=20, carvings=-3), player("Bruno", farm_income=9), finished=True)

    play = play_of(link_of(game))

    assert play["comments"].split("\n")[0] == "Alice: Farm income 20, Carvings \u22123"


def test_the_comments_are_in_the_pages_language():
    with translation.override("fr"):
        play = play_of(link_of(shared_victory_game(finished=True)))

    assert play["comments"].split("\n")[0] == "Alice\u202f: Revenus des Fermes 20, Majorités des secteurs 6"


# ---------------------------------------------------------------------------------------------
# Who each player is, from one play to the next

NAME_ID = re.compile(r"name-[0-9a-f]{12}")  # a digest of the name: neither the name nor the row's number


def ids_of(game: Game) -> dict[str, str]:
    return {p["name"]: p["sourcePlayerId"] for p in play_of(link_of(Game.objects.get(pk=game.pk)))["players"]}


def test_a_player_of_an_accounts_games_is_the_same_player_in_every_play():
    first = shared_victory_game(finished=True)
    second = game_scored(player("Carla", farm_income=9), player("alice", farm_income=3), finished=True)

    ids = {**ids_of(first), **ids_of(second)}

    assert ids["alice"] == ids["Alice"]
    assert len({ids["Alice"], ids["Bruno"], ids["Carla"]}) == 3
    assert all(NAME_ID.fullmatch(player_id) for player_id in ids.values())
    assert not any(name.casefold() in player_id for name, player_id in ids.items())


def test_a_players_id_is_the_same_before_and_after_an_account_claims_the_games_and_after_an_import():
    """Issue 49, point 6: the host's plays logged before they made an account (``name-…``) and
    after (``player-…``, a record's random id) did not match the same people in BG Stats."""
    visitor = "v" * 32
    game = game_scored(player("Élodie", farm_income=9), player("Bruno"), finished=True, visitor=visitor)
    before = ids_of(game)

    visitor_games_claim(visitor=visitor, user=user("host"))
    claimed = ids_of(game)
    (imported,) = games_store([game_data(games_with_everything().get(pk=game.pk))], finished=True, owner=user("friend"))

    assert claimed == before == ids_of(imported)


def test_the_seats_of_a_name_merged_into_a_person_are_that_persons():
    first = game_scored(player("Anne", farm_income=9), player("Bruno"), finished=True)
    second = game_scored(player("Ann", farm_income=9), player("Bruno"), finished=True)
    owner = Seat.objects.get(game=first, number=1).player.owner

    players_merge(
        keep=Player.objects.get(owner=owner, name_key="ann"), merged=Player.objects.get(owner=owner, name_key="anne")
    )

    assert ids_of(first)["Anne"] == ids_of(second)["Ann"]


def test_a_visitors_player_is_known_by_name_from_one_play_to_the_next():
    first = game_scored(player("Dana", farm_income=9), player("Eli"), finished=True, visitor="v" * 32)
    second = game_scored(player("eli"), player("DANA"), finished=True, visitor="v" * 32)

    ids = [[p["sourcePlayerId"] for p in play_of(link_of(game))["players"]] for game in (first, second)]

    assert ids[0] == list(reversed(ids[1]))
    assert ids[0][0] != ids[0][1]
    assert all(player_id.startswith("name-") and "dana" not in player_id for player_id in ids[0])


def test_a_game_in_progress_is_no_play_to_log():
    assert link_of(shared_victory_game()) == ""


@pytest.mark.parametrize(
    ("language", "legend", "line"),
    [
        ("en", "Starting VP,Explore tokens,Farm income,", "Anna: 5,12,20,9,8,6,6,7,5,30,12,20,20,\u22123,17,8,24,22,"),
        (  # (not "1,5", which French reads as one and a half)
            "fr",
            "PV de départ;Jetons Exploration;Revenus des Fermes;",
            "Anna\u202f: 5;12;20;9;8;6;6;7;5;30;12;20;20;\u22123;",
        ),
    ],
)
def test_five_players_with_factions_and_every_category_keep_the_breakdown_as_a_table_within_the_length(
    language, legend, line
):
    """Issue 36, point 10: a French link of five players carried no points by category (its lines
    were longer than the address may be, and the breakdown was dropped). Too long as a line each,
    the breakdown is a table: the categories named once, each player’s VP in that order, each
    figure as the language reads it apart from the next (issue 50), a negative one with its minus;
    the address measured as it is sent (percent-encoded)."""
    names, factions = ("Anna", "Bert", "Cleo", "Dirk", "Elsa"), ("Saha", "Pomon", "Ria", "Sime", "Utel")
    game = game_scored(*[every_category(n, faction=f) for n, f in zip(names, factions, strict=True)], finished=True)

    with translation.override(language):
        link = link_of(game)

    assert len(link) <= bgstats.MAX_LENGTH == 2000
    play = play_of(link)
    assert [(p["name"], p["role"]) for p in play["players"]] == list(zip(names, factions, strict=True))
    legend_line, *lines = play["comments"].split("\n")
    assert legend_line.startswith(legend) and len(lines) == 5
    assert lines[0].startswith(line)


def test_a_play_too_long_even_as_a_table_leaves_the_factions_out_never_a_player_nor_the_breakdown():
    names = [f"{name} with a name as long as the pad takes"[:40] for name in ("Anna", "Bert", "Cleo", "Dirk", "Elsa")]
    greek = "Η φατρία των μελισσών του γαλαξία μας εδώ"[:40]  # two bytes a letter: six characters encoded
    game = game_scored(*[every_category(name, faction=greek) for name in names], finished=True)

    play = play_of(link_of(game))

    assert [p["name"] for p in play["players"]] == names
    assert [p.get("role") for p in play["players"]] == [None] * 5
    assert [line.split(":")[0] for line in play["comments"].split("\n")[1:]] == names


def test_accented_names_are_sent_as_typed():
    game = game_scored(
        player("Zoé", farm_income=9), player("Ådne & Łucja", farm_income=3), finished=True, played_on=date(2025, 1, 31)
    )

    play = play_of(link_of(game))

    assert [p["name"] for p in play["players"]] == ["Zoé", "Ådne & Łucja"]
    assert play["playDate"] == "2025-01-31 12:00:00"


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_player_stored_before_a_public_id_of_their_own():
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("scoring", "0016_game_during_mode_and_vp_track")], [("scoring", "0018_player_public_id_unique")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User, OldPlayer = old.get_model("auth", "User"), old.get_model("scoring", "Player")
    ann = User.objects.create(username="ann")
    for name in ("Ann", "Ben", "Cleo"):
        OldPlayer.objects.create(owner=ann, name=name, name_key=name.casefold())

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    ids = list(new.get_model("scoring", "Player").objects.values_list("public_id", flat=True))

    assert len(set(ids)) == 3
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", public_id) for public_id in ids)  # 96 random bits

    executor = MigrationExecutor(connection)  # back to the latest state for the other tests
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes("scoring"))
