"""Specification of a finished game as a play for BG Stats (``scoring.bgstats``): the address of
the results' *Log this play in BG Stats*, read back as BG Stats reads it (the JSON of its ``data``
parameter)."""

from __future__ import annotations

import json
from datetime import date
from urllib.parse import parse_qs, urlsplit

import pytest
from django.utils import translation

from scoring import bgstats, selectors
from scoring.models import Game, Seat
from scoring.scoreboard import Scoreboard
from tests.factories import game_scored, player
from tests.views.helpers import shared_victory_game

pytestmark = pytest.mark.django_db


def link_of(game: Game) -> str:
    return bgstats.play_link(Scoreboard(selectors.game_state(game)))


def play_of(link: str) -> dict:
    """The play a link carries, decoded as BG Stats decodes it."""
    address = urlsplit(link)
    assert f"{address.scheme}://{address.netloc}{address.path}" == "https://app.bgstatsapp.com/createPlay.html"
    query = parse_qs(address.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    return json.loads(query["data"][0])


def every_category(name: str, **fields) -> object:
    """A player who scored in every category of the breakdown: the longest comments."""
    return player(name, starting_vp=5, explore_tokens=12, farm_income=20, comb_pods=9, hive_build_bonuses=8,
                  advance_strength4=6, explore_strength4=6, tile_abilities=7, seed_card_benefits=5,
                  planted_seed_cards=30, farms=12, recruits=20, developments=20, carvings=-3, queens_favor=17,
                  hive_mat_full=True, frames_filled=3, faction_ability=22, workers=2, tokens=[2, 1, 1], **fields)


def test_a_shared_victory_is_one_play_with_both_winners_on_first_place():
    game = shared_victory_game(finished=True)  # Alice and Bruno: 26 VP and 2 active workers each

    play = play_of(link_of(game))

    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Alice", 26, 1, True), ("Bruno", 26, 1, True), ("Carla", 18, 3, False),
    ]


def test_the_play_is_apiary_on_the_day_played_from_this_app_with_our_game_as_its_id():
    game = shared_victory_game(finished=True)

    play = play_of(link_of(game))

    assert play["sourceName"] == "Apiary Scorepad"
    assert play["game"] == {"name": "Apiary", "sourceGameId": "apiary", "bggId": 400314}
    assert play["sourcePlayId"] == game.public_id
    assert play["playDate"] == "2024-05-01 12:00:00"  # the day played, at noon UTC: that day everywhere


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


def test_the_comments_are_in_the_pages_language():
    with translation.override("fr"):
        play = play_of(link_of(shared_victory_game(finished=True)))

    assert play["comments"].split("\n")[0] == "Alice\u202f: Revenus des Fermes 20, Majorités des secteurs 6"


def test_a_player_of_an_accounts_games_is_the_same_player_in_every_play():
    first = shared_victory_game(finished=True)
    second = game_scored(player("Carla", farm_income=9), player("alice", farm_income=3), finished=True)

    ids = {p["name"]: p["sourcePlayerId"] for game in (first, second) for p in play_of(link_of(game))["players"]}

    carla = Seat.objects.get(game=first, number=3).player
    assert ids["Carla"] == f"player-{carla.pk}"
    assert ids["alice"] == ids["Alice"]
    assert len({ids["Alice"], ids["Bruno"], ids["Carla"]}) == 3


def test_a_visitors_player_is_known_by_name_from_one_play_to_the_next():
    first = game_scored(player("Dana", farm_income=9), player("Eli"), finished=True, visitor="v" * 32)
    second = game_scored(player("eli"), player("DANA"), finished=True, visitor="v" * 32)

    ids = [[p["sourcePlayerId"] for p in play_of(link_of(game))["players"]] for game in (first, second)]

    assert ids[0] == list(reversed(ids[1]))
    assert ids[0][0] != ids[0][1]
    assert all(player_id.startswith("name-") and "dana" not in player_id for player_id in ids[0])


def test_a_game_in_progress_is_no_play_to_log():
    assert link_of(shared_victory_game()) == ""


def test_five_players_with_long_names_and_factions_stay_within_the_length_without_the_comments():
    first_names = ("Anna", "Bert", "Cleo", "Dirk", "Elsa")
    names = [f"{name} with a name as long as the pad takes"[:40] for name in first_names]
    factions = [f"The faction of {name}, as long as it may be"[:40] for name in first_names]
    game = game_scored(*[every_category(name, faction=faction) for name, faction in zip(names, factions)],
                       finished=True)

    link = link_of(game)

    assert len(link) <= bgstats.MAX_LENGTH == 2000
    play = play_of(link)
    assert [(p["name"], p["role"], p["rank"], p["winner"]) for p in play["players"]] == [
        (name, faction, 1, True) for name, faction in zip(names, factions)
    ]
    assert len({p["score"] for p in play["players"]}) == 1
    assert "comments" not in play


def test_a_play_too_long_even_without_comments_leaves_the_factions_out_never_a_player():
    names = [f"{name} with a name as long as the pad takes"[:40] for name in ("Anna", "Bert", "Cleo", "Dirk", "Elsa")]
    greek = "Η φατρία των μελισσών του γαλαξία μας εδώ"[:40]  # two bytes a letter: six characters encoded
    game = game_scored(*[every_category(name, faction=greek) for name in names], finished=True)

    link = link_of(game)

    assert len(link) <= bgstats.MAX_LENGTH
    play = play_of(link)
    assert [p["name"] for p in play["players"]] == names
    assert [p.get("role") for p in play["players"]] == [None] * 5


def test_accented_names_are_sent_as_typed():
    game = game_scored(player("Zoé", farm_income=9), player("Ådne & Łucja", farm_income=3), finished=True,
                       played_on=date(2025, 1, 31))

    play = play_of(link_of(game))

    assert [p["name"] for p in play["players"]] == ["Zoé", "Ådne & Łucja"]
    assert play["playDate"] == "2025-01-31 12:00:00"
