"""Specification of the three game-file commands (``docs/game-file.md``).

``score_game FILE`` prints the scores and stores nothing; ``import_games FILE --owner USERNAME``
stores every game of a valid document, as games of that account, or none;
``export_games [--output FILE] [--owner USERNAME]`` writes every stored game (or one account's), and
export -> import into an empty database -> export gives the same document. The documents come
from ``tests/gamefile/documents.py`` and ``tests/data``.

The games are imported for the account of ``tests/support/factories.py`` (``OWNER``), which every test
here has (``owner``). The commands run as real processes (their exit status and streams, and
every command's ``--help`` in the shell's language) are in ``tests/management/test_command_processes.py``.
"""

from __future__ import annotations

import io
import json
import sys
from datetime import date
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.gamefile import dump_document, parse_document
from scoring.models import Game, GameSector, HibernationTokens, Seat
from scoring.rules.categories import During
from tests.gamefile.documents import (
    DATA,
    EXAMPLE_SCORE,
    INVALID_DOCUMENTS,
    LONE_SURROGATE_NAME,
    MULTI_SCORE,
    P0,
    SECOND_GAME_INVALID,
    SECOND_GAME_INVALID_PATH,
    THREE_ERROR_PATHS,
    THREE_ERRORS,
    UNREADABLE_DOCUMENTS,
    example_document,
    format_md_json_blocks,
    without,
    without_times,
)
from tests.support.factories import OWNER, game_scored, player, save_tokens, user, value_corrected

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("owner")]

PROJECT_ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = DATA / "example.json"
MULTI = DATA / "multi_game.json"
AS_OWNER = ("--owner", OWNER)  # the games imported belong to the tests' owner


def owner_args(command: str) -> tuple[str, ...]:
    """What a command needs besides its file: import_games, the account the games will belong to."""
    return AS_OWNER if command == "import_games" else ()


def run(command: str, *args: str) -> tuple[str, str]:
    """Run a command through call_command; return what it wrote to stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    call_command(command, *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_failing(command: str, *args: str) -> tuple[str, str]:
    """Run a command that must fail; return its error message and what it wrote to stdout."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(command, *args, stdout=out, stderr=err)
    return str(caught.value), out.getvalue()


def write(tmp_path: Path, content: str | bytes, name: str = "games.json") -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(data)))


def names_path(message: str, path: str) -> bool:
    """The error message has a line naming exactly this path (``  games[0].players[0].name: ...``)."""
    return any(line.strip().startswith(f"{path}: ") for line in message.splitlines())


def nothing_stored() -> bool:
    return (
        Game.objects.count(),
        GameSector.objects.count(),
        Seat.objects.count(),
        HibernationTokens.objects.count(),
    ) == (0, 0, 0, 0)


# ---------------------------------------------------------------------------------------------
# score_game


def test_score_game_prints_format_md_example_score():
    out, err = run("score_game", str(EXAMPLE))
    assert json.loads(out) == format_md_json_blocks()[1] == EXAMPLE_SCORE
    assert err == ""


def test_score_game_several_games_players_in_seat_order():
    out, _ = run("score_game", str(MULTI))
    assert json.loads(out) == MULTI_SCORE
    assert [p["name"] for p in json.loads(out)["games"][0]["players"]] == ["Bob", "Automa", "Zoé"]


def test_score_game_reads_standard_input(monkeypatch):
    feed_stdin(monkeypatch, EXAMPLE.read_bytes())
    out, _ = run("score_game", "-")
    assert json.loads(out) == EXAMPLE_SCORE


@pytest.mark.parametrize("path", [EXAMPLE, MULTI], ids=["example", "multi-game"])
def test_score_game_stores_nothing(path):
    run("score_game", str(path))
    assert nothing_stored()


# The reader itself is specified on every invalid document in tests/gamefile/test_reading.py; the
# commands only pass its messages on, so a sample of each kind of problem proves them.
INVALID_SAMPLE = INVALID_DOCUMENTS[::12]


