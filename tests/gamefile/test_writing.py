"""Specification of writing a game file (``scoring.gamefile.writing``): what ``export_games`` and
*Your data* write, read back as it was."""

from __future__ import annotations

from scoring.gamefile import (
    GameData,
    dump_document,
    parse_document,
    read_document,
    to_json,
)
from tests.gamefile.documents import (
    ALL_ENTRY_KEYS,
    DATA,
    VP_KEYS_DURING,
    example_document,
)


def test_dump_writes_every_key_players_in_seat_order():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    document = dump_document(games)
    assert (document["format"], document["version"], len(document["games"])) == ("apiary-scorepad", 1, 3)
    first = document["games"][0]
    assert [p["name"] for p in first["players"]] == ["Bob", "Automa", "Zoé"]
    for game in document["games"]:
        for player in game["players"]:
            assert list(player["during"]) == list(VP_KEYS_DURING)
            assert set(player["end"]) == set(ALL_ENTRY_KEYS) - set(VP_KEYS_DURING)
            assert len(player["hibernation"]) == len(game["comb"])
            assert isinstance(player["automa"], bool)
    assert document["games"][1]["players"][3]["hibernation"] == [0]  # Dee: left out, written as no tokens


def test_example_dumps_back_to_itself():
    assert dump_document(parse_document((DATA / "example.json").read_bytes())) == example_document()


def test_dump_then_read_gives_the_same_games():
    games = parse_document((DATA / "multi_game.json").read_bytes())
    text = to_json(dump_document(games))
    assert parse_document(text) == games
    assert to_json(dump_document(parse_document(text))) == text


def test_the_plays_length_is_written_when_the_table_said_it_and_read_back():
    (game,) = parse_document((DATA / "example.json").read_bytes())
    assert "play_minutes" not in dump_document([game])["games"][0]

    game.play_minutes = 85
    written = dump_document([game])

    assert written["games"][0]["play_minutes"] == 85
    assert parse_document(to_json(written)) == [game]


def test_dump_of_a_game_without_a_date_leaves_played_on_out():
    (game,) = parse_document((DATA / "example.json").read_bytes())
    document = dump_document([GameData(players=game.players, comb=game.comb)])
    assert "played_on" not in document["games"][0]
    assert read_document(document)[0].played_on is None
