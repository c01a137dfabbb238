"""``manage.py backup`` then ``manage.py restore`` into an empty database give back exactly what
the database held: every row of every table, compared table by table (not two exports)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client

from scoring.actors import Actor
from scoring.management.commands._database_copy import postgres_connection, postgres_run
from scoring.models import Change, Game, GameMember, LanguagePreference, Player
from scoring.services.accounts import account_language_set
from scoring.services.finishing import game_finish, game_reopen
from scoring.services.games import comb_layout_save
from scoring.services.pad import change_undo
from scoring.services.people import players_merge
from scoring.services.sharing import link_renew, link_revoke
from tests.support.factories import game_scored, game_started, player, save_value, seat_of

# A restore replaces the database under every connection: the tests cannot run inside the
# transaction a test is usually rolled back in (and pg_dump would not see its rows).
pytestmark = pytest.mark.django_db(transaction=True)


def contents() -> dict[str, list[tuple]]:
    """Every row of every table of the database (the migrations' record, the sessions and the
    cache's table included), table by table, in a stable order."""
    tables = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            tables[table] = sorted(cursor.fetchall(), key=repr)
    return tables


def a_club_history() -> None:
    """Two accounts and what they make: games finished and in progress, one from before accounts
    (no owner), changes and an undo, share links live and revoked, a member, players merged (an
    alias), a comb layout, the tallies, a language, a signed-in session."""
    ann = User.objects.create_user("ann", email="ann@example.org", password="a-long-pass-phrase-1")
    ben = User.objects.create_user("ben", password="a-long-pass-phrase-2")
    finished = game_scored(
        player("Ann", farm_income=12, faction="Ria", tokens=(2, 0, 1)),
        player("Bob", recruits=3),
        owner=ann,
        finished=True,
    )
    game_reopen(game=finished, by=Actor(user=ann))  # corrected, then the correction undone
    save_value(seat=seat_of(finished, 2), key="recruits", value=5, by=Actor(user=ann))
    change_undo(game=finished, change=Change.objects.get(game=finished), by=Actor(user=ann))
    game_finish(game=finished, by=Actor(user=ann))
    in_progress = game_started("Ann", "Bobby", owner=ann)
    save_value(seat=seat_of(in_progress, 1), key="farm_income", value=7, sum_text="3+4", by=Actor(user=ann))
    players_merge(keep=Player.objects.get(owner=ann, name="Bob"), merged=Player.objects.get(owner=ann, name="Bobby"))
    edit = link_renew(game=in_progress, access="edit")
    link_renew(game=in_progress, access="view")
    link_revoke(game=in_progress, access="view")
    GameMember.objects.create(game=in_progress, user=ben, link=edit)
    save_value(seat=seat_of(in_progress, 2), key="recruits", value=2, by=Actor(link=edit, name="Bob"))
    game_finish(game=game_scored(player("Ben", farm_income=2), player("Automa", automa=True), owner=ben))
    game_started("Old", "Timer", owner=None)  # a game of nobody: from before accounts
    comb_layout_save(name="Club comb", sectors=[(9, 4), (13, 0)], owner=ann)
    account_language_set(ben, "fr")
    Client().force_login(ann)


def test_a_backup_restored_into_an_empty_database_gives_back_every_row(tmp_path):
    """A game in progress stays in progress (and out of the tallies), a game with no owner is
    kept, and so is everything else: ids, links, changes, players, sessions..."""
    a_club_history()
    assert Game.objects.filter(finished_at=None).count() == 2
    assert Game.objects.filter(owner=None).count() == 1
    before = contents()

    call_command("backup", str(tmp_path))
    (backup,) = tmp_path.iterdir()
    call_command("flush", interactive=False)  # an empty, migrated database
    assert not Game.objects.exists()
    call_command("restore", str(backup))

    assert Game.objects.filter(finished_at=None).count() == 2  # still in progress
    assert Game.objects.filter(owner=None).count() == 1  # still there
    assert contents() == before
    assert User.objects.get(username="ann").check_password("a-long-pass-phrase-1")
    newer = game_started(owner=None)  # the database goes on numbering after the restored rows
    assert newer.pk > max(Game.objects.exclude(pk=newer.pk).values_list("pk", flat=True))


def test_restore_refuses_a_database_that_holds_accounts_or_games_unless_told_to_replace_them(tmp_path):
    User.objects.create_user("ann", password="a-long-pass-phrase-1")
    call_command("backup", "--output", str(tmp_path / "site.backup"))
    since = game_started(owner=None)

    with pytest.raises(CommandError, match="already holds accounts or games"):
        call_command("restore", str(tmp_path / "site.backup"))
    assert Game.objects.get() == since  # untouched

    call_command("restore", str(tmp_path / "site.backup"), "--replace")
    assert not Game.objects.exists()
    assert list(User.objects.values_list("username", flat=True)) == ["ann"]


def test_restore_refuses_a_database_that_a_newer_version_migrated(tmp_path):
    """Its tables that the backup does not have would stay, and ``migrate`` would then fail on them."""
    with connection.schema_editor() as editor:  # the backup is of the version before the languages
        editor.delete_model(LanguagePreference)
    try:
        call_command("backup", "--output", str(tmp_path / "site.backup"))
    finally:
        with connection.schema_editor() as editor:
            editor.create_model(LanguagePreference)
    with pytest.raises(CommandError, match=r"tables that .* does not have \(scoring_languagepreference\)"):
        call_command("restore", str(tmp_path / "site.backup"))


def test_backup_writes_where_told_and_never_over_a_file(tmp_path):
    call_command("backup", "--output", str(tmp_path / "site.backup"))
    assert (tmp_path / "site.backup").stat().st_mode & 0o077 == 0  # its owner's only: it holds password hashes
    (tmp_path / "other").write_text("keep me", encoding="utf-8")
    with pytest.raises(CommandError, match="already exists"):
        call_command("backup", "--output", str(tmp_path / "other"))
    assert (tmp_path / "other").read_text(encoding="utf-8") == "keep me"
    with pytest.raises(CommandError, match="cannot write"):
        call_command("backup", "--output", str(tmp_path / "no" / "such" / "folder" / "site.backup"))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["other", "site.backup"]  # nothing half-written


def a_backup_of_another_site(path: Path) -> None:
    """A backup, of this kind of database, that holds no table of this site's games."""
    if connection.vendor == "sqlite":
        with closing(sqlite3.connect(path)) as other:
            other.execute("CREATE TABLE notes (id integer)")
    else:
        postgres_run("pg_dump", "--format=custom", "--table=auth_group", f"--file={path}")


def test_restore_says_what_is_wrong_with_a_file_that_is_not_a_backup_of_this_site(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("restore", str(tmp_path / "missing.backup"))
    (tmp_path / "games.json").write_text('{"format": "apiary-scorepad"}', encoding="utf-8")
    with pytest.raises(CommandError, match="is not a backup"):
        call_command("restore", str(tmp_path / "games.json"))
    other_kind = {"sqlite": b"PGDMP\x01\x0e", "postgresql": b"SQLite format 3\x00"}[connection.vendor]
    (tmp_path / "other.backup").write_bytes(other_kind)
    with pytest.raises(CommandError, match="is a backup of a .* database, and this site’s database is"):
        call_command("restore", str(tmp_path / "other.backup"))
    a_backup_of_another_site(tmp_path / "another-site.backup")
    with pytest.raises(CommandError, match="is not a backup of the Apiary Scorepad"):
        call_command("restore", str(tmp_path / "another-site.backup"))


def test_the_postgresql_tools_get_the_password_from_the_environment_never_on_their_command_line():
    options, environment = postgres_connection(
        {
            "NAME": "apiary",
            "USER": "scorer",
            "PASSWORD": "s3cret pass",
            "HOST": "db.example.org",
            "PORT": 5433,
            "OPTIONS": {"sslmode": "require", "options": "-c statement_timeout=10000"},
        }
    )
    assert options == ["--host=db.example.org", "--port=5433", "--username=scorer", "--dbname=apiary", "--no-password"]
    assert environment == {"PGPASSWORD": "s3cret pass", "PGSSLMODE": "require"}


def test_the_postgresql_tools_connect_by_the_socket_a_database_url_names_in_its_query():
    """``postgres://user@/apiary?host=/run/pg&port=5433``: Django connects by that socket (the
    query is its connection's options), and so do pg_dump and pg_restore."""
    options, _environment = postgres_connection(
        {"NAME": "apiary", "USER": "scorer", "HOST": "", "PORT": "", "OPTIONS": {"host": "/run/pg", "port": 5433}}
    )
    assert options == ["--host=/run/pg", "--port=5433", "--username=scorer", "--dbname=apiary", "--no-password"]