@pytest.mark.parametrize("build, paths", INVALID_SAMPLE)
def test_score_game_invalid_document_names_the_path_and_prints_nothing(tmp_path, build, paths):
    message, out = run_failing("score_game", write(tmp_path, build()))
    for path in paths:
        assert names_path(message, path), message
    assert out == ""
    assert nothing_stored()


def test_score_game_invalid_standard_input(monkeypatch):
    feed_stdin(monkeypatch, b'{"format": "apiary-scorepad", "version": 2, "games": {}}')
    message, out = run_failing("score_game", "-")
    assert names_path(message, "version") and names_path(message, "games")
    assert out == ""


def test_score_game_missing_file(tmp_path):
    message, out = run_failing("score_game", str(tmp_path / "nowhere.json"))
    assert "cannot read" in message
    assert out == ""


# ---------------------------------------------------------------------------------------------
# import_games


def test_import_stores_format_md_example():
    out, _ = run("import_games", str(EXAMPLE), *AS_OWNER)
    assert "Imported 1 game." in out
    game = Game.objects.get()
    assert (game.played_on, game.notes, game.end_trigger_token) == (date(2026, 11, 29), "Friday game night", 7)
    assert game.finished_at is not None
    assert [(s.position, s.first_vp, s.second_vp) for s in game.sectors.order_by("position")] == [(0, 9, 4), (1, 6, 0)]
    alice = game.seats.get()
    assert (alice.number, alice.name, alice.faction, alice.is_automa, alice.active_workers) == (
        1,
        "Alice",
        "Ana",
        False,
        3,
    )
    assert game.during_mode == "breakdown" and alice.vp_track is None  # (a file without "during")
    assert alice.entries(During.BREAKDOWN) == {
        "starting_vp": 1,
        "explore_tokens": 4,
        "farm_income": 6,
        "comb_pods": 2,
        "hive_build_bonuses": 1,
        "advance_strength4": 3,
        "explore_strength4": 0,
        "tile_abilities": 5,
        "seed_card_benefits": 2,
        "planted_seed_cards": 12,
        "farms": 4,
        "recruits": 6,
        "developments": 9,
        "carvings": 14,
        "queens_favor": 5,
        "hive_mat_full": True,
        "frames_filled": 1,
        "faction_ability": 6,
    }
    assert [t.count for t in alice.tokens.order_by("sector__position")] == [2, 1]


def test_import_stores_several_games_with_seats_and_automa():
    out, _ = run("import_games", str(MULTI), *AS_OWNER)
    assert "Imported 3 games." in out
    assert Game.objects.count() == 3
    first = Game.objects.get(played_on=date(2026, 11, 29))
    assert [(s.number, s.name, s.is_automa) for s in first.seats.order_by("number")] == [
        (1, "Bob", False),
        (2, "Automa", True),
        (3, "Zoé", False),
    ]
    assert first.end_trigger_token == 6
    five = Game.objects.get(seats__name="Dee")
    dee = five.seats.get(name="Dee")
    assert [t.count for t in dee.tokens.all()] == [0]  # hibernation left out: no tokens


def test_import_reads_standard_input(monkeypatch):
    feed_stdin(monkeypatch, EXAMPLE.read_bytes())
    out, _ = run("import_games", "-", *AS_OWNER)
    assert "Imported 1 game." in out
    assert Game.objects.count() == 1


def test_import_of_a_minimal_game_fills_in_the_defaults(tmp_path):
    doc = {"format": "apiary-scorepad", "version": 1, "games": [{"players": [{"name": "Alice"}]}]}
    run("import_games", write(tmp_path, json.dumps(doc)), *AS_OWNER)
    game = Game.objects.get()
    assert game.played_on is not None  # no date in the file: the day of the import
    assert (game.notes, game.end_trigger_token, game.sectors.count()) == ("", 7, 0)
    assert game.seats.get().entries()["starting_vp"] == 0


@pytest.mark.parametrize("build, paths", INVALID_SAMPLE)
def test_import_invalid_document_names_the_path_and_stores_nothing(tmp_path, build, paths):
    message, _ = run_failing("import_games", write(tmp_path, build()), *AS_OWNER)
    for path in paths:
        assert names_path(message, path), message
    assert nothing_stored()


def test_import_reports_every_problem_and_stores_nothing(tmp_path):
    message, _ = run_failing("import_games", write(tmp_path, THREE_ERRORS()), *AS_OWNER)
    assert "(3 problems)" in message
    for path in THREE_ERROR_PATHS:
        assert names_path(message, path), message
    assert nothing_stored()


def test_score_game_reports_every_problem_too(tmp_path):
    message, out = run_failing("score_game", write(tmp_path, THREE_ERRORS()))
    assert all(names_path(message, path) for path in THREE_ERROR_PATHS), message
    assert out == ""


def test_import_is_all_or_nothing_when_a_later_game_is_invalid(tmp_path):
    message, _ = run_failing("import_games", write(tmp_path, SECOND_GAME_INVALID()), *AS_OWNER)
    assert names_path(message, SECOND_GAME_INVALID_PATH)
    assert nothing_stored()


def test_an_import_interrupted_midway_keeps_its_batches_and_continues_when_run_again(monkeypatch):
    """Each batch is its own transaction: a failure while storing the 2nd batch keeps the 1st,
    and the same import run again adds the rest, never the 1st twice."""
    from scoring.services import imports as games

    real_store = games.games_store
    calls = []

    def failing_store(data, **kwargs):
        calls.append(data)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real_store(data, **kwargs)

    monkeypatch.setattr(games, "IMPORT_BATCH", 1)
    monkeypatch.setattr(games, "games_store", failing_store)  # (what each batch calls)
    with pytest.raises(RuntimeError):
        call_command("import_games", str(MULTI), *AS_OWNER, stdout=io.StringIO(), stderr=io.StringIO())
    assert Game.objects.count() == 1

    out, _ = run("import_games", str(MULTI), *AS_OWNER)

    assert out.strip() == f"Imported 2 games. 1 game was already stored and was skipped. Owner: {OWNER}."
    assert Game.objects.count() == 3


def test_an_import_says_how_far_it_has_come_on_standard_error(monkeypatch):
    from scoring.services import imports as games

    monkeypatch.setattr(games, "IMPORT_BATCH", 1)
    out, err = run("import_games", str(MULTI), *AS_OWNER)

    assert err.splitlines() == ["1 of 3 games done…", "2 of 3 games done…", "3 of 3 games done…"]
    assert out.strip() == f"Imported 3 games. Owner: {OWNER}."


def test_import_keeps_existing_games(tmp_path):
    run("import_games", str(EXAMPLE), *AS_OWNER)
    run_failing("import_games", write(tmp_path, SECOND_GAME_INVALID()), *AS_OWNER)
    assert Game.objects.count() == 1
    run("import_games", str(MULTI), *AS_OWNER)
    assert Game.objects.count() == 4


def test_importing_the_same_file_twice_stores_its_games_once():
    first, _ = run("import_games", str(MULTI), *AS_OWNER)
    again, _ = run("import_games", str(MULTI), *AS_OWNER)

    assert first.strip() == f"Imported 3 games. Owner: {OWNER}."
    assert again.strip() == f"Imported 0 games. 3 games were already stored and were skipped. Owner: {OWNER}."
    assert Game.objects.count() == 3


def test_an_import_skips_the_games_already_stored_and_adds_the_others(tmp_path):
    """A file holding one game already stored (the example) and three new ones."""
    run("import_games", str(EXAMPLE), *AS_OWNER)
    both = json.loads(MULTI.read_text(encoding="utf-8"))
    both["games"].insert(1, example_document()["games"][0])

    out, _ = run("import_games", write(tmp_path, json.dumps(both)), *AS_OWNER)

    assert out.strip() == f"Imported 3 games. 1 game was already stored and was skipped. Owner: {OWNER}."
    assert Game.objects.count() == 4


def test_a_game_changed_since_its_import_is_another_game(tmp_path):
    run("import_games", str(EXAMPLE), *AS_OWNER)
    value_corrected(seat=Seat.objects.get(number=1), key="farms", value=5)  # corrected on the pad: 4 farms were 5

    out, _ = run("import_games", str(EXAMPLE), *AS_OWNER)

    assert out.strip() == f"Imported 1 game. Owner: {OWNER}."
    assert Game.objects.count() == 2


def test_the_same_games_of_another_account_are_not_skipped(owner):
    user("ann")
    run("import_games", str(MULTI), "--owner", "ann")
    out, _ = run("import_games", str(MULTI), *AS_OWNER)
    assert out.strip() == f"Imported 3 games. Owner: {OWNER}."
    assert Game.objects.filter(owner=owner).count() == Game.objects.filter(owner__username="ann").count() == 3


def test_a_file_that_holds_one_game_twice_stores_it_once(tmp_path):
    """The games of a file count as stored as soon as they are: a game held twice (an export of
    an account that imported it twice before this rule) is stored once, and never again."""
    doc = example_document()
    doc["games"] *= 2
    path = write(tmp_path, json.dumps(doc))

    first, _ = run("import_games", path, *AS_OWNER)
    again, _ = run("import_games", path, *AS_OWNER)

    assert first.strip() == f"Imported 1 game. 1 game was already stored and was skipped. Owner: {OWNER}."
    assert again.strip() == f"Imported 0 games. 2 games were already stored and were skipped. Owner: {OWNER}."
    assert Game.objects.count() == 1


def test_import_missing_file(tmp_path):
    message, _ = run_failing("import_games", str(tmp_path / "nowhere.json"), *AS_OWNER)
    assert "cannot read" in message
    assert nothing_stored()


# Robustness (see tests/gamefile/test_reading.py): valid JSON the reader must reject by path, not crash on.


@pytest.mark.parametrize("command", ["score_game", "import_games"])
@pytest.mark.parametrize("build", UNREADABLE_DOCUMENTS)
def test_unreadable_json_is_an_error_message(tmp_path, command, build):
    message, out = run_failing(command, write(tmp_path, build()), *owner_args(command))
    assert names_path(message, "(document)"), message
    assert out == ""
    assert nothing_stored()


@pytest.mark.parametrize("command", ["score_game", "import_games"])
def test_a_lone_surrogate_in_a_name_is_an_error_message(tmp_path, command):
    message, out = run_failing(command, write(tmp_path, LONE_SURROGATE_NAME()), *owner_args(command))
    assert names_path(message, f"{P0}.name"), message
    assert out == ""
    assert nothing_stored()


# ---------------------------------------------------------------------------------------------
# export_games


def test_export_of_an_empty_database():
    """Nothing stored: the document has no game. It is still a valid backup (next tests)."""
    out, _ = run("export_games")
    assert json.loads(out) == {"format": "apiary-scorepad", "version": 1, "games": []}


def test_export_of_an_empty_database_imports_as_nothing_and_says_so(tmp_path):
    out, _ = run("export_games")
    imported, _ = run("import_games", write(tmp_path, out), *AS_OWNER)
    assert imported.strip() == f"Imported 0 games: the file holds none. Owner: {OWNER}."
    assert nothing_stored()


def test_score_game_of_an_empty_document_prints_no_game(tmp_path):
    out, _ = run("export_games")
    scores, _ = run("score_game", write(tmp_path, out))
    assert json.loads(scores) == {"games": []}


def test_export_writes_format_md_example_back():
    run("import_games", str(EXAMPLE), *AS_OWNER)
    out, _ = run("export_games")
    assert json.loads(out) == example_document()


def test_export_writes_the_multi_game_file_with_every_default_filled_in():
    run("import_games", str(MULTI), *AS_OWNER)
    out, _ = run("export_games")
    # (and the times the file does not say: each game finished at the import, started then at the latest)
    assert without_times(json.loads(out)) == dump_document(parse_document(MULTI.read_bytes()))
    assert out.endswith("}\n")


def test_export_import_export_gives_the_same_document(tmp_path):
    run("import_games", str(MULTI), *AS_OWNER)
    first, _ = run("export_games")

    Game.objects.all().delete()
    assert nothing_stored()
    out, _ = run("import_games", write(tmp_path, first, "first.json"), *AS_OWNER)
    assert "Imported 3 games." in out
    second, _ = run("export_games")

    assert json.loads(second) == json.loads(first)
    assert second == first
    # And the scores of what came back are the scores of the original file.
    scores, _ = run("score_game", write(tmp_path, second, "second.json"))
    assert json.loads(scores) == MULTI_SCORE


def test_the_pad_cannot_store_more_than_7_tokens_so_every_export_imports_again(tmp_path):
    """FORMAT.md: "at most 7 in all for a player". The pad saves each sector on its own, so the
    service refuses a count that would put more than 7 on the comb; a stored game therefore
    always exports to a file that imports again."""
    from scoring.gamefile import read_document
    from scoring.services.imports import game_store
    from scoring.services.pad import Outcome

    game_store(read_document(example_document())[0])  # Alice: [2, 1] on two sectors
    seat = Seat.objects.get()
    refused = save_tokens(seat=seat, sector=GameSector.objects.get(position=0), count=7)
    assert refused.outcome is Outcome.REFUSED and "at most 6 here" in refused.message
    save_tokens(seat=seat, sector=GameSector.objects.get(position=0), count=6)  # 7 in all: fine
    first, _ = run("export_games")

    Game.objects.all().delete()
    run("import_games", write(tmp_path, first), *AS_OWNER)
    second, _ = run("export_games")
    # (the game was in progress: an import stores it finished, at the import's time)
    assert without("finished_at", json.loads(second)) == json.loads(first)


def test_export_output_file(tmp_path):
    run("import_games", str(MULTI), *AS_OWNER)
    to_stdout, _ = run("export_games")
    target = tmp_path / "backup.json"
    out, _ = run("export_games", "--output", str(target))
    assert out == ""
    assert target.read_text(encoding="utf-8") == to_stdout
    assert parse_document(target.read_bytes()) == parse_document(to_stdout)


def test_export_output_file_short_option(tmp_path):
    run("import_games", str(EXAMPLE), *AS_OWNER)
    target = tmp_path / "backup.json"
    run("export_games", "-o", str(target))
    assert json.loads(target.read_text(encoding="utf-8")) == example_document()


def test_export_output_to_an_unwritable_place(tmp_path):
    message, out = run_failing("export_games", "--output", str(tmp_path / "no" / "such" / "dir" / "backup.json"))
    assert "cannot write" in message
    assert out == ""


def test_export_orders_games_oldest_first(tmp_path):
    doc = json.loads(MULTI.read_text(encoding="utf-8"))
    doc["games"].reverse()  # newest first in the file
    run("import_games", write(tmp_path, json.dumps(doc)), *AS_OWNER)
    out, _ = run("export_games")
    assert [g["played_on"] for g in json.loads(out)["games"]] == ["2026-11-29", "2026-12-05", "2026-12-05"]


# ---------------------------------------------------------------------------------------------
# --owner: whose games are imported, whose are exported


def test_import_stores_every_game_as_a_game_of_the_owner_named(owner):
    out, _ = run("import_games", str(MULTI), "--owner", OWNER)
    assert "Imported 3 games." in out and f"Owner: {OWNER}." in out
    assert [game.owner for game in Game.objects.all()] == [owner, owner, owner]


def test_import_for_another_account_gives_the_games_to_that_account(owner):
    ann = user("ann")
    run("import_games", str(MULTI), "--owner", "ann")
    assert set(Game.objects.values_list("owner__username", flat=True)) == {"ann"}
    assert not Game.objects.filter(owner=owner).exists()
    assert Game.objects.filter(owner=ann).count() == 3


def test_import_for_a_user_that_does_not_exist_says_so_and_stores_nothing():
    message, out = run_failing("import_games", str(MULTI), "--owner", "nobody-by-that-name")
    assert 'there is no user "nobody-by-that-name"' in message
    assert out == ""
    assert nothing_stored()


def test_import_for_an_unknown_user_does_not_even_read_the_file(monkeypatch):
    """The owner is checked first: standard input is left unread, and a bad file is not reported."""
    read = []
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=SimpleNamespace(read=lambda: read.append(1) or b"")))
    message, _ = run_failing("import_games", "-", "--owner", "ghost")
    assert 'there is no user "ghost"' in message
    assert read == []
    assert nothing_stored()


def test_import_without_an_owner_is_refused():
    message, _ = run_failing("import_games", str(EXAMPLE))
    assert "--owner" in message and "required" in message
    assert nothing_stored()


def test_user_names_are_matched_exactly_not_ignoring_case():
    message, _ = run_failing("import_games", str(EXAMPLE), "--owner", OWNER.upper())
    assert f'there is no user "{OWNER.upper()}"' in message
    assert nothing_stored()


def two_accounts_games(owner):
    """The owner's game (Alice), Ann's game (Bruno) and a game from before accounts (Carla)."""
    mine = game_scored(player("Alice", farm_income=3), owner=owner, finished=True)
    anns = game_scored(player("Bruno", farm_income=4), owner=user("ann"), finished=True)
    nobodys = game_scored(player("Carla", farm_income=5), owner=None, finished=True)
    return mine, anns, nobodys


def exported_players(text: str) -> list[str]:
    return [game["players"][0]["name"] for game in json.loads(text)["games"]]


def test_export_with_owner_writes_only_that_accounts_games(owner):
    two_accounts_games(owner)
    mine, _ = run("export_games", "--owner", OWNER)
    anns, _ = run("export_games", "--owner", "ann")
    assert exported_players(mine) == ["Alice"]
    assert exported_players(anns) == ["Bruno"]


def test_export_without_owner_writes_every_game_of_every_account_and_of_none(owner):
    two_accounts_games(owner)
    out, _ = run("export_games")
    assert sorted(exported_players(out)) == ["Alice", "Bruno", "Carla"]


def test_export_of_an_account_without_games_has_no_game(owner):
    two_accounts_games(owner)
    user("ben")
    out, _ = run("export_games", "--owner", "ben")
    assert json.loads(out) == {"format": "apiary-scorepad", "version": 1, "games": []}


def test_export_for_a_user_that_does_not_exist_says_so_and_writes_nothing(owner, tmp_path):
    two_accounts_games(owner)
    target = tmp_path / "backup.json"
    message, out = run_failing("export_games", "--owner", "nobody-by-that-name", "--output", str(target))
    assert 'there is no user "nobody-by-that-name"' in message
    assert out == ""
    assert not target.exists()


def test_one_accounts_export_imports_for_another_account_as_the_same_games(owner, tmp_path):
    two_accounts_games(owner)
    user("ben")
    first, _ = run("export_games", "--owner", "ann")
    run("import_games", write(tmp_path, first), "--owner", "ben")
    again, _ = run("export_games", "--owner", "ben")
    assert again == first
    assert Game.objects.filter(owner__username="ann").count() == 1  # Ann's game is still hers alone
